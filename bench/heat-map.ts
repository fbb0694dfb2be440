/**
 * The heat map of every run, measured in Chromium (CONTRACT.md §22, decision 044): 1,500 runs of
 * 200 points each (the map's polylines, §16) around one city, as a runner who runs from home. The
 * page's own code (web/features/tracks/components/heat-map.ts) is bundled with esbuild and timed in
 * the browser with performance.now(): decoding and projecting every polyline once, then the first
 * drawing of a zoom level (stroke, colour, into an offscreen canvas) and copying it on a pan.
 *
 *   npx tsx bench/heat-map.ts [--runs 1500] [--points 200]
 *
 * Target: the first heat map of 1,500 runs within 1 s (decode + project + one zoom's drawing).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/support/browser.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg('runs', 1500);
const POINTS = arg('points', 200);

const entry = `
import polyline from '@mapbox/polyline';
import { heatWindow, prepareHeat, renderHeat } from ${JSON.stringify(
  fileURLToPath(new URL('../web/features/tracks/components/heat-map.ts', import.meta.url)),
)};

// Deterministic runs: loops and out-and-backs from a few starts in a 10 km square, 200 points each.
function lines(runs, points) {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const ways = Array.from({ length: 40 }, () => {
    const lat0 = 51.45 + random() * 0.09, lon0 = -0.2 + random() * 0.15;
    const heading = random() * Math.PI * 2, size = 0.01 + random() * 0.03;
    return Array.from({ length: points }, (_, k) => {
      const a = heading + (k / (points - 1)) * Math.PI * 2;
      return [lat0 + size * Math.sin(a) * 0.7, lon0 + size * (Math.cos(a) - Math.cos(heading))];
    });
  });
  return Array.from({ length: runs }, () => {
    const way = ways[Math.floor(random() * ways.length)];
    // GPS wobble of a few metres: each run of a way is its own line.
    return polyline.encode(way.map(([lat, lon]) => [lat + (random() - 0.5) * 0.00008, lon + (random() - 0.5) * 0.00008]), 5);
  });
}

window.heatBench = (runs, points, width, height) => {
  const encoded = lines(runs, points);
  const t0 = performance.now();
  const data = prepareHeat(encoded);
  const t1 = performance.now();
  const result = { prepareMs: t1 - t0, zooms: [] };
  const visible = document.createElement('canvas');
  visible.width = width; visible.height = height;
  const context = visible.getContext('2d');
  for (const zoom of [11, 12, 13, 14, 15, 16]) {
    // The view centred on the runs' middle point at this zoom.
    const scale = 256 * 2 ** zoom;
    const center = { x: data.xs[Math.floor(data.xs.length / 2)] * scale, y: data.ys[Math.floor(data.ys.length / 2)] * scale };
    const a = performance.now();
    const window_ = heatWindow(data, zoom, center);
    const canvas = renderHeat(data, zoom, window_);
    const b = performance.now();
    // A pan: copying the zoom's drawing onto the visible canvas.
    for (let k = 0; k < 60; k++) { context.clearRect(0, 0, width, height); context.drawImage(canvas, -k * 5, -k * 3); }
    context.getImageData(0, 0, 1, 1);
    const c = performance.now();
    result.zooms.push({ zoom, side: [window_.width, window_.height], drawMs: b - a, panCopyMs: (c - b) / 60 });
  }
  return result;
};
`;

const bundle = await build({
  stdin: { contents: entry, resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'js' },
  bundle: true,
  format: 'iife',
  write: false,
  platform: 'browser',
});

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    rounds.push(
      await page.evaluate(
        ([runs, points]) =>
          (
            globalThis as unknown as {
              heatBench: (r: number, p: number, w: number, h: number) => unknown;
            }
          ).heatBench(runs!, points!, 1280, 800),
        [RUNS, POINTS],
      ),
    );
  }
  type Round = { prepareMs: number; zooms: { zoom: number; side: number[]; drawMs: number; panCopyMs: number }[] };
  const all = rounds as Round[];
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const prepare = median(all.map((r) => r.prepareMs));
  console.log(`Heat map, ${RUNS} runs x ${POINTS} points, Chromium (${await browser.version()}), median of 5:`);
  console.log(`  decode + project once: ${prepare.toFixed(1)} ms`);
  for (const [k, zoom] of all[0]!.zooms.entries()) {
    const draw = median(all.map((r) => r.zooms[k]!.drawMs));
    const copy = median(all.map((r) => r.zooms[k]!.panCopyMs));
    console.log(
      `  zoom ${zoom.zoom}: drawing ${zoom.side.join(' x ')} px ${draw.toFixed(1)} ms; a pan frame ${copy.toFixed(2)} ms; first heat map ${(prepare + draw).toFixed(1)} ms`,
    );
  }
} finally {
  await browser.close();
}

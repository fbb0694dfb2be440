/**
 * The heat map of every run (CONTRACT.md §22): every position of every run's line (§16's polylines)
 * drawn on a canvas where runs that repeat add up, coloured from faint to hot. Apart from the map
 * library, so that it can be measured and checked alone.
 *
 * Cost: the polylines are decoded and projected once (Web Mercator, as the map's tiles), into typed
 * arrays. Each zoom level then counts the runs crossing each pixel once and colours the counts into
 * an offscreen canvas; panning only copies that canvas onto the visible one. The offscreen canvas covers the runs at that zoom, at
 * most `MAX_SIDE` pixels a side around the view; a pan beyond it draws the part now in view.
 */

/** The runs' positions, projected to the unit square of Web Mercator (0-1 on both axes). */
export interface HeatData {
  xs: Float64Array;
  ys: Float64Array;
  /** Where each run's points start in `xs`/`ys`, and one past the last run's end. */
  starts: Uint32Array;
}

const TILE = 256;
export const MAX_SIDE = 2048;

function mercator(lat: number, lon: number): [number, number] {
  const sin = Math.sin((Math.max(-85.05112878, Math.min(85.05112878, lat)) * Math.PI) / 180);
  return [(lon + 180) / 360, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)];
}

/** How many points a Google encoded polyline holds (one per latitude-longitude pair). */
function pointCount(encoded: string): number {
  let values = 0;
  for (let k = 0; k < encoded.length; k++) if (encoded.charCodeAt(k) - 63 < 0x20) values++;
  return values >> 1;
}

/**
 * Decodes every polyline (precision 5) straight into projected typed arrays: no array per point,
 * so 300,000 positions cost one pass and two allocations.
 */
export function prepareHeat(polylines: readonly string[]): HeatData {
  const total = polylines.reduce((sum, line) => sum + pointCount(line), 0);
  const xs = new Float64Array(total);
  const ys = new Float64Array(total);
  const starts = new Uint32Array(polylines.length + 1);
  let k = 0;
  polylines.forEach((encoded, run) => {
    starts[run] = k;
    let index = 0;
    let lat = 0;
    let lon = 0;
    const next = () => {
      let result = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = encoded.charCodeAt(index++) - 63;
        result |= (byte & 0x1f) << shift;
        shift += 5;
      } while (byte >= 0x20 && index < encoded.length);
      return result & 1 ? ~(result >> 1) : result >> 1;
    };
    while (index < encoded.length && k < total) {
      lat += next();
      if (index >= encoded.length) break;
      lon += next();
      const [x, y] = mercator(lat / 1e5, lon / 1e5);
      xs[k] = x;
      ys[k] = y;
      k++;
    }
  });
  starts[polylines.length] = k;
  return { xs, ys, starts };
}

/** A rectangle of world pixels at one zoom level. */
export interface PixelWindow {
  x: number;
  y: number;
  width: number;
  height: number;
  /** True when the runs reach beyond it (it was cut to MAX_SIDE). */
  clipped?: boolean;
}

/** The world pixels the runs cover at `zoom`, cut to at most MAX_SIDE a side around `center`. */
export function heatWindow(data: HeatData, zoom: number, center: { x: number; y: number }, pad = 8): PixelWindow {
  const scale = TILE * 2 ** zoom;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let k = 0; k < data.xs.length; k++) {
    const x = data.xs[k]! * scale;
    const y = data.ys[k]! * scale;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (!Number.isFinite(minX)) return { x: center.x, y: center.y, width: 1, height: 1 };
  const clip = (low: number, high: number, middle: number): [number, number] => {
    if (high - low <= MAX_SIDE) return [low, high];
    const from = Math.max(low, Math.min(middle - MAX_SIDE / 2, high - MAX_SIDE));
    return [from, from + MAX_SIDE];
  };
  const [x0, x1] = clip(minX - pad, maxX + pad, center.x);
  const [y0, y1] = clip(minY - pad, maxY + pad, center.y);
  const clipped = x1 - x0 < maxX - minX + 2 * pad || y1 - y0 < maxY - minY + 2 * pad;
  return { x: Math.floor(x0), y: Math.floor(y0), width: Math.ceil(x1 - x0), height: Math.ceil(y1 - y0), clipped };
}

/** The colour ramp: faint blue where a run passed once, through magenta and orange, to yellow where many did. */
const RAMP: readonly [number, number, number][] = [
  [37, 99, 235],
  [192, 38, 211],
  [234, 88, 12],
  [250, 204, 21],
];

function rampColor(share: number): [number, number, number] {
  const at = Math.min(1, Math.max(0, share)) * (RAMP.length - 1);
  const low = Math.floor(at);
  const high = Math.min(RAMP.length - 1, low + 1);
  const mix = at - low;
  const a = RAMP[low]!;
  const b = RAMP[high]!;
  return [a[0] + (b[0] - a[0]) * mix, a[1] + (b[1] - a[1]) * mix, a[2] + (b[2] - a[2]) * mix];
}

/** 256 colours by alpha, worked out once. */
const PALETTE = (() => {
  const palette = new Uint8ClampedArray(256 * 3);
  for (let alpha = 0; alpha < 256; alpha++) {
    const [r, g, b] = rampColor(alpha / 255);
    palette[alpha * 3] = r;
    palette[alpha * 3 + 1] = g;
    palette[alpha * 3 + 2] = b;
  }
  return palette;
})();

type AnyCanvas = HTMLCanvasElement | OffscreenCanvas;

function makeCanvas(width: number, height: number): AnyCanvas {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/**
 * Counts, for each pixel of `window` at `zoom`, how often the runs' lines cross it (each segment
 * between two positions stepped pixel by pixel, two pixels wide), then colours the counts on a
 * logarithmic ramp into a new offscreen canvas. Counting in an array is much cheaper than stroking
 * 1,500 translucent paths on a canvas and reading it back. Null where there is no 2D context.
 */
export function renderHeat(data: HeatData, zoom: number, window: PixelWindow): AnyCanvas | null {
  const { width, height } = window;
  const counts = new Uint16Array(width * height);
  const scale = TILE * 2 ** zoom;
  const { xs, ys, starts } = data;
  let most = 0;
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width - 1 || y >= height - 1) return;
    const at = y * width + x;
    const value = counts[at]! + 1;
    if (value > 65_000) return;
    counts[at] = value;
    counts[at + 1] = Math.max(counts[at + 1]!, value);
    counts[at + width] = Math.max(counts[at + width]!, value);
    if (value > most) most = value;
  };
  for (let run = 0; run + 1 < starts.length; run++) {
    const from = starts[run]!;
    const to = starts[run + 1]!;
    let x0 = xs[from]! * scale - window.x;
    let y0 = ys[from]! * scale - window.y;
    if (to - from === 1) add(Math.floor(x0), Math.floor(y0));
    for (let k = from + 1; k < to; k++) {
      const x1 = xs[k]! * scale - window.x;
      const y1 = ys[k]! * scale - window.y;
      const outside =
        (x0 < 0 && x1 < 0) || (y0 < 0 && y1 < 0) || (x0 >= width && x1 >= width) || (y0 >= height && y1 >= height);
      if (!outside) {
        const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
        const dx = (x1 - x0) / steps;
        const dy = (y1 - y0) / steps;
        // The segment's first pixel is the previous one's last: counted once per run.
        for (let step = 1; step <= steps; step++) add(Math.floor(x0 + dx * step), Math.floor(y0 + dy * step));
      }
      x0 = x1;
      y0 = y1;
    }
  }
  const canvas = makeCanvas(width, height);
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) return null;
  const image = context.createImageData(width, height);
  const pixels = image.data;
  // A logarithmic ramp: a street run once shows, a loop run a thousand times is the hottest.
  const shade = new Uint8Array(most + 1);
  const top = Math.log1p(Math.max(2, most));
  for (let count = 1; count <= most; count++) shade[count] = Math.round((255 * Math.log1p(count)) / top);
  for (let at = 0; at < counts.length; at++) {
    const count = counts[at]!;
    if (count === 0) continue;
    const level = shade[count]!;
    const p = at * 4;
    pixels[p] = PALETTE[level * 3]!;
    pixels[p + 1] = PALETTE[level * 3 + 1]!;
    pixels[p + 2] = PALETTE[level * 3 + 2]!;
    // Even a single pass stays visible: at least 60% opaque.
    pixels[p + 3] = 155 + Math.round((level * 100) / 255);
  }
  context.putImageData(image, 0, 0);
  return canvas;
}

/** One zoom level's drawing, kept while the view stays inside it. */
export interface HeatFrame {
  zoom: number;
  window: PixelWindow;
  canvas: AnyCanvas;
}

/** Whether `frame` covers the view (world pixels at the frame's zoom). */
export function frameCovers(frame: HeatFrame, zoom: number, view: PixelWindow): boolean {
  const { window } = frame;
  if (frame.zoom !== zoom) return false;
  if (!window.clipped) return true;
  return (
    view.x >= window.x - 1 &&
    view.y >= window.y - 1 &&
    view.x + view.width <= window.x + window.width + 1 &&
    view.y + view.height <= window.y + window.height + 1
  );
}

/**
 * The heat map of every run (CONTRACT.md §22): every position of every run's line (§16's polylines)
 * drawn on a canvas where runs that repeat add up, coloured from faint to hot. Apart from the map
 * library, so that it can be measured and checked alone.
 *
 * Cost: the polylines are decoded and projected once (Web Mercator, as the map's tiles), into typed
 * arrays. Each zoom level then draws the runs once into an offscreen canvas (translucent strokes
 * whose alpha adds up where lines overlap) and colours it in one pass over its pixels; panning only
 * copies that canvas onto the visible one. The offscreen canvas covers the runs at that zoom, at
 * most `MAX_SIDE` pixels a side around the view; a pan beyond it draws the part now in view.
 */
import { decodeRoute } from './route-geometry';

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

export function prepareHeat(polylines: readonly string[]): HeatData {
  const decoded = polylines.map((line) => decodeRoute(line));
  const total = decoded.reduce((sum, points) => sum + points.length, 0);
  const xs = new Float64Array(total);
  const ys = new Float64Array(total);
  const starts = new Uint32Array(decoded.length + 1);
  let k = 0;
  decoded.forEach((points, run) => {
    starts[run] = k;
    for (const [lat, lon] of points) {
      const [x, y] = mercator(lat, lon);
      xs[k] = x;
      ys[k] = y;
      k++;
    }
  });
  starts[decoded.length] = k;
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
 * Draws the runs inside `window` at `zoom` into a new offscreen canvas, coloured by how many runs
 * pass each pixel. Null where the browser cannot draw (no 2D context).
 */
export function renderHeat(data: HeatData, zoom: number, window: PixelWindow): AnyCanvas | null {
  const canvas = makeCanvas(window.width, window.height);
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) return null;
  const scale = TILE * 2 ** zoom;
  // Each run adds a little alpha; a pixel that many runs cross approaches opaque.
  context.lineWidth = zoom >= 15 ? 3 : 2;
  context.lineJoin = 'round';
  context.lineCap = 'round';
  context.strokeStyle = 'rgba(0, 0, 0, 0.22)';
  const { xs, ys, starts } = data;
  for (let run = 0; run + 1 < starts.length; run++) {
    const from = starts[run]!;
    const to = starts[run + 1]!;
    if (to - from < 2) continue;
    context.beginPath();
    context.moveTo(xs[from]! * scale - window.x, ys[from]! * scale - window.y);
    for (let k = from + 1; k < to; k++) context.lineTo(xs[k]! * scale - window.x, ys[k]! * scale - window.y);
    context.stroke();
  }
  const image = context.getImageData(0, 0, window.width, window.height);
  const pixels = image.data;
  for (let p = 0; p < pixels.length; p += 4) {
    const alpha = pixels[p + 3]!;
    if (alpha === 0) continue;
    pixels[p] = PALETTE[alpha * 3]!;
    pixels[p + 1] = PALETTE[alpha * 3 + 1]!;
    pixels[p + 2] = PALETTE[alpha * 3 + 2]!;
    // Even a single pass stays visible: at least 55% opaque.
    pixels[p + 3] = 140 + Math.round((alpha * 115) / 255);
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

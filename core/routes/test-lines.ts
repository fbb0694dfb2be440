/**
 * Runs of known geometry for the tests of core/routes: shapes in metres around a centre, sampled as
 * a watch would (every second at a steady speed), with seeded GPS noise, pauses, and an independent
 * great-circle distance from a point to an arc to check the plane's error against.
 */
import type { Track } from '../tracks/types.js';
import { EARTH_RADIUS_M, METRES_PER_DEGREE } from './geometry.js';

/** A seeded generator of numbers in [0, 1) (mulberry32): the same noise on every run of the tests. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const CENTRE = { lat: 52.37, lon: 4.89 };

/** Degrees of the point `east` and `north` metres from a centre (a plane around it: a few km). */
export function offset(east: number, north: number, centre = CENTRE): [number, number] {
  return [
    centre.lat + north / METRES_PER_DEGREE,
    centre.lon + east / (METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180)),
  ];
}

/** A shape in metres: corners joined by straight legs. */
export type Corners = [east: number, north: number][];

/** Points every `step` metres along the corners (their last one included), in metres. */
export function walk(corners: Corners, step: number): Corners {
  const out: Corners = [corners[0]!];
  let carried = 0;
  for (let c = 1; c < corners.length; c++) {
    const [x0, y0] = corners[c - 1]!;
    const [x1, y1] = corners[c]!;
    const length = Math.hypot(x1 - x0, y1 - y0);
    let at = step - carried;
    while (at <= length) {
      out.push([x0 + ((x1 - x0) * at) / length, y0 + ((y1 - y0) * at) / length]);
      at += step;
    }
    carried = length - (at - step);
  }
  const last = corners[corners.length - 1]!;
  const previous = out[out.length - 1]!;
  if (previous[0] !== last[0] || previous[1] !== last[1]) out.push(last);
  return out;
}

/** A circle of `radius` m around (east, north) as corners, from angle `from` (radians) anticlockwise. */
export function circle(radius: number, opts: { from?: number; turns?: number; points?: number } = {}): Corners {
  const from = opts.from ?? 0;
  const turns = opts.turns ?? 1;
  const points = opts.points ?? 720;
  const corners: Corners = [];
  for (let k = 0; k <= points * turns; k++) {
    const angle = from + (2 * Math.PI * k) / points;
    corners.push([radius * Math.cos(angle), radius * Math.sin(angle)]);
  }
  return corners;
}

/**
 * A watch's track over the corners: a sample every second at `speed` m/s, d its exact distance,
 * positions with up to `noise` metres of seeded noise each way. A pause stops the clock-bound samples
 * at `pause.atM` metres and resumes `pause.seconds` later (the timer stopped, no samples between).
 */
export function trackAlong(
  corners: Corners,
  opts: {
    speed?: number;
    noise?: number;
    seed?: number;
    pause?: { atM: number; seconds: number };
    startT?: number;
  } = {},
): Track {
  const speed = opts.speed ?? 3;
  const random = seeded(opts.seed ?? 1);
  const noise = opts.noise ?? 0;
  const points = walk(corners, speed);
  const track: Track = {
    t: [],
    lat: [],
    lon: [],
    d: [],
    ele: null,
    hr: null,
    cad: null,
    laps: [],
    pauses: [],
    deviceElevation: null,
  };
  let t = opts.startT ?? 0;
  let d = 0;
  for (let i = 0; i < points.length; i++) {
    if (i > 0) {
      const step = Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]);
      t += step / speed;
      if (opts.pause && d < opts.pause.atM && d + step >= opts.pause.atM) {
        track.pauses.push([t, t + opts.pause.seconds]);
        t += opts.pause.seconds;
      }
      d += step;
    }
    const [lat, lon] = offset(
      points[i]![0] + (random() - 0.5) * 2 * noise,
      points[i]![1] + (random() - 0.5) * 2 * noise,
    );
    track.t.push(Math.round(t * 1000) / 1000);
    track.lat!.push(lat);
    track.lon!.push(lon);
    track.d!.push(Math.round(d * 100) / 100);
  }
  return track;
}

type Vector = [number, number, number];
const unit = (lat: number, lon: number): Vector => {
  const φ = (lat * Math.PI) / 180;
  const λ = (lon * Math.PI) / 180;
  return [Math.cos(φ) * Math.cos(λ), Math.cos(φ) * Math.sin(λ), Math.sin(φ)];
};
const dot = (a: Vector, b: Vector) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vector, b: Vector): Vector => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/** The angle between two unit vectors, well conditioned at small angles. */
const angle = (a: Vector, b: Vector) => Math.atan2(Math.hypot(...cross(a, b)), dot(a, b));

/**
 * The great-circle distance in metres from p to the arc a-b, by vectors on the unit sphere (not
 * the plane of geometry.ts): across the arc when p's foot falls between its ends, else to the nearer end.
 */
export function greatCircleToArc(p: [number, number], a: [number, number], b: [number, number]): number {
  const [vp, va, vb] = [unit(...p), unit(...a), unit(...b)];
  const normal = cross(va, vb);
  const size = Math.hypot(...normal);
  if (size > 0) {
    const n: Vector = [normal[0] / size, normal[1] / size, normal[2] / size];
    const across = dot(vp, n);
    const foot: Vector = [vp[0] - across * n[0], vp[1] - across * n[1], vp[2] - across * n[2]];
    if (dot(cross(va, foot), n) >= 0 && dot(cross(foot, vb), n) >= 0) {
      return EARTH_RADIUS_M * Math.abs(Math.asin(across));
    }
  }
  return EARTH_RADIUS_M * Math.min(angle(vp, va), angle(vp, vb));
}

/**
 * Activity files with tracks (CONTRACT.md §13), generated in code: a run as a watch records it
 * (a wandering route with GPS noise, hills, heart rate and cadence that drift), written as FIT
 * with Garmin's own encoder, as TCX and GPX the way devices write them, and hostile files.
 */
import { fitFile, type FitLap, type FitRecord, type FitSession } from './fixtures.js';

/** A small deterministic generator (mulberry32): fixtures are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One instant of a synthetic run, in the units files use (cadence per leg). */
export interface RunSample {
  /** Seconds after the start. */
  t: number;
  lat: number;
  lon: number;
  /** Metres along the route, as a watch's own distance (not recomputed from the noisy positions). */
  distance: number;
  elevation: number;
  heartRate: number;
  cadence: number;
}

const METRES_PER_DEGREE = 111_195;

/**
 * A run of `seconds` seconds sampled every `every` seconds: about 3 m/s with changes of pace,
 * a heading that wanders, GPS noise of a metre or two, rolling hills at the barometer's 0.2 m,
 * a heart rate that climbs, and a per-leg cadence around 86.
 */
export function syntheticRun(seconds: number, opts: { seed?: number; every?: number } = {}): RunSample[] {
  const random = seededRandom(opts.seed ?? 1);
  const every = opts.every ?? 1;
  const samples: RunSample[] = [];
  let north = 0;
  let east = 0;
  let heading = random() * 2 * Math.PI;
  let distance = 0;
  let speed = 3;
  for (let t = 0; t <= seconds; t += every) {
    if (t > 0) {
      speed = Math.min(4.5, Math.max(2.2, speed + (random() - 0.5) * 0.2));
      heading += (random() - 0.5) * 0.15;
      north += Math.cos(heading) * speed * every;
      east += Math.sin(heading) * speed * every;
      distance += speed * every;
    }
    const lat = 48.85 + (north + (random() - 0.5) * 3) / METRES_PER_DEGREE;
    const lon = 2.35 + (east + (random() - 0.5) * 3) / (METRES_PER_DEGREE * Math.cos((48.85 * Math.PI) / 180));
    const hills = 40 + 15 * Math.sin(distance / 700) + 6 * Math.sin(distance / 170);
    samples.push({
      t,
      lat,
      lon,
      distance,
      elevation: Math.round((hills + (random() - 0.5) * 0.6) * 5) / 5,
      heartRate: Math.round(135 + (20 * t) / Math.max(seconds, 1) + 8 * Math.sin(t / 300) + (random() - 0.5) * 4),
      cadence: Math.round(84 + speed * 0.8 + (random() - 0.5) * 3),
    });
  }
  return samples;
}

export const fitRecordOf = (s: RunSample): FitRecord => ({
  t: s.t,
  lat: s.lat,
  lon: s.lon,
  distance: s.distance,
  enhancedAltitude: s.elevation,
  heartRate: s.heartRate,
  cadence: s.cadence,
});

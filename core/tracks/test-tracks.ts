/**
 * Tracks for the tests of core/tracks: a builder with empty defaults, and a fast-check arbitrary of
 * awkward tracks (uneven sampling, standing still, GPS jumps, pauses, gaps in every channel).
 */
import fc from 'fast-check';
import type { Track } from './types.js';

/** A track with the given columns; the others absent, no laps, no pauses. */
export function makeTrack(columns: Partial<Track> & { t: number[] }): Track {
  return {
    lat: null,
    lon: null,
    d: null,
    ele: null,
    hr: null,
    cad: null,
    laps: [],
    pauses: [],
    deviceElevation: null,
    ...columns,
  };
}

/** One step between samples: standing still, running, or a GPS jump far beyond 50 km/h. */
const step = fc.record({
  ms: fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 3001, max: 30_000 })),
  kind: fc.constantFrom('still', 'run', 'run', 'run', 'jump'),
  /** cm per second when running, metres when jumping. */
  amount: fc.integer({ min: 50, max: 600 }),
});

/** A sample's value in a channel, or NaN (a sample without it) one time in five. */
const sometimes = (value: fc.Arbitrary<number>) =>
  fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(Number.NaN) });

/**
 * Random tracks of 2-`maxSamples` samples with distances (to the cm), times (to the ms), elevation,
 * heart rate and cadence (each sometimes missing), and pauses anywhere on the clock.
 */
export function arbitraryTrack(maxSamples = 40): fc.Arbitrary<Track> {
  return fc
    .record({
      steps: fc.array(step, { minLength: 1, maxLength: maxSamples - 1 }),
      ele: fc.array(sometimes(fc.integer({ min: -100, max: 600 })), { minLength: maxSamples, maxLength: maxSamples }),
      hr: fc.array(sometimes(fc.integer({ min: 60, max: 205 })), { minLength: maxSamples, maxLength: maxSamples }),
      cad: fc.array(sometimes(fc.integer({ min: 0, max: 190 })), { minLength: maxSamples, maxLength: maxSamples }),
      pauseCuts: fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 8 }),
      firstCm: fc.integer({ min: 0, max: 5000 }),
    })
    .map(({ steps, ele, hr, cad, pauseCuts, firstCm }) => {
      const ms = [0];
      const cm = [firstCm];
      for (const { ms: dt, kind, amount } of steps) {
        ms.push(ms[ms.length - 1]! + dt);
        const dd = kind === 'still' ? 0 : kind === 'run' ? Math.round((amount * dt) / 1000) : amount * 100 + 20_000;
        cm.push(cm[cm.length - 1]! + dd);
      }
      const n = ms.length;
      // Pause edges anywhere from before the first sample to after the last, paired in order.
      const lastMs = ms[n - 1]!;
      const edges = pauseCuts.map((cut) => Math.round((cut / 10_000) * (lastMs + 2000)) - 1000).sort((a, b) => a - b);
      const pauses: [number, number][] = [];
      for (let k = 0; k + 1 < edges.length; k += 2) {
        if (edges[k + 1]! > edges[k]!) pauses.push([edges[k]! / 1000, edges[k + 1]! / 1000]);
      }
      return makeTrack({
        t: ms.map((value) => value / 1000),
        d: cm.map((value) => value / 100),
        ele: ele.slice(0, n).map((dm) => dm / 10),
        hr: hr.slice(0, n),
        cad: cad.slice(0, n),
        pauses,
      });
    });
}

/** Where `loopTrack` runs: a park's loop of this many metres around a centre. */
export const LOOP_CENTRE = { lat: 51.5, lon: -0.12 } as const;

/**
 * A steady run round a circular loop, one sample a second: positions, distances, a rolling
 * elevation (±10 m over each 2 km) and a heart rate climbing from 120 to 170 bpm, with whichever
 * channels are asked for. A pause leaves a gap in the samples' clock, as devices record it.
 */
export function loopTrack({
  seconds = 1200,
  metresPerSecond = 3.2,
  loopMetres = 2000,
  positions = true,
  elevation = true,
  heartRate = true,
  pause = null,
  laps = [],
}: {
  seconds?: number;
  metresPerSecond?: number;
  loopMetres?: number;
  positions?: boolean;
  elevation?: boolean;
  heartRate?: boolean;
  /** Stopped for `length` seconds after `after` seconds of running. */
  pause?: { after: number; length: number } | null;
  laps?: Track['laps'];
} = {}): Track {
  const radius = loopMetres / (2 * Math.PI);
  const metresPerDegreeLat = 111_195;
  const metresPerDegreeLon = metresPerDegreeLat * Math.cos((LOOP_CENTRE.lat * Math.PI) / 180);
  const t: number[] = [];
  const d: number[] = [];
  for (let s = 0; s <= seconds; s++) {
    t.push(pause && s > pause.after ? s + pause.length : s);
    d.push(Math.round(s * metresPerSecond * 100) / 100);
  }
  const angle = d.map((metres) => metres / radius);
  const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
  return makeTrack({
    t,
    d,
    lat: positions ? angle.map((a) => round6(LOOP_CENTRE.lat + (radius * Math.sin(a)) / metresPerDegreeLat)) : null,
    lon: positions
      ? angle.map((a) => round6(LOOP_CENTRE.lon + (radius * (1 - Math.cos(a))) / metresPerDegreeLon))
      : null,
    ele: elevation
      ? d.map((metres) => Math.round((30 + 10 * Math.sin((2 * Math.PI * metres) / 2000)) * 10) / 10)
      : null,
    hr: heartRate ? t.map((_, k) => 120 + Math.round((50 * k) / seconds)) : null,
    laps,
    pauses: pause ? [[pause.after, pause.after + pause.length]] : [],
  });
}

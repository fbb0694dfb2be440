/**
 * Activity files with tracks (CONTRACT.md §13), generated in code: a run as a watch records it
 * (a wandering route with GPS noise, hills, heart rate and cadence that drift), written as FIT
 * with Garmin's own encoder, as TCX and GPX the way devices write them, and hostile files.
 */
import { gpxFile, meridianPoints, tcxFile, type Point, type TcxPoint } from './fixtures.js';
import { fitFile, type FitLap, type FitRecord, type FitSession } from './fit-fixtures.js';
import { createRandom } from '../../../scripts/seed/generate.js';

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
  const random = createRandom(opts.seed ?? 1);
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

/** A realistic watch FIT of `seconds` at 1 Hz: 1 km laps, the device's totals, and a pause when asked. */
export function realisticFit(
  seconds: number,
  opts: { start?: Date; seed?: number; pause?: { at: number; seconds: number }; fractionalCadence?: boolean } = {},
): Uint8Array {
  const samples = syntheticRun(seconds, { seed: opts.seed });
  const pause = opts.pause;
  // A pause holds the clock of every later sample back by its length, the route unchanged.
  const elapsedAt = (t: number) => (pause && t > pause.at ? t + pause.seconds : t);
  const random = createRandom((opts.seed ?? 1) + 1);
  const records = samples.map((s) => ({
    ...fitRecordOf(s),
    t: elapsedAt(s.t),
    speed: 3.1,
    ...(opts.fractionalCadence ? { fractionalCadence: Math.floor(random() * 4) / 4 } : {}),
  }));
  const laps: FitLap[] = [];
  let lapStart = 0;
  for (let i = 1; i < samples.length; i++) {
    const kilometre = Math.floor(samples[i]!.distance / 1000);
    if (kilometre > Math.floor(samples[i - 1]!.distance / 1000) || i === samples.length - 1) {
      const from = samples[lapStart]!;
      const to = samples[i]!;
      laps.push({
        start: elapsedAt(from.t),
        elapsed: elapsedAt(to.t) - elapsedAt(from.t),
        timer: to.t - from.t,
        metres: to.distance - from.distance,
      });
      lapStart = i;
    }
  }
  let ascent = 0;
  let descent = 0;
  for (let i = 1; i < samples.length; i++) {
    const step = samples[i]!.elevation - samples[i - 1]!.elevation;
    if (step > 0) ascent += step;
    else descent -= step;
  }
  const last = samples[samples.length - 1]!;
  return fitFile([
    {
      start: opts.start ?? new Date('2024-05-01T07:00:00Z'),
      metres: last.distance,
      timerSeconds: last.t,
      elapsedSeconds: elapsedAt(last.t),
      records,
      laps,
      pauses: pause ? [{ from: pause.at, to: pause.at + pause.seconds }] : [],
      totalAscent: Math.round(ascent),
      totalDescent: Math.round(descent),
    },
  ]);
}

export const WATCH_START = new Date('2024-05-01T07:00:00Z');

/**
 * A watch's FIT run whose every value is computed by hand: records every second from 0 to
 * 300 s, a pause (timer stopped) until 360 s, records from 360 to 600 s. With `timer` the
 * seconds of timer time (t, less 60 after the pause): latitude 48.8 + timer x 1e-5 at longitude
 * 2.35, distance 3 x timer m, enhanced altitude 100 + 0.2 x timer m, heart rate 120 + timer mod
 * 40, cadence 85 per leg plus a fraction (timer mod 4) / 4, so 2 x (85 + fraction) steps. Two
 * laps: 0-200 s (600 m, 200 s of timer) and 200-600 s (1,020 m, 340 s); the session states an
 * ascent of 108 m and a descent of 3 m.
 */
export function watchFit(): Uint8Array {
  const records: FitRecord[] = [];
  for (let t = 0; t <= 600; t++) {
    if (t > 300 && t < 360) continue;
    const timer = t <= 300 ? t : t - 60;
    records.push({
      t,
      lat: 48.8 + timer * 1e-5,
      lon: 2.35,
      distance: 3 * timer,
      enhancedAltitude: 100 + 0.2 * timer,
      heartRate: 120 + (timer % 40),
      cadence: 85,
      fractionalCadence: (timer % 4) / 4,
    });
  }
  return fitFile([
    {
      start: WATCH_START,
      metres: 1620,
      timerSeconds: 540,
      elapsedSeconds: 600,
      records,
      laps: [
        { start: 0, elapsed: 200, timer: 200, metres: 600 },
        { start: 200, elapsed: 400, timer: 340, metres: 1020 },
      ],
      pauses: [{ from: 300, to: 360, stop: 'stop' }],
      totalAscent: 108,
      totalDescent: 3,
    },
  ]);
}

/** Records every second of a session's `seconds`, along a meridian at 2.5 m/s, with heart rate only. */
const plainRecords = (seconds: number): FitRecord[] =>
  Array.from({ length: seconds + 1 }, (_, t) => ({ t, lat: 45 + t * 2e-5, lon: 6, distance: 2.5 * t, heartRate: 130 }));

/**
 * One file, three sessions (a multisport watch's): a run of 120 s from 07:00, a ride of 60 s
 * from 07:10, a run of 90 s from 07:20, each with one lap; the timer stops between them.
 */
export function multiSessionFit(): { bytes: Uint8Array; starts: Date[] } {
  const at = (minutes: number) => new Date(WATCH_START.getTime() + minutes * 60_000);
  const session = (start: Date, seconds: number, sport = 'running'): FitSession => ({
    start,
    sport,
    metres: 2.5 * seconds,
    timerSeconds: seconds,
    elapsedSeconds: seconds,
    records: plainRecords(seconds),
  });
  const starts = [at(0), at(10), at(20)];
  return {
    bytes: fitFile([session(starts[0]!, 120), session(starts[1]!, 60, 'cycling'), session(starts[2]!, 90)]),
    starts,
  };
}

/**
 * A TCX as a Garmin watch writes it, every value computed by hand. Points every 10 s, with
 * `timer` the seconds of timer time: latitude 45.5 + timer x 1e-4 at longitude -73.6,
 * altitude 30 + timer / 10 m, distance 2.5 x timer m, heart rate 140 + timer / 10, RunCadence
 * 88 per leg (176 steps) in Garmin's ns3:TPX extension. Lap 1 (0-300 s, 750 m) has one Track;
 * lap 2 (300-660 s, 750 m of 300 s of timer) has two, the timer stopped from 450 to 510 s.
 */
export function watchTcx(): string {
  const point = (t: number, timer: number): TcxPoint => ({
    t,
    lat: 45.5 + timer * 1e-4,
    lon: -73.6,
    altitude: 30 + timer / 10,
    distance: 2.5 * timer,
    hr: 140 + timer / 10,
    cadence: 88,
  });
  const every10 = (from: number, to: number, pausedBefore = 0) =>
    Array.from({ length: (to - from) / 10 + 1 }, (_, i) => point(from + i * 10, from + i * 10 - pausedBefore));
  return tcxFile({
    start: WATCH_START,
    notes: 'Hill repeats',
    laps: [
      { metres: 750, seconds: 300, tracks: [every10(0, 290)] },
      { start: 300, metres: 750, seconds: 300, tracks: [every10(300, 450), every10(510, 660, 60)] },
    ],
  });
}

/**
 * A GPX as a Garmin watch writes it (gpxtpx TrackPointExtension), points every 5 s along a
 * meridian (1e-4 degrees a point) in two segments, the second after a 50 s stop: 0-100 s and
 * 150-250 s. Elevation 210 + t / 5 m, heart rate 150 + t mod 7, cadence 90 per leg (180 steps).
 */
export function watchGpx(prefix = 'gpxtpx'): string {
  const point = (t: number, index: number): Point => ({
    lat: 46 + index * 1e-4,
    lon: 7,
    t,
    ele: 210 + t / 5,
    hr: 150 + (t % 7),
    cad: 90,
  });
  const segment = (from: number, to: number, firstIndex: number) =>
    Array.from({ length: (to - from) / 5 + 1 }, (_, i) => point(from + i * 5, firstIndex + i));
  return gpxFile({ start: WATCH_START, prefix, segments: [segment(0, 100, 0), segment(150, 250, 21)] });
}

/** Three segments of 11, 6 and 1 points (10 s apart within, 120 s between), along a meridian at 1e-4 degrees a point. */
export function segmentedGpx(): string {
  const segment = (count: number, firstT: number, firstIndex: number): Point[] =>
    Array.from({ length: count }, (_, i) => ({ lat: 40 + (firstIndex + i) * 1e-4, lon: 3, t: firstT + i * 10 }));
  return gpxFile({ start: WATCH_START, segments: [segment(11, 0, 0), segment(6, 220, 20), segment(1, 390, 40)] });
}

/** A route drawn on a map: positions and elevations, no time at all. */
export function untimedGpx(): string {
  return gpxFile({ start: WATCH_START, segments: [meridianPoints(20, 1e-4, 1).map((p) => ({ ...p, t: null }))] });
}

/**
 * Timestamps going backwards, and points without time, along a meridian at 1e-4 degrees a
 * point: t = 0, 10, 5 (earlier: dropped), 10 (equal: dropped), none (dropped), 20, 30.
 */
export function backwardsGpx(): string {
  const times = [0, 10, 5, 10, null, 20, 30];
  return gpxFile({
    start: WATCH_START,
    segments: [times.map((t, i) => ({ lat: 50 + i * 1e-4, lon: 4, t, hr: 100 + i }))],
  });
}

/**
 * Positions a file should not hold, at t = 0..6 s: a good one, NaN, a latitude of 91, a
 * longitude of 200, text, a good one, and one 1e-4 degrees further north of the first good one
 * (heart rate 100 + i at each).
 */
export function badPositionsGpx(): string {
  const lats: (number | string)[] = [50, 'NaN', 91, 50.0001, 'abc', 50.0002, 50.0003];
  const lons: (number | string)[] = [4, 4, 4, 200, 4, 4, 4];
  return gpxFile({
    start: WATCH_START,
    segments: [lats.map((lat, i) => ({ lat, lon: lons[i]!, t: i, hr: 100 + i }))],
  });
}

/** A GPX of `count` points, one a second along a meridian, as short as a trkpt gets (for the most samples a track keeps). */
export function manyPointsGpx(count: number): Uint8Array {
  const start = WATCH_START.getTime();
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="test"><trk><trkseg>\n'];
  for (let i = 0; i < count; i++) {
    parts.push(
      `<trkpt lat="${(10 + i * 1e-5).toFixed(5)}" lon="20"><time>${new Date(start + i * 1000).toISOString()}</time></trkpt>\n`,
    );
  }
  parts.push('</trkseg></trk></gpx>\n');
  return new TextEncoder().encode(parts.join(''));
}

/**
 * A GPX of at least `bytes` bytes as a watch writes a very long run (a 2-day ultra is 40 MB),
 * made a chunk at a time so that it is never whole in memory: write it to a file, or stream it.
 * Points are 1 s apart along a meridian (1e-5 degrees each), with elevation and heart rate; the
 * generator returns how many it wrote.
 */
export function* largeGpxChunks(bytes: number): Generator<Uint8Array, number> {
  const encoder = new TextEncoder();
  const start = WATCH_START.getTime();
  let written = 0;
  const emit = (text: string) => {
    const chunk = encoder.encode(text);
    written += chunk.length;
    return chunk;
  };
  yield emit(
    '<?xml version="1.0" encoding="UTF-8"?>\n<gpx creator="Garmin Connect" version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:ns3="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">\n <trk>\n  <name>Ultra</name>\n  <trkseg>\n',
  );
  let i = 0;
  while (written < bytes) {
    const lines: string[] = [];
    for (let k = 0; k < 4096; k++, i++) {
      lines.push(
        `   <trkpt lat="${(10 + i * 1e-5).toFixed(7)}" lon="20.0000000">\n    <ele>${100 + (i % 50)}</ele>\n    <time>${new Date(start + i * 1000).toISOString()}</time>\n    <extensions>\n     <ns3:TrackPointExtension>\n      <ns3:hr>${120 + (i % 30)}</ns3:hr>\n     </ns3:TrackPointExtension>\n    </extensions>\n   </trkpt>\n`,
      );
    }
    yield emit(lines.join(''));
  }
  yield emit('  </trkseg>\n </trk>\n</gpx>\n');
  return i;
}

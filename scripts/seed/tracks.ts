/**
 * Synthetic watch tracks for `npm run seed -- --tracks N` (CONTRACT.md §13): one sample a second
 * of a run round one of its runner's usual loops near home (so that runs repeat on the map of
 * every run), with GPS noise of a metre or so, the watch's own distance, elevation from the
 * ground under the route, heart rate and cadence that follow the pace, a pause now and then and
 * the watch's 1 km laps. Everything comes from the seed's random seed, the runner and the run, so
 * the same seed gives the same tracks. Each is prepared by the server's own `prepareTrack`, as an
 * import's parse thread prepares a file's track, so it is stored exactly as an import stores it.
 */
import { precision } from '../../core/tracks/precision.js';
import type { Track, TrackLap } from '../../core/tracks/types.js';
import { packTrack, prepareTrack } from '../../server/features/tracks/prepare.js';
import { createRandom, type Random } from './generate.js';

/** A run of more than three hours keeps a track of its first three (with the run's pace). */
export const MAX_TRACK_SECONDS = 3 * 3600;

/** What a track is made from: a stored run and its runner's time zone (which says where they live). */
export interface RunToTrack {
  id: number;
  userId: number;
  timezone: string;
  date: string;
  distanceM: number;
  seconds: number;
}

const METRES_PER_DEGREE = 111_195;

/** A city per time zone of the seed's runners (generate.ts): where they run, and its height. */
const CITIES: Record<string, { lat: number; lon: number; ele: number }> = {
  UTC: { lat: 51.507, lon: -0.128, ele: 20 },
  'Europe/London': { lat: 51.507, lon: -0.128, ele: 20 },
  'Europe/Berlin': { lat: 52.52, lon: 13.405, ele: 40 },
  'Europe/Paris': { lat: 48.857, lon: 2.352, ele: 40 },
  'America/New_York': { lat: 40.782, lon: -73.965, ele: 30 },
  'America/Chicago': { lat: 41.878, lon: -87.63, ele: 180 },
  'America/Los_Angeles': { lat: 34.052, lon: -118.244, ele: 90 },
  'Asia/Tokyo': { lat: 35.676, lon: 139.65, ele: 40 },
  'Australia/Sydney': { lat: -33.869, lon: 151.209, ele: 30 },
  'America/Sao_Paulo': { lat: -23.551, lon: -46.633, ele: 760 },
};

/** About N(0, 1), from three uniforms: cheap, and plenty for noise. */
const gauss = (random: Random) => (random() + random() + random() - 1.5) * 2;

/** A closed loop of `length` metres: points evenly spaced along it, east and north of the city centre. */
interface Loop {
  length: number;
  east: Float64Array;
  north: Float64Array;
}

const LOOP_POINTS = 512;

/**
 * A wobbly circle (a few harmonics on its radius) that starts at home, scaled to `length` metres
 * and resampled at even steps along it, so that a distance along the loop is a position.
 */
function makeLoop(random: Random, home: { east: number; north: number }, length: number): Loop {
  const harmonics = [2, 3, 4].map((n) => ({ n, a: random() * 0.14, phase: random() * 2 * Math.PI }));
  const direction = random() * 2 * Math.PI;
  const sense = random() < 0.5 ? 1 : -1;
  const fine = 4 * LOOP_POINTS;
  const x = new Float64Array(fine + 1);
  const y = new Float64Array(fine + 1);
  for (let i = 0; i <= fine; i++) {
    // From the point opposite the centre's direction (home), round the loop.
    const theta = direction + Math.PI + (sense * 2 * Math.PI * i) / fine;
    const r = 1 + harmonics.reduce((sum, h) => sum + h.a * Math.cos(h.n * theta + h.phase), 0);
    x[i] = r * Math.cos(theta);
    y[i] = r * Math.sin(theta);
  }
  const along = new Float64Array(fine + 1);
  for (let i = 1; i <= fine; i++) along[i] = along[i - 1]! + Math.hypot(x[i]! - x[i - 1]!, y[i]! - y[i - 1]!);
  const scale = length / along[fine]!;
  // Home is the loop's first point.
  const east = new Float64Array(LOOP_POINTS);
  const north = new Float64Array(LOOP_POINTS);
  let j = 0;
  for (let k = 0; k < LOOP_POINTS; k++) {
    const target = (k / LOOP_POINTS) * along[fine]!;
    while (along[j + 1]! < target) j++;
    const f = (target - along[j]!) / (along[j + 1]! - along[j]! || 1);
    east[k] = home.east + (x[j]! + f * (x[j + 1]! - x[j]!) - x[0]!) * scale;
    north[k] = home.north + (y[j]! + f * (y[j + 1]! - y[j]!) - y[0]!) * scale;
  }
  return { length, east, north };
}

/** The position `metres` along a loop (round and round). */
function positionOn(loop: Loop, metres: number): [number, number] {
  const at = ((metres % loop.length) / loop.length) * LOOP_POINTS;
  const k = Math.floor(at);
  const next = (k + 1) % LOOP_POINTS;
  const f = at - k;
  return [
    loop.east[k]! + f * (loop.east[next]! - loop.east[k]!),
    loop.north[k]! + f * (loop.north[next]! - loop.north[k]!),
  ];
}

/** The ground's height (m) east and north of the city centre: gentle hills, the same for every run. */
function ground(base: number, east: number, north: number): number {
  return base + 12 * Math.sin(east / 650 + 1) + 9 * Math.sin(north / 480 + 2) + 4 * Math.sin((east - north) / 210);
}

interface Runner {
  city: { lat: number; lon: number; ele: number };
  /** A park loop, a neighbourhood loop and a long one. */
  loops: Loop[];
  maxHeartRate: number;
}

/** A runner's home, loops and maximum heart rate, from the seed and the runner alone. */
function runnerOf(randomSeed: number, userId: number, timezone: string): Runner {
  const random = createRandom((randomSeed ^ Math.imul(userId, 0x85ebca6b)) >>> 0);
  const city = CITIES[timezone] ?? CITIES.UTC!;
  const home = { east: (random() - 0.5) * 8000, north: (random() - 0.5) * 8000 };
  const lengths = [2500 + random() * 1500, 6000 + random() * 3000, 12_000 + random() * 6000];
  return {
    city,
    loops: lengths.map((length) => makeLoop(random, home, length)),
    maxHeartRate: 178 + Math.floor(random() * 20),
  };
}

/** The loop a run takes: mostly the longest one it covers at least once, sometimes another. */
function loopFor(random: Random, loops: Loop[], metres: number): Loop {
  if (random() < 0.2) return loops[Math.floor(random() * loops.length)]!;
  let chosen = loops[0]!;
  for (const loop of loops) if (loop.length <= metres * 1.1) chosen = loop;
  return chosen;
}

/** Cache of runners: a seed's tracks come runner by runner, and a runner's loops cost more than a run. */
const runners = new Map<string, Runner>();

function cachedRunner(randomSeed: number, run: RunToTrack): Runner {
  const key = `${randomSeed}/${run.userId}/${run.timezone}`;
  let runner = runners.get(key);
  if (!runner) {
    if (runners.size >= 1000) runners.clear();
    runner = runnerOf(randomSeed, run.userId, run.timezone);
    runners.set(key, runner);
  }
  return runner;
}

/** A run's track, sampled every second, and the instant of its first sample. */
export function syntheticTrack(randomSeed: number, run: RunToTrack): { track: Track; start: Date } {
  const runner = cachedRunner(randomSeed, run);
  const random = createRandom((randomSeed ^ Math.imul(run.id, 0x9e3779b1)) >>> 0);
  const moving = Math.max(60, Math.min(run.seconds, MAX_TRACK_SECONDS));
  const metres = (run.distanceM * moving) / Math.max(1, run.seconds);
  const loop = loopFor(random, runner.loops, metres);
  const n = moving + 1;

  // Pace wanders around the run's own (an AR(1) of a few per cent), scaled so that the watch's
  // distance ends exactly at the run's.
  const factor = new Float64Array(n);
  let wander = 0;
  let sum = 0;
  for (let k = 1; k < n; k++) {
    wander = 0.98 * wander + 0.012 * gauss(random);
    factor[k] = Math.max(0.5, 1 + wander);
    sum += factor[k]!;
  }
  const metresPerFactor = metres / sum;

  // A pause now and then (a crossing, a drink): the clock jumps while the route does not.
  const pauses: { at: number; length: number }[] = [];
  if (moving > 300 && random() < 0.3) {
    const count = random() < 0.3 ? 2 : 1;
    for (let i = 0; i < count; i++) {
      pauses.push({ at: 60 + Math.floor(random() * (moving - 120)), length: 10 + Math.floor(random() * 110) });
    }
    pauses.sort((a, b) => a.at - b.at);
  }

  const pace = run.seconds / Math.max(0.001, run.distanceM / 1000);
  // Faster paces run nearer the runner's maximum; a steady run settles there within minutes.
  const steady = runner.maxHeartRate * Math.min(0.92, Math.max(0.68, 0.9 - (0.2 * (pace - 200)) / 300));
  const warmUp = 0.62 * runner.maxHeartRate;
  const cosLat = Math.cos((runner.city.lat * Math.PI) / 180);

  const t: number[] = new Array(n);
  const d: number[] = new Array(n);
  const lat: number[] = new Array(n);
  const lon: number[] = new Array(n);
  const ele: number[] = new Array(n);
  const hr: number[] = new Array(n);
  const cad: number[] = new Array(n);
  const trackPauses: [number, number][] = [];
  let distance = 0;
  let pausedBefore = 0;
  let nextPause = 0;
  let noiseEast = 0;
  let noiseNorth = 0;
  const heights = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const step = k === 0 ? 0 : factor[k]! * metresPerFactor;
    distance += step;
    t[k] = k + pausedBefore;
    while (nextPause < pauses.length && pauses[nextPause]!.at === k) {
      const { length } = pauses[nextPause]!;
      trackPauses.push([t[k]!, t[k]! + length]);
      pausedBefore += length;
      nextPause += 1;
    }
    d[k] = precision.metres(distance);
    const [east, north] = positionOn(loop, distance);
    noiseEast = 0.9 * noiseEast + 0.45 * gauss(random);
    noiseNorth = 0.9 * noiseNorth + 0.45 * gauss(random);
    lat[k] = precision.degrees(runner.city.lat + (north + noiseNorth) / METRES_PER_DEGREE);
    lon[k] = precision.degrees(runner.city.lon + (east + noiseEast) / (METRES_PER_DEGREE * cosLat));
    heights[k] = ground(runner.city.ele, east, north);
    // A barometer's 0.2 m steps.
    ele[k] = precision.elevation(Math.round((heights[k]! + 0.25 * gauss(random)) * 5) / 5);
    const climbing = k >= 20 ? heights[k]! - heights[k - 20]! : 0;
    const effort = warmUp + (steady - warmUp) * (1 - Math.exp(-k / 150)) + (6 * k) / 3600;
    hr[k] = Math.round(
      Math.min(runner.maxHeartRate, Math.max(70, effort + 40 * (factor[k]! - 1) + 0.8 * climbing + gauss(random))),
    );
    const speed = step || metresPerFactor;
    // Steps per minute: the watch's whole cadence per leg, doubled.
    cad[k] = 2 * Math.round(78 + 3.2 * speed + 0.6 * gauss(random));
  }

  // The watch's auto-laps, every kilometre, and the rest at the end.
  const laps: TrackLap[] = [];
  let lapStart = 0;
  for (let k = 1; k < n; k++) {
    if (Math.floor(d[k]! / 1000) > Math.floor(d[k - 1]! / 1000) || k === n - 1) {
      laps.push({ start: t[lapStart]!, distance: precision.metres(d[k]! - d[lapStart]!), time: k - lapStart });
      lapStart = k;
    }
  }

  // Out between 06:00 and 19:00 (UTC) of the run's date.
  const startMs = Date.parse(`${run.date}T00:00:00Z`) + Math.floor((6 + random() * 13) * 3600) * 1000;
  return {
    track: { t, d, lat, lon, ele, hr, cad, laps, pauses: trackPauses, deviceElevation: null },
    start: new Date(startMs),
  };
}

/** A run's synthetic track prepared to store, packed as an import spools it (`unpackTrack` reads it). */
export function packedSyntheticTrack(randomSeed: number, run: RunToTrack): Buffer {
  const { track, start } = syntheticTrack(randomSeed, run);
  return packTrack(prepareTrack(track, start), null);
}

/**
 * The rules every activity file's track follows (CONTRACT.md §13), whatever the format: the
 * FIT, TCX and GPX parsers hand their samples here in file order, and get back the Track.
 */
import { precision } from '../../../../core/tracks/precision.js';
import { MAX_TRACK_SAMPLES, type Track, type TrackLap } from '../../../../core/tracks/types.js';
import { UNBOUNDED, type TimeBudget } from './types.js';

const EARTH_RADIUS_M = 6_371_000;
const RADIANS = Math.PI / 180;

/** The great-circle distance of §9 (R = 6,371 km), in metres. */
export function haversineMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A position a track may hold: finite and on the globe (anything else is a missing position). */
export const isPosition = (lat: number, lon: number) => Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/*
 * Bounds past which a value is a device's or a file's error, kept as missing: they also keep every
 * quantised value a small integer for the storage codec.
 */
const MAX_METRES = 10_000_000;
/** Times no device records (a year 200,000 parses): kept as no time at all. */
const EARLIEST_MS = Date.UTC(1900, 0, 1);
const LATEST_MS = Date.UTC(2200, 0, 1);
/** A lap's or the device's totals (seconds, metres of ascent) past these are errors, read as 0 or none. */
const MAX_LAP_SECONDS = 10_000_000;
const MAX_ELEVATION_TOTAL = 1_000_000;
const MIN_ELEVATION = -2_000;
const MAX_ELEVATION = 12_000;
const MAX_HEART_RATE = 300;
const MAX_CADENCE = 1_000;

/**
 * Laps and timer pauses a track may hold (docs/reliability.md, "Limits"): an auto-lap every 100 m
 * of a 100 km race is 1,000 laps; a file with more is a device's error or made to hurt (its run
 * page would list each lap, and each pause costs every split's sums).
 */
export const MAX_LAPS = 2_000;
export const MAX_PAUSES = 2_000;

const inRange = (value: number, min: number, max: number) => value >= min && value <= max;

/** A run's track, and the sentence the import's row carries when it had to be thinned. */
export type BuiltTrack =
  | {
      track: Track;
      /** The instant of the track's first sample (its clock's zero). */
      trackStart: Date;
      note?: string;
    }
  /** A track the bounds refuse: the run is kept without it, and the row says why. */
  | { note: string };

const count = (n: number) => n.toLocaleString('en-US');

const ordinal = (k: number) => {
  const tens = k % 100;
  if (tens >= 11 && tens <= 13) return `${k}th`;
  return `${k}${['th', 'st', 'nd', 'rd'][k % 10] ?? 'th'}`;
};

/**
 * Collects one run's samples, in file order, as the parsers read them; `build` applies §13.
 * Times are epoch milliseconds; a missing value is NaN. A file with several runs uses one
 * builder per run.
 */
export class TrackBuilder {
  private readonly ms: number[] = [];
  private readonly lat: number[] = [];
  private readonly lon: number[] = [];
  private readonly recorded: number[] = [];
  private readonly travelled: number[] = [];
  private readonly ele: number[] = [];
  private readonly hr: number[] = [];
  private readonly cad: number[] = [];
  private readonly laps: { startMs: number; distance: number; time: number }[] = [];
  private readonly pauses: [number, number][] = [];
  private elevationTotals: Track['deviceElevation'] = null;
  private has = { position: false, recorded: false, ele: false, hr: false, cad: false };
  private lastMs = -Infinity;
  /** §9's distance so far: every leg between positions of one segment, timed or not. */
  private metres = 0;
  private previousLat = NaN;
  private previousLon = NaN;
  private segmentStarts = false;

  /** `budget`: the time the file's parsing may take, checked at every sample. */
  constructor(private readonly budget: TimeBudget = UNBOUNDED) {}

  /**
   * One sample. It counts for the distance along its positions even when it is dropped (no
   * time, or not after the previous one's).
   */
  add(when: number, lat: number, lon: number, d: number, ele: number, hr: number, cad: number): void {
    this.budget.check();
    const ms = inRange(when, EARLIEST_MS, LATEST_MS) ? when : NaN;
    const positioned = isPosition(lat, lon);
    if (positioned) {
      if (!Number.isNaN(this.previousLat)) {
        this.metres += haversineMetres(this.previousLat, this.previousLon, lat, lon);
      }
      this.previousLat = lat;
      this.previousLon = lon;
    }
    if (this.segmentStarts && Number.isFinite(ms)) {
      // The gap runs from the last sample before the segment to the first time within it.
      if (ms > this.lastMs && this.ms.length > 0) this.pauses.push([this.lastMs, ms]);
      this.segmentStarts = false;
    }
    if (!(ms > this.lastMs)) return;
    this.lastMs = ms;
    this.ms.push(ms);
    if (positioned) {
      this.has.position = true;
      this.lat.push(lat);
      this.lon.push(lon);
    } else {
      this.lat.push(NaN);
      this.lon.push(NaN);
    }
    this.travelled.push(this.metres);
    const recorded = inRange(d, 0, MAX_METRES);
    this.has.recorded ||= recorded;
    this.recorded.push(recorded ? d : NaN);
    const elevated = inRange(ele, MIN_ELEVATION, MAX_ELEVATION);
    this.has.ele ||= elevated;
    this.ele.push(elevated ? ele : NaN);
    const beating = inRange(hr, 1, MAX_HEART_RATE);
    this.has.hr ||= beating;
    this.hr.push(beating ? hr : NaN);
    const stepping = inRange(cad, 0, MAX_CADENCE);
    this.has.cad ||= stepping;
    this.cad.push(stepping ? cad : NaN);
  }

  /** The samples that follow are another segment: no distance across the gap, and the gap is a pause. */
  segment(): void {
    this.previousLat = NaN;
    this.previousLon = NaN;
    this.segmentStarts = true;
  }

  /** A device's lap: its start (epoch ms), metres and timer seconds. */
  lap(startMs: number, distance: number, time: number): void {
    if (inRange(startMs, EARLIEST_MS, LATEST_MS)) {
      this.laps.push({
        startMs,
        distance: inRange(distance, 0, MAX_METRES) ? distance : 0,
        time: inRange(time, 0, MAX_LAP_SECONDS) ? time : 0,
      });
    }
  }

  /** A time the timer stood still (epoch ms). */
  pause(fromMs: number, toMs: number): void {
    if (toMs > fromMs) this.pauses.push([fromMs, toMs]);
  }

  /** §9's distance of every sample so far, dropped or not (a GPX file's distance). */
  get travelledMetres(): number {
    return this.metres;
  }

  /** The device's own totals of ascent and descent, in metres. */
  deviceElevation(gain: number, loss: number): void {
    if (inRange(gain, 0, MAX_ELEVATION_TOTAL) && inRange(loss, 0, MAX_ELEVATION_TOTAL))
      this.elevationTotals = { gain: precision.metres(gain), loss: precision.metres(loss) };
  }

  /** The track, or undefined when no sample has a time. */
  build(): BuiltTrack | undefined {
    const n = this.ms.length;
    if (n === 0) return undefined;
    const step = Math.ceil(n / MAX_TRACK_SAMPLES);
    const kept: number[] = [];
    for (let i = 0; i < n; i += step) kept.push(i);
    if (kept[kept.length - 1] !== n - 1) kept.push(n - 1);

    const first = this.ms[0]!;
    const last = this.ms[n - 1]!;
    const pauses = mergedPauses(this.pauses, first, last);
    if (pauses.length > MAX_PAUSES) {
      return {
        note: `The file has ${count(pauses.length)} timer pauses, more than ${count(MAX_PAUSES)}: the run is kept without its track.`,
      };
    }
    const notes: string[] = [];
    let laps = this.laps;
    if (laps.length > MAX_LAPS) {
      notes.push(
        `The file has ${count(laps.length)} laps, more than ${count(MAX_LAPS)}: the track is kept without them.`,
      );
      laps = [];
    }
    const distances = this.has.recorded ? this.recorded : this.has.position ? this.travelled : null;
    const channel = (values: number[], present: boolean, round: (value: number) => number) =>
      present ? kept.map((i) => round(values[i]!)) : null;
    let d: number[] | null = null;
    if (distances) {
      // Cumulative over every sample, so a thinned track keeps the distance its dropped samples reached.
      d = new Array<number>(kept.length);
      let previous = 0;
      let at = 0;
      for (let i = 0; i < n; i++) {
        const value = distances[i]!;
        if (value > previous) previous = value;
        if (kept[at] === i) d[at++] = precision.metres(previous);
      }
    }
    const track: Track = {
      t: kept.map((i) => precision.seconds((this.ms[i]! - first) / 1000)),
      lat: channel(this.lat, this.has.position, precision.degrees),
      lon: channel(this.lon, this.has.position, precision.degrees),
      d,
      ele: channel(this.ele, this.has.ele, precision.elevation),
      hr: channel(this.hr, this.has.hr, precision.heartRate),
      cad: channel(this.cad, this.has.cad, precision.cadence),
      laps: laps.map((lap): TrackLap => ({
        start: precision.seconds((lap.startMs - first) / 1000),
        distance: precision.metres(lap.distance),
        time: precision.seconds(lap.time),
      })),
      pauses,
      deviceElevation: this.elevationTotals,
    };
    const trackStart = new Date(first);
    if (step > 1) {
      notes.unshift(
        `The track had ${count(n)} samples: every ${ordinal(step)} one and the last are kept (at most ${count(MAX_TRACK_SAMPLES)}).`,
      );
    }
    return notes.length > 0 ? { track, trackStart, note: notes.join(' ') } : { track, trackStart };
  }
}

/** Pauses within the track's span, on its clock, in order, overlaps merged. */
function mergedPauses(pauses: [number, number][], first: number, last: number): [number, number][] {
  const within = pauses
    .map(([from, to]): [number, number] => [Math.max(from, first), Math.min(to, last)])
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of within) {
    const previous = merged[merged.length - 1];
    if (previous && from <= previous[1]) previous[1] = Math.max(previous[1], to);
    else merged.push([from, to]);
  }
  return merged.map(([from, to]) => [precision.seconds((from - first) / 1000), precision.seconds((to - first) / 1000)]);
}

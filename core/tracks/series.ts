/**
 * The run page's charts (CONTRACT.md §14 `series`): N = min(1,000, samples) points evenly spaced in
 * distance from d[0] to d[last], each channel interpolated linearly in distance between the two
 * samples around the point (around τ's j) that have that channel.
 *
 * Output rounding keeps the answer small (1,000 points x 5 channels, about 25 KB of JSON) yet fine
 * enough for charts: distance (m), time (s) and elevation (m) to 0.1, because pace is drawn from
 * the differences of neighbouring points (10 m and 3 s apart on a 10 km run, where whole units
 * would make it jump by 5-30%); heart rate and cadence whole, as devices record them.
 */
import { round1 } from '../time.js';
import { hasElevation, hasHeartRate, sampleAtDistance, tauMs, type PreparedTrack } from './timing.js';

/** Most points of a series (§14). */
export const SERIES_POINTS = 1000;

export interface TrackSeries {
  /** Metres (d, as the track records it: the first point is d[0]). */
  distance: number[];
  /** Elapsed seconds: τ at each point. */
  time: number[];
  elevation: number[] | null;
  heart_rate: number[] | null;
  cadence: number[] | null;
}

/**
 * A channel's value at any distance. For each sample it remembers the nearest samples at or
 * before it and after it that have the channel, so that a lookup is O(1).
 */
export class ChannelAtDistance {
  private readonly atOrBefore: Int32Array;
  private readonly atOrAfter: Int32Array;

  private constructor(
    private readonly values: readonly number[],
    has: (value: number) => boolean,
    private readonly mm: Float64Array,
  ) {
    const n = values.length;
    this.atOrBefore = new Int32Array(n);
    this.atOrAfter = new Int32Array(n);
    let last = -1;
    for (let i = 0; i < n; i++) this.atOrBefore[i] = last = has(values[i]!) ? i : last;
    let next = n;
    for (let i = n - 1; i >= 0; i--) this.atOrAfter[i] = next = has(values[i]!) ? i : next;
  }

  /** The channel, or null when no sample has it. */
  static of(
    values: readonly number[] | null,
    has: (value: number) => boolean,
    mm: Float64Array,
  ): ChannelAtDistance | null {
    if (!values || values.length === 0) return null;
    const channel = new ChannelAtDistance(values, has, mm);
    return channel.atOrAfter[0]! < values.length ? channel : null;
  }

  /**
   * The value at distance x (millimetres), given τ's j for x: between the last sample at or before
   * j and the first after j that have the channel, or the one of them that exists.
   */
  valueAt(x: number, j: number): number {
    const lo = j < 0 ? -1 : this.atOrBefore[j]!;
    const hi = j + 1 < this.values.length ? this.atOrAfter[j + 1]! : this.values.length;
    if (lo < 0) return this.values[hi]!;
    if (hi >= this.values.length) return this.values[lo]!;
    // d[lo] <= x < d[hi]: τ's j is the last sample with d <= x, and hi comes after it.
    const share = (x - this.mm[lo]!) / (this.mm[hi]! - this.mm[lo]!);
    return this.values[lo]! + share * (this.values[hi]! - this.values[lo]!);
  }
}

/** The distances (millimetres) of the series' points: d[0] + k (d[last] - d[0]) / (N - 1). */
export function seriesDistancesMm(mm: Float64Array): number[] {
  const n = Math.min(SERIES_POINTS, mm.length);
  if (n === 0) return [];
  const first = mm[0]!;
  const span = mm[mm.length - 1]! - first;
  // k x span is an exact integer, so the last point is d[last] itself, not a hair short of it.
  return Array.from({ length: n }, (_, k) => (n === 1 ? first : first + (k * span) / (n - 1)));
}

/** The series of §14, or null without distances. */
export function seriesOf(prepared: PreparedTrack): TrackSeries | null {
  const { track, ms, mm } = prepared;
  if (!mm || mm.length === 0) return null;
  const channels = {
    elevation: ChannelAtDistance.of(track.ele, hasElevation, mm),
    heart_rate: ChannelAtDistance.of(track.hr, hasHeartRate, mm),
    cadence: ChannelAtDistance.of(track.cad, Number.isFinite, mm),
  };
  const rounded = { elevation: round1, heart_rate: Math.round, cadence: Math.round };
  const xs = seriesDistancesMm(mm);
  const series: TrackSeries = {
    distance: [],
    time: [],
    elevation: channels.elevation && [],
    heart_rate: channels.heart_rate && [],
    cadence: channels.cadence && [],
  };
  let j = -1;
  for (const x of xs) {
    j = sampleAtDistance(mm, x, j);
    series.distance.push(round1(x / 1000));
    series.time.push(round1(tauMs({ ms, mm }, x, j) / 1000));
    for (const name of ['elevation', 'heart_rate', 'cadence'] as const) {
      const channel = channels[name];
      if (channel) series[name]!.push(rounded[name](channel.valueAt(x, j)));
    }
  }
  return series;
}

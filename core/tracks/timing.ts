/**
 * Time along a track (CONTRACT.md §14): τ(x), the time at which the track reaches distance x; the
 * timer time of a stretch (its elapsed time less the pauses inside it); and the weight of each
 * sample in the means of heart rate and cadence.
 *
 * A track keeps t to the millisecond and d to the centimetre, so this module works in whole
 * milliseconds and whole millimetres (`axesOf`): "the last sample with d[j] <= x" and "the samples
 * with τ(start) <= t < τ(end)" are then exact comparisons of integers, and a boundary that falls
 * exactly on a sample (or on a stretch of standing still) lands where the contract says.
 */
import { divideRounded } from '../insights.js';
import type { Track } from './types.js';

/** A track's clock and odometer in integer units. */
export interface TrackAxes {
  /** t in whole milliseconds. */
  readonly ms: Float64Array;
  /** d in whole millimetres; null when the track has no distances. */
  readonly mm: Float64Array | null;
}

/**
 * What every part of the analysis reads: the track, its axes, its pauses and its samples' weights,
 * computed once.
 */
export interface PreparedTrack extends TrackAxes {
  readonly track: Track;
  readonly pauses: PauseTimeline;
  /** `sampleWeightsMs`: each sample's weight before asking whether it has the averaged channel. */
  readonly weightsMs: Float64Array;
}

export function prepareTrack(track: Track): PreparedTrack {
  const { ms, mm } = axesOf(track);
  const pauses = new PauseTimeline(track.pauses);
  return { track, ms, mm, pauses, weightsMs: sampleWeightsMs(ms, pauses) };
}

/** The heaviest a sample weighs (§14: w = min(t[i+1] - t[i], 10 s)). */
export const MAX_SAMPLE_WEIGHT_MS = 10_000;

export function axesOf(track: Pick<Track, 't' | 'd'>): TrackAxes {
  return { ms: thousandths(track.t), mm: track.d && thousandths(track.d) };
}

/** Seconds as whole milliseconds, metres as whole millimetres. */
function thousandths(values: readonly number[]): Float64Array {
  const scaled = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) scaled[i] = Math.round(values[i]! * 1000);
  return scaled;
}

/**
 * τ's j: the last sample with d[j] <= x, or -1 when x < d[0]. The search walks forward from
 * `from`, a j found for a smaller x, so that callers visiting distances in order pay O(n) in all.
 */
export function sampleAtDistance(mm: Float64Array, x: number, from = 0): number {
  if (mm.length === 0 || x < mm[0]!) return -1;
  let j = Math.max(from, 0);
  while (j + 1 < mm.length && mm[j + 1]! <= x) j++;
  return j;
}

/**
 * τ(x) in milliseconds, given τ's j for x: t[0] before the first sample, t[j] at the last sample,
 * else interpolated between j and j + 1 (whose d is beyond x, so the division is safe). Standing
 * still before a point therefore counts before it.
 */
export function tauMs(axes: { ms: Float64Array; mm: Float64Array }, x: number, j: number): number {
  const { ms, mm } = axes;
  if (j < 0) return ms[0]!;
  if (j === ms.length - 1) return ms[j]!;
  return ms[j]! + ((x - mm[j]!) * (ms[j + 1]! - ms[j]!)) / (mm[j + 1]! - mm[j]!);
}

/**
 * The first sample whose t is at or after τ(x), given τ's j for x. τ(x) is t[j] when x is exactly
 * d[j] (or j is the last sample) and strictly between t[j] and t[j + 1] otherwise, so this needs
 * no arithmetic on times.
 */
export function firstSampleFromTau(mm: Float64Array, x: number, j: number): number {
  if (j < 0) return 0;
  return j === mm.length - 1 || mm[j] === x ? j : j + 1;
}

/**
 * The pauses of a track on its clock, in milliseconds, with the pause time accumulated before
 * each, so that the pause time inside any stretch is two binary searches.
 */
export class PauseTimeline {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Pause milliseconds before the k-th pause starts. */
  private readonly before: number[] = [];

  constructor(pauses: readonly (readonly [number, number])[]) {
    // The parsers give ordered, disjoint pauses; merging what overlaps keeps the sums right anyway.
    const sorted = pauses
      .map(([from, to]) => [Math.round(from * 1000), Math.round(to * 1000)] as const)
      .filter(([from, to]) => to > from)
      .sort((a, b) => a[0] - b[0]);
    let total = 0;
    for (const [from, to] of sorted) {
      const last = this.ends.length - 1;
      if (last >= 0 && from <= this.ends[last]!) {
        if (to > this.ends[last]!) {
          total += to - this.ends[last]!;
          this.ends[last] = to;
        }
        continue;
      }
      this.starts.push(from);
      this.ends.push(to);
      this.before.push(total);
      total += to - from;
    }
  }

  /** Milliseconds of [fromMs, toMs] that fall inside pauses. */
  overlapMs(fromMs: number, toMs: number): number {
    return toMs > fromMs ? this.pausedBefore(toMs) - this.pausedBefore(fromMs) : 0;
  }

  /** The number of pauses that start strictly before `atMs` (which pause-separated part it lies in). */
  pausesStartedBefore(atMs: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.starts[middle]! < atMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Pause milliseconds from the start of the clock up to `atMs`. */
  private pausedBefore(atMs: number): number {
    const k = this.pausesStartedBefore(atMs) - 1;
    if (k < 0) return 0;
    return this.before[k]! + Math.min(atMs, this.ends[k]!) - this.starts[k]!;
  }
}

/** Timer milliseconds from `fromMs` to `toMs`: the elapsed time less the pauses that overlap it. */
export function timerMs(pauses: PauseTimeline, fromMs: number, toMs: number): number {
  return toMs - fromMs - pauses.overlapMs(fromMs, toMs);
}

/**
 * Each sample's weight in milliseconds, before asking whether it has the channel being averaged:
 * w = min(t[i+1] - t[i], 10 s) less the part of [t[i], t[i] + w] inside pauses; the last sample
 * weighs nothing.
 */
export function sampleWeightsMs(ms: Float64Array, pauses: PauseTimeline): Float64Array {
  const weights = new Float64Array(ms.length);
  for (let i = 0; i + 1 < ms.length; i++) {
    const w = Math.min(ms[i + 1]! - ms[i]!, MAX_SAMPLE_WEIGHT_MS);
    weights[i] = w - pauses.overlapMs(ms[i]!, ms[i]! + w);
  }
  return weights;
}

/** A sample has heart rate when the device recorded a beat; 0 is what straps send when they lose contact. */
export const hasHeartRate = (bpm: number): boolean => bpm > 0;

/** A sample counts for the average cadence when the runner was stepping (§13: cad > 0). */
export const hasCadence = (stepsPerMinute: number): boolean => stepsPerMinute > 0;

/** A sample has elevation when it holds a number (NaN marks a sample without one). */
export const hasElevation = (metres: number): boolean => Number.isFinite(metres);

/** The weighted sum and total weight of a channel over samples [from, to) that have it. */
export function weightedSum(
  values: readonly number[],
  weights: Float64Array,
  has: (value: number) => boolean,
  from = 0,
  to = values.length,
): { sum: number; weightMs: number } {
  let sum = 0;
  let weightMs = 0;
  for (let i = from; i < to; i++) {
    const value = values[i]!;
    const w = weights[i]!;
    if (w > 0 && has(value)) {
      sum += value * w;
      weightMs += w;
    }
  }
  return { sum, weightMs };
}

/**
 * A weighted mean in whole units, halves up; null when nothing weighs. Whole values (what devices
 * record) are divided exactly, so a mean of exactly x.5 always rounds up.
 */
export function wholeMean({ sum, weightMs }: { sum: number; weightMs: number }): number | null {
  if (!(weightMs > 0)) return null;
  return Number.isInteger(sum) ? divideRounded(sum, weightMs) : Math.floor(sum / weightMs + 0.5);
}

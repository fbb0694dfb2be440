/**
 * Best efforts (CONTRACT.md §14): for each standard distance D (§10), the fastest stretch of exactly
 * D metres inside one piece of the track, a piece being what lies between two GPS jumps (steps
 * faster than 50 km/h).
 *
 * For each sample i whose d[i] is at least D beyond its piece's first d, the stretch ending at i
 * starts at x = d[i] - D and takes t[i] - τ(x). As i moves forward x does too, so τ's j only ever
 * moves forward: two pointers, O(n) per distance. τ is the whole track's τ: d[i] > x, so τ's j lies
 * in i's piece, before i.
 */
import { divideRounded, STANDARD_DISTANCES, type StandardDistance } from '../insights.js';
import { formatDuration, round2 } from '../time.js';
import { sampleAtDistance, type PreparedTrack } from './timing.js';

export interface BestEffort {
  key: string;
  /** D in km. */
  distance: number;
  /** Elapsed time rounded to the nearest second, "HH:MM:SS". */
  time: string;
  /** min/km at D from `time`, 2 decimals. */
  pace: number;
  /** Metres from the track's first d to the start of the stretch (d[i] - D - d[0]), whole. */
  start: number;
  /** Elapsed seconds to the millisecond: the value efforts are compared by, for records to use. */
  seconds: number;
}

/** A step is a GPS jump when faster than 50 km/h = 125/9 m/s, i.e. 9 x mm > 125 x ms. */
export function isJump(stepMm: number, stepMs: number): boolean {
  return 9 * stepMm > 125 * stepMs;
}

/** The pieces of a track as [first, last] sample indices, split at every GPS jump. */
export function piecesOf(ms: Float64Array, mm: Float64Array): [number, number][] {
  const pieces: [number, number][] = [];
  let first = 0;
  for (let i = 1; i < mm.length; i++) {
    if (isJump(mm[i]! - mm[i - 1]!, ms[i]! - ms[i - 1]!)) {
      pieces.push([first, i - 1]);
      first = i;
    }
  }
  if (mm.length > 0) pieces.push([first, mm.length - 1]);
  return pieces;
}

/** The fastest stretch of exactly `distance` in whole milliseconds, and where it starts (mm), or null. */
export function fastestStretch(
  ms: Float64Array,
  mm: Float64Array,
  pieces: readonly [number, number][],
  distance: StandardDistance,
): { elapsedMs: number; startMm: number } | null {
  const lengthMm = distance.mm;
  let best: { elapsedMs: number; startMm: number } | null = null;
  for (const [first, last] of pieces) {
    if (mm[last]! - mm[first]! < lengthMm) continue;
    let j = first;
    for (let i = first; i <= last; i++) {
      const x = mm[i]! - lengthMm;
      if (x < mm[first]!) continue;
      j = sampleAtDistance(mm, x, j);
      // t[i] - τ(x) as one fraction of integers, rounded to the millisecond exactly (halves up).
      const stepMm = mm[j + 1]! - mm[j]!;
      const numerator = (ms[i]! - ms[j]!) * stepMm - (x - mm[j]!) * (ms[j + 1]! - ms[j]!);
      const elapsedMs = divideRounded(numerator, stepMm);
      // Strictly faster only: among equal times the first found has the smallest start.
      if (!best || elapsedMs < best.elapsedMs) best = { elapsedMs, startMm: x };
    }
  }
  return best;
}

/** One row per standard distance that some piece covers, shortest first; [] without distances. */
export function bestEffortsOf(prepared: PreparedTrack): BestEffort[] {
  const { ms, mm } = prepared;
  if (!mm || mm.length < 2) return [];
  const pieces = piecesOf(ms, mm);
  const efforts: BestEffort[] = [];
  for (const distance of STANDARD_DISTANCES) {
    const fastest = fastestStretch(ms, mm, pieces, distance);
    if (!fastest) continue;
    const wholeSeconds = divideRounded(fastest.elapsedMs, 1000);
    efforts.push({
      key: distance.key,
      distance: distance.km,
      time: formatDuration(wholeSeconds),
      pace: round2(wholeSeconds / 60 / distance.km),
      start: divideRounded(fastest.startMm - mm[0]!, 1000),
      seconds: fastest.elapsedMs / 1000,
    });
  }
  return efforts;
}

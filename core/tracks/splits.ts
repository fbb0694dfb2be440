/**
 * Splits (CONTRACT.md §14): boundaries every kilometre and every mile from d[0]; split k runs from
 * boundary k - 1 to boundary k, and a last one, when over 0 m, from the last boundary to the last
 * sample with its real length.
 */
import { divideRounded } from '../insights.js';
import { round1 } from '../time.js';
import { ChannelAtDistance } from './series.js';
import {
  firstSampleFromTau,
  hasElevation,
  hasHeartRate,
  sampleAtDistance,
  tauMs,
  timerMs,
  weightedSum,
  wholeMean,
  type PreparedTrack,
} from './timing.js';

export interface Split {
  /** From 1. */
  index: number;
  /** Metres, 1 decimal. */
  distance: number;
  /** Timer seconds (pauses left out), 1 decimal. */
  time: number;
  /** Metres gained (negative: lost) from the split's start to its end, 1 decimal; null without elevation. */
  elevation_change: number | null;
  /** Weighted mean of the samples with τ(start) <= t < τ(end), whole bpm; null when none has heart rate. */
  heart_rate: number | null;
}

export interface Splits {
  km: Split[];
  mi: Split[];
}

/** The length of a split, in millimetres (a mile is exactly 1,609.344 m). */
export const SPLIT_LENGTH_MM = { km: 1_000_000, mi: 1_609_344 } as const;

/** Both kinds of splits; both empty without distances. */
export function splitsOf(prepared: PreparedTrack): Splits {
  const { track, mm } = prepared;
  if (!mm || mm.length < 2) return { km: [], mi: [] };
  const elevation = ChannelAtDistance.of(track.ele, hasElevation, mm);
  return {
    km: splitsEvery(prepared, mm, elevation, SPLIT_LENGTH_MM.km),
    mi: splitsEvery(prepared, mm, elevation, SPLIT_LENGTH_MM.mi),
  };
}

/** The splits of one length (millimetres). */
function splitsEvery(
  prepared: PreparedTrack,
  mm: Float64Array,
  elevation: ChannelAtDistance | null,
  lengthMm: number,
): Split[] {
  const { track, ms, pauses, weightsMs } = prepared;
  const first = mm[0]!;
  const last = mm[mm.length - 1]!;
  const boundaries: number[] = [first];
  for (let boundary = first + lengthMm; boundary <= last; boundary += lengthMm) boundaries.push(boundary);
  if (boundaries[boundaries.length - 1]! < last) boundaries.push(last);

  // Each boundary's τ's j, its τ and its first sample at or after τ, found walking forward once.
  let j = -1;
  const at = boundaries.map((x) => {
    j = sampleAtDistance(mm, x, j);
    return { x, j, tau: tauMs({ ms, mm }, x, j), firstSample: firstSampleFromTau(mm, x, j) };
  });

  const splits: Split[] = [];
  for (let k = 1; k < at.length; k++) {
    const start = at[k - 1]!;
    const end = at[k]!;
    const heartRate = track.hr
      ? wholeMean(weightedSum(track.hr, weightsMs, hasHeartRate, start.firstSample, end.firstSample))
      : null;
    splits.push({
      index: k,
      distance: divideRounded(end.x - start.x, 100) / 10,
      time: round1(timerMs(pauses, start.tau, end.tau) / 1000),
      elevation_change: elevation
        ? round1(elevation.valueAt(end.x, end.j) - elevation.valueAt(start.x, start.j))
        : null,
      heart_rate: heartRate,
    });
  }
  return splits;
}

/**
 * The pace chart's line. Pace is time over distance, and the series' points are only metres apart,
 * so the pace between two neighbours jumps with every GPS wobble. Each point's pace is instead taken
 * over a window of about `PACE_WINDOW_METRES` centred on it (fewer points at the ends): the moving
 * time between the window's first and last points over the distance between them, which is the
 * true mean pace of that stretch. Moving time leaves out the pauses, so a stop with the watch
 * paused does not spike the line; standing still with the watch running does, as it happened.
 */
import type { TrackSeries } from '../../../../core/tracks/schemas.js';

export const PACE_WINDOW_METRES = 200;

/** The slowest pace the axis reaches, as a multiple of the run's median pace (see paceAxisRange). */
export const SLOWEST_SHOWN = 3;

/**
 * The seconds each elapsed time spent paused so far: `pauses` in order, not overlapping, and
 * `times` never decreasing, so one pass over both.
 */
export function pausedSecondsAt(times: readonly number[], pauses: readonly (readonly [number, number])[]): number[] {
  let completed = 0;
  let next = 0;
  return times.map((time) => {
    while (next < pauses.length && pauses[next]![1] <= time) {
      completed += pauses[next]![1] - pauses[next]![0];
      next++;
    }
    const current = pauses[next];
    return completed + (current && current[0] < time ? time - current[0] : 0);
  });
}

/** How many points on each side of a point its window reaches. */
export function paceWindowHalfWidth(distance: readonly number[]): number {
  const n = distance.length;
  if (n < 2) return 0;
  const spacing = (distance[n - 1]! - distance[0]!) / (n - 1);
  if (!(spacing > 0)) return 1;
  return Math.max(1, Math.round(PACE_WINDOW_METRES / 2 / spacing));
}

/** min/km at each point of the series; null where the window covers no distance. */
export function smoothedPace(
  series: Pick<TrackSeries, 'distance' | 'time'>,
  pauses: readonly (readonly [number, number])[],
): (number | null)[] {
  const { distance, time } = series;
  const paused = pausedSecondsAt(time, pauses);
  const moving = time.map((t, k) => t - paused[k]!);
  const half = paceWindowHalfWidth(distance);
  const last = distance.length - 1;
  return distance.map((_, k) => {
    const from = Math.max(0, k - half);
    const to = Math.min(last, k + half);
    const metres = distance[to]! - distance[from]!;
    return metres > 0 ? (moving[to]! - moving[from]!) / 60 / (metres / 1000) : null;
  });
}

/**
 * The pace axis' range: the 2nd to the 98th percentile of the paces, widened by a tenth of their
 * spread and out to whole tenths of a minute (so the axis' ends read as round paces), so that a stop
 * or a sprint of a few seconds does not flatten the rest of the run into a line; null without paces.
 * The slow end stops at `SLOWEST_SHOWN` times the median pace: a run with long stops while the
 * watch ran (a hike resting at a hut) has more than 2% of its paces in the hundreds of minutes, and
 * an axis out to them would flatten the moving parts; slower stretches run along the top edge.
 */
export function paceAxisRange(paces: readonly (number | null)[]): { min: number; max: number } | null {
  const sorted = paces.filter((pace): pace is number => pace !== null && Number.isFinite(pace)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  const low = at(0.02);
  const high = Math.min(at(0.98), SLOWEST_SHOWN * at(0.5));
  const margin = Math.max((high - low) / 10, 0.1);
  return { min: Math.max(0, Math.floor((low - margin) * 10) / 10), max: Math.ceil((high + margin) * 10) / 10 };
}

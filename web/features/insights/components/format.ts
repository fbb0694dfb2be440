/** Display helpers of insights: the standard distances' names, times as minutes for charts, loads and ratios. */
import { STANDARD_DISTANCES } from '../../../../core/insights.js';
import { parseDuration } from '../../../../core/time.js';

/** `HH:MM:SS` in minutes (charts). */
export function minutesOf(time: string): number {
  return (parseDuration(time) ?? 0) / 60;
}

/** `5k` → `5 km`, `half` → `Half marathon`. */
export function distanceLabel(key: string): string {
  return STANDARD_DISTANCES.find((d) => d.key === key)?.label ?? key;
}

/** A load (effort x minutes) means nothing past the unit: a whole number. */
export const showLoad = (value: number | null) => (value === null ? '—' : Math.round(value).toLocaleString('en-US'));

/** A ratio of loads or of distances: one decimal. */
export const showRatio = (value: number | null) => (value === null ? '—' : value.toFixed(1));

/** Display helpers of insights: clock times of paces, day names, and the distances' labels. */
import { STANDARD_DISTANCES } from '../../../../core/insights.js';
import { parseDuration } from '../../../../core/time.js';

/** Minutes as `m:ss` (or `h:mm:ss`). */
export function clock(minutes: number): string {
  const total = Math.round(minutes * 60);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** `HH:MM:SS` in minutes (charts). */
export function minutesOf(time: string): number {
  return (parseDuration(time) ?? 0) / 60;
}

const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });
const FULL_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `2026-03-12` → `12 March`. */
export function dayName(ymd: string): string {
  return DAY_FORMAT.format(new Date(`${ymd}T00:00:00Z`));
}

/** `2026-03-12` → `12 March 2026`. */
export function fullDate(ymd: string): string {
  return FULL_FORMAT.format(new Date(`${ymd}T00:00:00Z`));
}

/** `5k` → `5 km`, `half` → `Half marathon`. */
export function distanceLabel(key: string): string {
  return STANDARD_DISTANCES.find((d) => d.key === key)?.label ?? key;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

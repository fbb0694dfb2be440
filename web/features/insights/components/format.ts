/** Display helpers of insights: the standard distances' names, times as minutes for charts, loads and ratios. */
import { decimal } from '../../../../core/format.js';
import { STANDARD_DISTANCES } from '../../../../core/insights.js';
import { parseDuration } from '../../../../core/time.js';
import { t } from '../../../i18n/runtime';

/** `HH:MM:SS` in minutes (charts). */
export function minutesOf(time: string): number {
  return (parseDuration(time) ?? 0) / 60;
}

/** Each standard distance's name in the catalogs (the components showing them call `useT(insights)`). */
const DISTANCE_NAMES: Record<string, () => string> = {
  '1k': () => t('insights.distances.oneKm'),
  '1mi': () => t('insights.distances.oneMile'),
  '5k': () => t('insights.distances.fiveKm'),
  '10k': () => t('insights.distances.tenKm'),
  '15k': () => t('insights.distances.fifteenKm'),
  '10mi': () => t('insights.distances.tenMiles'),
  half: () => t('insights.distances.half'),
  '30k': () => t('insights.distances.thirtyKm'),
  marathon: () => t('insights.distances.marathon'),
  '50k': () => t('insights.distances.fiftyKm'),
};

/** `5k` → `5 km`, `half` → `Half marathon`, in the app's language. */
export function distanceLabel(key: string): string {
  const name = DISTANCE_NAMES[key];
  return name ? name() : (STANDARD_DISTANCES.find((d) => d.key === key)?.label ?? key);
}

/** A load (effort x minutes) means nothing past the unit: a whole number. */
export const showLoad = (value: number | null) => (value === null ? '—' : decimal(Math.round(value), 0));

/** A ratio of loads or of distances: one decimal, in the language's decimal separator. */
export const showRatio = (value: number | null) => (value === null ? '—' : decimal(value, 1));

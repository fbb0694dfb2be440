// The goals' English texts, for these helpers outside React too (the components call `useT(goals)`).
// A distance's unit comes in as the component's `useDisplay().labels.distance`: the language's symbol.
import 'virtual:i18n/goals';
import { formatDate } from '../../../../core/format.js';
import { numberLocale } from '../../../../core/number-locale.js';
import type { Goal, GoalBody, GoalMetric, GoalPeriod } from '../../../../core/goals.js';
import type { DateFormat } from '../../../../core/preferences.js';
import { distanceFromInput, distanceIn, distanceInputValue, parseDecimal, type Units } from '../../../../core/units.js';
import { t } from '../../../i18n/runtime';

/** The periods as the form's select names them: "Weekly", "Monthly", "Yearly". */
export function periodLabel(period: GoalPeriod): string {
  return t(period === 'week' ? 'goals.form.weekly' : period === 'month' ? 'goals.form.monthly' : 'goals.form.yearly');
}

/** The metrics as the form's select names them: "distance", "time", "runs". */
export function metricLabel(metric: GoalMetric): string {
  return t(metric === 'distance' ? 'goals.form.distance' : metric === 'time' ? 'goals.form.time' : 'goals.form.runs');
}

/** The unit a target is typed in: the runner's distance unit (`distanceUnit`, "km", "mi"), hours, or runs. */
export function targetUnit(metric: GoalMetric, distanceUnit: string): string {
  return metric === 'distance' ? distanceUnit : metric === 'time' ? t('goals.form.hours') : t('goals.form.runsUnit');
}

/**
 * A number as the goal lines write it, at most 2 decimals: "1,234.5" in English (as always),
 * the language's decimal comma and no grouping in the others (§19).
 */
function amountNumber(value: number): string {
  return numberLocale.decimalSeparator === '.'
    ? value.toLocaleString('en-US')
    : String(value).replace('.', numberLocale.decimalSeparator);
}

/** Hours and minutes: "4h 05m". */
function hoursMinutes(minutes: number): string {
  return t('goals.amount.hours', {
    hours: String(Math.floor(minutes / 60)),
    minutes: String(minutes % 60).padStart(2, '0'),
  });
}

/**
 * An amount of a metric (km, seconds or runs) as a runner reads it: "12.3 mi", "4h 05m", "3 runs";
 * a distance in `units`, written after with `distanceUnit` (its label in the language).
 */
export function formatAmount(metric: GoalMetric, amount: number, units: Units, distanceUnit: string): string {
  if (metric === 'distance') {
    const value = Math.round(distanceIn(amount, units) * 100) / 100;
    return t('goals.amount.distance', { value: amountNumber(value), unit: distanceUnit });
  }
  if (metric === 'time') return hoursMinutes(Math.round(amount / 60));
  const runs = Math.round(amount * 100) / 100;
  return t('goals.amount.runs', { count: runs });
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** A time as a runner reads it: "25 min" under an hour, else "4h 05m". */
function formatTime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('goals.amount.minutes', { minutes: String(minutes) });
  return hoursMinutes(minutes);
}

/** An amount without its unit where the sentence says it once: "12.5" (km or mi), "7" (runs); a time keeps its own. */
function bareAmount(metric: GoalMetric, amount: number, units: Units): string {
  if (metric === 'distance') return amountNumber(round2(distanceIn(amount, units)));
  if (metric === 'time') return formatTime(amount);
  return amountNumber(round2(amount));
}

/** What is done of the target, the unit said once: "14.75 of 40 km", "7 of 14 runs", "2h 05m of 5h 00m". */
export function doneOfTarget(
  goal: Pick<Goal, 'metric' | 'progress' | 'target'>,
  units: Units,
  distanceUnit: string,
): string {
  const done = bareAmount(goal.metric, goal.progress, units);
  const target = bareAmount(goal.metric, goal.target, units);
  if (goal.metric === 'time') return t('goals.progress.of', { done, target });
  if (goal.metric === 'distance') {
    return t('goals.progress.ofDistance', { done, target, unit: distanceUnit });
  }
  return t('goals.progress.ofRuns', { done, target, count: goal.target });
}

/**
 * What remains by the end of the period and what that needs a day: "25.25 km to go by 03/22/2026,
 * 5.05 km a day", "7 to go by 03/31/2026, 2.33 a day", "2h 55m to go by 03/31/2026, 25 min a day".
 */
export function toGoLine(
  goal: Pick<Goal, 'metric' | 'remaining' | 'per_day_needed' | 'period_end'>,
  units: Units,
  distanceUnit: string,
  dateFormat: DateFormat,
): string {
  const amount = (value: number) =>
    goal.metric === 'distance'
      ? t('goals.amount.distance', { value: bareAmount(goal.metric, value, units), unit: distanceUnit })
      : bareAmount(goal.metric, value, units);
  return t('goals.progress.toGo', {
    remaining: amount(goal.remaining),
    date: formatDate(goal.period_end, dateFormat),
    perDay: amount(goal.per_day_needed),
  });
}

/** What one period is called in the history: "Week of 03/16/2026" (in the runner's date format), "03/2026", "2026". */
export function periodName(period: GoalPeriod, start: string, dateFormat: DateFormat): string {
  if (period === 'week') return t('goals.history.weekOf', { date: formatDate(start, dateFormat) });
  if (period === 'month') return `${start.slice(5, 7)}/${start.slice(0, 4)}`;
  return start.slice(0, 4);
}

/** "Weekly distance: 40 km". */
export const goalTitle = (goal: Pick<Goal, 'period' | 'metric' | 'target'>, units: Units, distanceUnit: string) =>
  t('goals.goalTitle', {
    kind: `${goal.period}_${goal.metric}`,
    amount: formatAmount(goal.metric, goal.target, units, distanceUnit),
  });

/** The target as the form shows it, in the unit of `targetUnit` (a distance as the runs' fields show one). */
export function targetForForm(metric: GoalMetric, target: number, units: Units): string {
  if (metric === 'distance') return distanceInputValue(target, units);
  if (metric === 'time') return String(Math.round((target / 3600) * 100) / 100);
  return String(target);
}

/**
 * The typed target in the API's unit (km, seconds, runs); NaN when it is not a number. While
 * the text is still the one `stored` was shown as, it is `stored`'s own target: a goal of 75 mi
 * saved again stays exactly what it was, whatever the rounding of the field.
 */
export function targetFromForm(
  metric: GoalMetric,
  text: string,
  units: Units,
  stored?: Pick<Goal, 'metric' | 'target'>,
): GoalBody['target'] {
  if (stored?.metric === metric && text.trim() === targetForForm(metric, stored.target, units)) return stored.target;
  if (metric === 'distance') return distanceFromInput(text, units) ?? Number.NaN;
  const value = parseDecimal(text) ?? Number.NaN;
  return metric === 'time' ? Math.round(value * 3600) : value;
}

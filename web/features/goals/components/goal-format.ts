import { formatDate } from '../../../../core/format.js';
import type { Goal, GoalBody, GoalMetric, GoalPeriod } from '../../../../core/goals.js';
import type { DateFormat } from '../../../../core/preferences.js';
import {
  distanceFromInput,
  distanceIn,
  distanceInputValue,
  parseDecimal,
  unitLabels,
  type Units,
} from '../../../../core/units.js';

export const PERIOD_LABELS: Record<GoalPeriod, string> = { week: 'Weekly', month: 'Monthly', year: 'Yearly' };
export const METRIC_LABELS: Record<GoalMetric, string> = { distance: 'distance', time: 'time', runs: 'runs' };

/** The unit a target is typed in: the runner's distance unit, hours, or runs. */
export function targetUnit(metric: GoalMetric, units: Units): string {
  return metric === 'distance' ? unitLabels(units).distance : metric === 'time' ? 'hours' : 'runs';
}

/** An amount of a metric (km, seconds or runs) as a runner reads it: "12.3 mi", "4h 05m", "3 runs". */
export function formatAmount(metric: GoalMetric, amount: number, units: Units): string {
  if (metric === 'distance') {
    const value = Math.round(distanceIn(amount, units) * 100) / 100;
    return `${value.toLocaleString('en-US')} ${unitLabels(units).distance}`;
  }
  if (metric === 'time') {
    const minutes = Math.round(amount / 60);
    return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
  }
  const runs = Math.round(amount * 100) / 100;
  return `${runs} ${runs === 1 ? 'run' : 'runs'}`;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** A time as a runner reads it: "25 min" under an hour, else "4h 05m". */
function formatTime(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** An amount without its unit where the sentence says it once: "12.5" (km or mi), "7" (runs); a time keeps its own. */
function bareAmount(metric: GoalMetric, amount: number, units: Units): string {
  if (metric === 'distance') return round2(distanceIn(amount, units)).toLocaleString('en-US');
  if (metric === 'time') return formatTime(amount);
  return round2(amount).toLocaleString('en-US');
}

/** What is done of the target, the unit said once: "14.75 of 40 km", "7 of 14 runs", "2h 05m of 5h 00m". */
export function doneOfTarget(goal: Pick<Goal, 'metric' | 'progress' | 'target'>, units: Units): string {
  if (goal.metric === 'time') return `${formatTime(goal.progress)} of ${formatTime(goal.target)}`;
  const unit = goal.metric === 'distance' ? ` ${unitLabels(units).distance}` : goal.target === 1 ? ' run' : ' runs';
  return `${bareAmount(goal.metric, goal.progress, units)} of ${bareAmount(goal.metric, goal.target, units)}${unit}`;
}

/**
 * What remains by the end of the period and what that needs a day: "25.25 km to go by 03/22/2026,
 * 5.05 km a day", "7 to go by 03/31/2026, 2.33 a day", "2h 55m to go by 03/31/2026, 25 min a day".
 */
export function toGoLine(
  goal: Pick<Goal, 'metric' | 'remaining' | 'per_day_needed' | 'period_end'>,
  units: Units,
  dateFormat: DateFormat,
): string {
  const unit = goal.metric === 'distance' ? ` ${unitLabels(units).distance}` : '';
  const amount = (value: number) => `${bareAmount(goal.metric, value, units)}${unit}`;
  return `${amount(goal.remaining)} to go by ${formatDate(goal.period_end, dateFormat)}, ${amount(goal.per_day_needed)} a day`;
}

/** What one period is called in the history: "Week of 03/16/2026" (in the runner's date format), "03/2026", "2026". */
export function periodName(period: GoalPeriod, start: string, dateFormat: DateFormat): string {
  if (period === 'week') return `Week of ${formatDate(start, dateFormat)}`;
  if (period === 'month') return `${start.slice(5, 7)}/${start.slice(0, 4)}`;
  return start.slice(0, 4);
}

/** "Weekly distance: 40 km". */
export const goalTitle = (goal: Pick<Goal, 'period' | 'metric' | 'target'>, units: Units) =>
  `${PERIOD_LABELS[goal.period]} ${METRIC_LABELS[goal.metric]}: ${formatAmount(goal.metric, goal.target, units)}`;

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

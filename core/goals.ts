/**
 * Goals (CONTRACT.md §11): weekly, monthly or yearly targets on distance, time or the
 * number of runs, their calendar periods, and the API's schemas for them.
 */
import { z } from 'zod';
import { blankToUndefined, DECIMAL_RE, toNumber } from './schemas.js';
import { addDays, isoWeekStart } from './time.js';

export const GOAL_PERIODS = ['week', 'month', 'year'] as const;
export type GoalPeriod = (typeof GOAL_PERIODS)[number];
export const GOAL_METRICS = ['distance', 'time', 'runs'] as const;
export type GoalMetric = (typeof GOAL_METRICS)[number];

/** The most goals one runner may have. */
export const MAX_GOALS = 20;
export const TOO_MANY_GOALS = `You can have at most ${MAX_GOALS} goals.`;
/** How many earlier periods a goal shows. */
export const GOAL_HISTORY = 12;

/** The largest target of each metric: km, seconds, runs. */
export const MAX_TARGET: Record<GoalMetric, number> = { distance: 100_000, time: 10_000 * 3600, runs: 10_000 };

/** Why a target does not suit its metric, or null when it does. */
export function targetProblem(metric: GoalMetric, target: number): string | null {
  if (!Number.isFinite(target) || target <= 0) return 'The target must be greater than 0.';
  if (target > MAX_TARGET[metric]) return `The target must not be greater than ${MAX_TARGET[metric]}.`;
  if (metric === 'distance' && Math.abs(Math.round(target * 1000) - target * 1000) > 1e-6) {
    return 'The target distance must have at most 3 decimals.';
  }
  if (metric !== 'distance' && !Number.isInteger(target)) {
    return metric === 'time'
      ? 'The target time must be a whole number of seconds.'
      : 'The target must be a whole number of runs.';
  }
  return null;
}

/** A field that must be one of `values`, with the contract's messages. */
function choice<T extends readonly [string, ...string[]]>(field: string, values: T, wording: string) {
  return z.preprocess(
    blankToUndefined,
    z.enum(values, {
      error: (issue) =>
        issue.input === undefined ? `The ${field} field is required.` : `The ${field} must be one of ${wording}.`,
    }),
  );
}
const periodField = choice('period', GOAL_PERIODS, 'week, month or year');
const metricField = choice('metric', GOAL_METRICS, 'distance, time or runs');
const targetField = z.preprocess(
  toNumber(DECIMAL_RE),
  z.number({
    error: (issue) => (issue.input === undefined ? 'The target field is required.' : 'The target must be a number.'),
  }),
);

/** The target's rule once the metric is known (on an update, the service checks it against the stored metric). */
function checkTarget(value: { metric?: GoalMetric; target?: number }, ctx: z.RefinementCtx) {
  if (value.metric === undefined || value.target === undefined) return;
  const problem = targetProblem(value.metric, value.target);
  if (problem) ctx.addIssue({ code: 'custom', path: ['target'], message: problem });
}

export const GoalBodySchema = z
  .object({ period: periodField, metric: metricField, target: targetField })
  .superRefine(checkTarget);
export type GoalBody = z.infer<typeof GoalBodySchema>;

/** An update changes the fields it is given. */
export const GoalUpdateBodySchema = z
  .object({ period: periodField.optional(), metric: metricField.optional(), target: targetField.optional() })
  .superRefine(checkTarget);
export type GoalUpdateBody = z.infer<typeof GoalUpdateBodySchema>;

export const GoalHistoryRowSchema = z.object({
  period_start: z.string(),
  progress: z.number(),
  achieved: z.boolean(),
});

export const GoalSchema = z.object({
  id: z.number().int(),
  period: z.enum(GOAL_PERIODS),
  metric: z.enum(GOAL_METRICS),
  target: z.number().describe('km, seconds or a number of runs'),
  period_start: z.string(),
  period_end: z.string().describe('Inclusive'),
  progress: z.number(),
  remaining: z.number(),
  per_day_needed: z.number().describe('remaining / days left including today, 2 decimals'),
  achieved: z.boolean(),
  history: z.array(GoalHistoryRowSchema).describe('The 12 previous periods, newest first'),
});
export type Goal = z.infer<typeof GoalSchema>;

export const GoalEnvelopeSchema = z.object({ goal: GoalSchema });
export const GoalsEnvelopeSchema = z.object({ goals: z.array(GoalSchema) });

/** The calendar period (first and last day, inclusive) holding `date`: ISO week, month or year. */
export function periodOf(period: GoalPeriod, date: string): { start: string; end: string } {
  if (period === 'week') {
    const start = isoWeekStart(date);
    return { start, end: addDays(start, 6) };
  }
  if (period === 'year') return { start: `${date.slice(0, 4)}-01-01`, end: `${date.slice(0, 4)}-12-31` };
  const start = `${date.slice(0, 7)}-01`;
  // The 28th plus 4 days is always in the next month.
  const nextMonth = `${addDays(`${date.slice(0, 7)}-28`, 4).slice(0, 7)}-01`;
  return { start, end: addDays(nextMonth, -1) };
}

/** The periods of a goal from the current one back: `count` of them, newest first. */
export function periodsBack(period: GoalPeriod, today: string, count: number): { start: string; end: string }[] {
  const periods = [periodOf(period, today)];
  while (periods.length < count) periods.push(periodOf(period, addDays(periods[periods.length - 1]!.start, -1)));
  return periods;
}

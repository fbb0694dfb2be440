/**
 * Goals (CONTRACT.md §11): a runner's own weekly, monthly and yearly targets, each measured
 * over its calendar periods in the runner's time zone from runner_days (kept exact by
 * db/tallies.ts), never by reading the runs. Another runner's goal is a 404, whatever the role.
 */
import {
  GOAL_HISTORY,
  MAX_GOALS,
  periodsBack,
  targetProblem,
  TOO_MANY_GOALS,
  type Goal,
  type GoalBody,
  type GoalUpdateBody,
} from '../../../core/goals.js';
import { daysBetween, round2 } from '../../../core/time.js';
import { inTransaction, nowIso, todayOf, type AppContext } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { moveAnswerRevision } from '../../db/tallies.js';
import type { Executor } from '../../db/schema.js';
import { invalid, notFound } from '../../errors.js';
import * as goals from './goals.repository.js';

/** Whose goals: the runner, whose zone says what "this week" is. */
export interface Runner {
  id: number;
  timezone: string;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/** The metric in integer units (metres, seconds, runs), so that sums and comparisons stay exact. */
function amountOf(totals: goals.RunTotals, metric: goals.GoalRecord['metric']): number {
  return metric === 'distance' ? totals.distanceM : metric === 'time' ? totals.seconds : totals.runs;
}

/**
 * The metric summed per period: each row (a day, or a month: `width` characters of a date)
 * goes to the period holding it, periods newest first and contiguous.
 */
function sumPerPeriod(
  rows: goals.RunTotals[],
  metric: goals.GoalRecord['metric'],
  periods: { start: string; end: string }[],
  width: number,
): number[] {
  const starts = periods.map((period) => period.start.slice(0, width));
  const last = periods[0]!.end.slice(0, width);
  const sums = periods.map(() => 0);
  for (const row of rows) {
    if (row.key > last || row.key < starts[starts.length - 1]!) continue;
    let i = 0;
    while (row.key < starts[i]!) i += 1;
    sums[i] = sums[i]! + amountOf(row, metric);
  }
  return sums;
}

/** The goals in their API shape: progress of the current period and of the 12 before it. */
async function measure(ctx: AppContext, runner: Runner, records: goals.GoalRecord[], today: string): Promise<Goal[]> {
  const periods = records.map((goal) => periodsBack(goal.period, today, GOAL_HISTORY + 1));
  // Weeks read days; months and years read monthly sums (at most 13 x 12 rows).
  const spans = { day: [] as { start: string; end: string }[], month: [] as { start: string; end: string }[] };
  records.forEach((goal, i) => {
    const own = periods[i]!;
    spans[goal.period === 'week' ? 'day' : 'month'].push({ start: own[own.length - 1]!.start, end: own[0]!.end });
  });
  const read = async (by: 'day' | 'month') => {
    const span = spans[by];
    if (span.length === 0) return [];
    const from = span.reduce((min, s) => (s.start < min ? s.start : min), span[0]!.start);
    const to = span.reduce((max, s) => (s.end > max ? s.end : max), span[0]!.end);
    return goals.runTotals(ctx.db, { userId: runner.id, from, to }, by);
  };
  const [days, months] = [await read('day'), await read('month')];

  return records.map((goal, i) => {
    const rows = goal.period === 'week' ? days : months;
    const scale = goal.metric === 'distance' ? 1000 : 1;
    const target = Math.round(goal.target * scale);
    const sums = sumPerPeriod(rows, goal.metric, periods[i]!, goal.period === 'week' ? 10 : 7);
    const [current, ...before] = periods[i]!.map((period, p) => ({
      period,
      amount: sums[p]!,
      achieved: sums[p]! >= target,
    }));
    const progress = current!.amount / scale;
    const remaining = Math.max(0, target - current!.amount) / scale;
    const daysLeft = daysBetween(today, current!.period.end) + 1;
    return {
      id: goal.id,
      period: goal.period,
      metric: goal.metric,
      target: goal.target,
      period_start: current!.period.start,
      period_end: current!.period.end,
      progress: round3(progress),
      remaining: round3(remaining),
      per_day_needed: round2(remaining / daysLeft),
      achieved: current!.achieved,
      history: before.map((row) => ({
        period_start: row.period.start,
        progress: round3(row.amount / scale),
        achieved: row.achieved,
      })),
    };
  });
}

/**
 * A runner's goals in their API shape, oldest first (also what an export lists). Every write of a
 * goal moves the runner's answer revision (moveAnswerRevision), as a write of their runs does.
 */
export async function listGoals(ctx: AppContext, runner: Runner): Promise<Goal[]> {
  const records = await goals.listGoals(ctx.db, runner.id);
  if (records.length === 0) return [];
  return measure(ctx, runner, records, todayOf(ctx, runner));
}

/** Inserts a goal of `userId` on `trx` (locked by lockRunner), at most MAX_GOALS of them. */
async function insertOwnGoal(trx: Executor, userId: number, body: GoalBody, createdAt: string) {
  if ((await goals.countGoals(trx, userId)) >= MAX_GOALS) throw invalid('goal', TOO_MANY_GOALS);
  return goals.insertGoal(trx, userId, { period: body.period, metric: body.metric, target: body.target }, createdAt);
}

export async function createGoal(ctx: AppContext, runner: Runner, body: GoalBody): Promise<Goal> {
  const record = await inTransaction(ctx, async (trx) => {
    await lockRunner(trx, runner.id);
    const inserted = await insertOwnGoal(trx, runner.id, body, nowIso(ctx));
    await moveAnswerRevision(trx, [runner.id]);
    return inserted;
  });
  const [goal] = await measure(ctx, runner, [record], todayOf(ctx, runner));
  return goal!;
}

/** Changes the fields it is given; the target must suit the metric the goal ends up with. */
export async function updateGoal(ctx: AppContext, runner: Runner, id: number, body: GoalUpdateBody): Promise<Goal> {
  const stored = await goals.findGoal(ctx.db, id);
  if (!stored || stored.userId !== runner.id) throw notFound();
  const values = {
    period: body.period ?? stored.period,
    metric: body.metric ?? stored.metric,
    target: body.target ?? stored.target,
  };
  const problem = targetProblem(values.metric, values.target);
  if (problem) throw invalid('target', problem);
  const updated = await inTransaction(ctx, async (trx) => {
    await lockRunner(trx, runner.id);
    const row = await goals.updateGoal(trx, runner.id, id, values, nowIso(ctx));
    if (row) await moveAnswerRevision(trx, [runner.id]);
    return row;
  });
  if (!updated) throw notFound();
  const [goal] = await measure(ctx, runner, [updated], todayOf(ctx, runner));
  return goal!;
}

export async function deleteGoal(ctx: AppContext, runner: Runner, id: number): Promise<void> {
  await inTransaction(ctx, async (trx) => {
    await lockRunner(trx, runner.id);
    if (!(await goals.deleteGoal(trx, runner.id, id))) throw notFound();
    await moveAnswerRevision(trx, [runner.id]);
  });
}

/**
 * An import's goals (the JSON export's `goals`), on the importer's transaction `trx`: each
 * goal the runner has no equal of (same period, metric and target) is created, while the
 * runner has fewer than MAX_GOALS. Answers how many were created.
 */
export async function importGoals(
  trx: Executor,
  userId: number,
  incoming: GoalBody[],
  createdAt: string,
): Promise<number> {
  await lockRunner(trx, userId);
  const stored = await goals.listGoals(trx, userId);
  const key = (goal: GoalBody) => `${goal.period}/${goal.metric}/${goal.target}`;
  const have = new Set(stored.map(key));
  let room = MAX_GOALS - stored.length;
  let created = 0;
  for (const goal of incoming) {
    if (room <= 0) break;
    if (have.has(key(goal))) continue;
    await insertOwnGoal(trx, userId, goal, createdAt);
    have.add(key(goal));
    room -= 1;
    created += 1;
  }
  if (created > 0) await moveAnswerRevision(trx, [userId]);
  return created;
}

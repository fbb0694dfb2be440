/** SQL for goals, and the runner's daily totals (runner_days, db/tallies.ts) that measure them. */
import type { GoalMetric, GoalPeriod } from '../../../core/goals.js';
import { sql } from 'kysely';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';

export interface GoalRecord {
  id: number;
  userId: number;
  period: GoalPeriod;
  metric: GoalMetric;
  target: number;
}

export interface GoalValues {
  period?: GoalPeriod | undefined;
  metric?: GoalMetric | undefined;
  target?: number | undefined;
}

/** Totals of a day (`key` YYYY-MM-DD) or a month (`key` YYYY-MM). */
export interface RunTotals {
  key: string;
  runs: number;
  distanceM: number;
  seconds: number;
}

const goalColumns = ['id', 'user_id', 'period', 'metric', 'target'] as const;

function toRecord(row: { id: number; user_id: number; period: GoalPeriod; metric: GoalMetric; target: number }) {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    period: row.period,
    metric: row.metric,
    target: Number(row.target),
  };
}

const ownGoals = compiled<{ userId: number }>()((db, param) =>
  db.selectFrom('goals').select(goalColumns).where('user_id', '=', param('userId')).orderBy('id'),
);

/** A runner's goals, oldest first. */
export async function listGoals(db: Executor, userId: number): Promise<GoalRecord[]> {
  return (await ownGoals(db, { userId })).map(toRecord);
}

export async function findGoal(db: Executor, id: number): Promise<GoalRecord | null> {
  const row = await db.selectFrom('goals').select(goalColumns).where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function countGoals(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('goals')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertGoal(
  db: Executor,
  userId: number,
  values: Required<GoalValues>,
  nowIso: string,
): Promise<GoalRecord> {
  const row = await db
    .insertInto('goals')
    .values({ user_id: userId, ...values, created_at: nowIso, updated_at: nowIso })
    .returning(goalColumns)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Changes one of `userId`'s goals; null when it is not theirs (or gone). */
export async function updateGoal(
  db: Executor,
  userId: number,
  id: number,
  values: Required<GoalValues>,
  nowIso: string,
): Promise<GoalRecord | null> {
  const row = await db
    .updateTable('goals')
    .set({ ...values, updated_at: nowIso })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(goalColumns)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function deleteGoal(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('goals').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

type Range = { userId: number; from: string; to: string };

// runner_days may hold days whose runs were all deleted (runs = 0): they count for nothing.
const runnerDays = compiled<Range>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select(['date as key', 'runs', 'distance_m', 'seconds'])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('runs', '>', 0),
);

const toTotals = (row: { key: string; runs: unknown; distance_m: unknown; seconds: unknown }): RunTotals => ({
  key: row.key,
  runs: Number(row.runs),
  distanceM: Number(row.distance_m),
  seconds: Number(row.seconds),
});

const runnerMonths = compiled<Range>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select((eb) => [
      sql<string>`substr(date, 1, 7)`.as('key'),
      eb.fn.sum<number>('runs').as('runs'),
      eb.fn.sum<number>('distance_m').as('distance_m'),
      eb.fn.sum<number>('seconds').as('seconds'),
    ])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('runs', '>', 0)
    .groupBy(sql`substr(date, 1, 7)`)
    .orderBy(sql`substr(date, 1, 7)`),
);

/** The runner's totals per day or per month (`by`), from their days, between two dates inclusive. */
export async function runTotals(db: Executor, range: Range, by: 'day' | 'month'): Promise<RunTotals[]> {
  return (await (by === 'day' ? runnerDays : runnerMonths)(db, range)).map(toTotals);
}

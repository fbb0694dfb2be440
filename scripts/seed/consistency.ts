/**
 * Every maintained total recomputed from the rows themselves: users.entry_count, the
 * counters table, the day and month buckets, each runner's daily totals and each shoe's
 * distance and runs. Tests compare the two.
 */
import { sql, type Kysely } from 'kysely';
import { countingDistance } from '../../core/insights.js';
import type { Database } from '../../server/db/schema.js';
import { RUN_BLOCK_M } from '../../server/db/tallies.js';

export interface Totals {
  entryCounts: Record<number, number>;
  counters: Record<string, number>;
  entryDays: Record<string, number>;
  /** entry_blocks (`date/block`) and entry_all_months: everyone's runs per day and kilometre, and per month. */
  entryBlocks: Record<string, number>;
  entryAllMonths: Record<string, number>;
  entryMonths: Record<string, string>;
  userDays: Record<string, number>;
  runnerDays: Record<string, string>;
  shoes: Record<number, string>;
  /** runner_efforts: each run that counts for a standard distance, recounted with core/insights.ts. */
  efforts: Record<number, string>;
}

const effort = (r: { user_id: unknown; date: string; distance_m: unknown; seconds: unknown }, key: string) =>
  `${Number(r.user_id)}/${key}/${r.date}/${Number(r.distance_m)}/${Number(r.seconds)}`;

const dayTotals = (r: Record<string, unknown>) =>
  ['runs', 'distance_m', 'seconds', 'effort_seconds', 'unrated_seconds', 'unrated_runs']
    .map((k) => Number(r[k]))
    .join('/');

const nonZero = <T extends { n: number | string }>(rows: T[], key: (row: T) => string | number) =>
  Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [key(r), Number(r.n)]));

interface MonthRow {
  user_id: number;
  month: string;
  n: number | string;
  distance_m: number | string;
  seconds: number | string;
}

/** Each runner's months with runs: count, distance and time. */
const monthTotals = (rows: MonthRow[]) =>
  Object.fromEntries(
    rows
      .filter((r) => Number(r.n) !== 0)
      .map((r) => [`${r.user_id}/${r.month}`, `${Number(r.n)}/${Number(r.distance_m)}/${Number(r.seconds)}`]),
  );

/** What the tables say. */
export async function maintainedTotals(db: Kysely<Database>): Promise<Totals> {
  const users = await db.selectFrom('users').select(['id', 'entry_count']).execute();
  const counters = await db.selectFrom('counters').select(['name', 'value']).execute();
  return {
    entryCounts: Object.fromEntries(users.map((u) => [Number(u.id), Number(u.entry_count)])),
    counters: Object.fromEntries(counters.map((c) => [c.name, Number(c.value)])),
    entryDays: nonZero(await db.selectFrom('entry_days').select(['date', 'n']).execute(), (r) => r.date),
    entryBlocks: nonZero(
      await db.selectFrom('entry_blocks').select(['date', 'block', 'n']).execute(),
      (r) => `${r.date}/${Number(r.block)}`,
    ),
    entryAllMonths: nonZero(await db.selectFrom('entry_all_months').select(['month', 'n']).execute(), (r) => r.month),
    entryMonths: monthTotals(
      await db.selectFrom('entry_months').select(['user_id', 'month', 'n', 'distance_m', 'seconds']).execute(),
    ),
    userDays: nonZero(await db.selectFrom('user_days').select(['day', 'n']).execute(), (r) => r.day),
    runnerDays: Object.fromEntries(
      (await db.selectFrom('runner_days').selectAll().where('runs', '<>', 0).execute()).map((r) => [
        `${r.user_id}/${r.date}`,
        dayTotals(r),
      ]),
    ),
    shoes: Object.fromEntries(
      (await db.selectFrom('shoes').select(['id', 'distance_m', 'runs']).execute()).map((r) => [
        Number(r.id),
        `${Number(r.runs)}/${Number(r.distance_m)}`,
      ]),
    ),
    efforts: Object.fromEntries(
      (await db.selectFrom('runner_efforts').selectAll().execute()).map((r) => [Number(r.entry_id), effort(r, r.key)]),
    ),
  };
}

/** What they should say, counted from the rows. */
export async function recountedTotals(db: Kysely<Database>): Promise<Totals> {
  const users = await db.selectFrom('users').select('id').execute();
  const perUser = await db
    .selectFrom('entries')
    .select((eb) => ['user_id', eb.fn.countAll<number>().as('n')])
    .groupBy('user_id')
    .execute();
  const counts = new Map(perUser.map((r) => [Number(r.user_id), Number(r.n)]));
  const days = await db
    .selectFrom('entries')
    .select((eb) => ['date', eb.fn.countAll<number>().as('n')])
    .groupBy('date')
    .execute();
  const months = await sql<MonthRow>`
    select user_id, substr(date, 1, 7) as month, count(*) as n, sum(distance_m) as distance_m, sum(seconds) as seconds
    from entries group by user_id, substr(date, 1, 7)`.execute(db);
  const blocks = await sql<{ date: string; block: number; n: number }>`
    select date, distance_m / ${sql.lit(RUN_BLOCK_M)} as block, count(*) as n from entries
    group by date, distance_m / ${sql.lit(RUN_BLOCK_M)}`.execute(db);
  const allMonths = await sql<{ month: string; n: number }>`
    select substr(date, 1, 7) as month, count(*) as n from entries group by substr(date, 1, 7)`.execute(db);
  const signups = await sql<{ day: string; n: number }>`
    select substr(created_at, 1, 10) as day, count(*) as n from users group by substr(created_at, 1, 10)`.execute(db);
  const runnerDays = await sql<Record<string, unknown>>`
    select user_id, date, count(*) as runs, sum(distance_m) as distance_m, sum(seconds) as seconds,
      sum(coalesce(effort, 0) * seconds) as effort_seconds,
      sum(case when effort is null then seconds else 0 end) as unrated_seconds,
      sum(case when effort is null then 1 else 0 end) as unrated_runs
    from entries group by user_id, date`.execute(db);
  const shoes = await sql<{ id: number; runs: number; distance_m: number }>`
    select s.id, count(e.id) as runs, coalesce(sum(e.distance_m), 0) as distance_m
    from shoes s left join entries e on e.shoe_id = s.id group by s.id`.execute(db);
  const runs = await db.selectFrom('entries').select(['id', 'user_id', 'date', 'distance_m', 'seconds']).execute();
  const efforts: Record<number, string> = {};
  for (const run of runs) {
    const d = countingDistance(Number(run.distance_m));
    if (d) efforts[Number(run.id)] = effort(run, d.key);
  }
  return {
    efforts,
    runnerDays: Object.fromEntries(runnerDays.rows.map((r) => [`${r.user_id}/${r.date}`, dayTotals(r)])),
    shoes: Object.fromEntries(shoes.rows.map((r) => [Number(r.id), `${Number(r.runs)}/${Number(r.distance_m)}`])),
    entryCounts: Object.fromEntries(users.map((u) => [Number(u.id), counts.get(Number(u.id)) ?? 0])),
    counters: { users: users.length, entries: [...counts.values()].reduce((a, b) => a + b, 0) },
    entryDays: nonZero(days, (r) => r.date),
    entryBlocks: nonZero(blocks.rows, (r) => `${r.date}/${Number(r.block)}`),
    entryAllMonths: nonZero(allMonths.rows, (r) => r.month),
    entryMonths: monthTotals(months.rows),
    userDays: nonZero(signups.rows, (r) => r.day),
  };
}

/**
 * Every tally of server/db/tallies.ts recomputed from the rows themselves: users.entry_count,
 * everyone's runs per day, each runner's daily totals, the runs that count for a standard
 * distance and the accounts created per day. Tests compare the two.
 */
import { sql, type Kysely } from 'kysely';
import { countingDistance } from '../../core/insights.js';
import type { Database } from '../../server/db/schema.js';

export interface Totals {
  entryCounts: Record<number, number>;
  entryDays: Record<string, number>;
  runnerDays: Record<string, string>;
  /**
   * runner_efforts: each run that counts for a standard distance (recounted with core/insights.ts),
   * or each best effort of a tracked run with distances (from its track), by run and distance.
   */
  efforts: Record<string, string>;
  signUpDays: Record<string, number>;
}

const effort = (
  r: { user_id: unknown; date: string; distance_m: unknown; seconds: unknown },
  source: string,
  start: unknown,
) => `${Number(r.user_id)}/${r.date}/${Number(r.distance_m)}/${Number(r.seconds)}/${source}/${start ?? '-'}`;

const dayTotals = (r: Record<string, unknown>) =>
  ['runs', 'distance_m', 'seconds', 'effort_seconds', 'unrated_seconds', 'unrated_runs']
    .map((k) => Number(r[k]))
    .join('/');

const nonZero = <T extends { n: number | string }>(rows: T[], key: (row: T) => string | number) =>
  Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [key(r), Number(r.n)]));

/** What the tables say. */
export async function maintainedTotals(db: Kysely<Database>): Promise<Totals> {
  const users = await db.selectFrom('users').select(['id', 'entry_count']).execute();
  return {
    entryCounts: Object.fromEntries(users.map((u) => [Number(u.id), Number(u.entry_count)])),
    entryDays: nonZero(await db.selectFrom('entry_days').select(['date', 'n']).execute(), (r) => r.date),
    runnerDays: Object.fromEntries(
      (await db.selectFrom('runner_days').selectAll().where('runs', '<>', 0).execute()).map((r) => [
        `${r.user_id}/${r.date}`,
        dayTotals(r),
      ]),
    ),
    efforts: Object.fromEntries(
      (await db.selectFrom('runner_efforts').selectAll().execute()).map((r) => [
        `${Number(r.entry_id)}/${r.key}`,
        effort(r, r.source, r.start_m),
      ]),
    ),
    signUpDays: nonZero(await db.selectFrom('user_days').select(['day', 'n']).execute(), (r) => r.day),
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
  const runnerDays = await sql<Record<string, unknown>>`
    select user_id, date, count(*) as runs, sum(distance_m) as distance_m, sum(seconds) as seconds,
      sum(coalesce(effort, 0) * seconds) as effort_seconds,
      sum(case when effort is null then seconds else 0 end) as unrated_seconds,
      sum(case when effort is null then 1 else 0 end) as unrated_runs
    from entries group by user_id, date`.execute(db);
  const runs = await db
    .selectFrom('entries')
    .leftJoin('tracks', 'tracks.entry_id', 'entries.id')
    .select(['id', 'entries.user_id', 'date', 'distance_m', 'seconds', 'tracks.efforts'])
    .execute();
  const efforts: Record<string, string> = {};
  for (const run of runs) {
    if (run.efforts !== null) {
      for (const e of JSON.parse(run.efforts) as { key: string; ms: number; start: number }[]) {
        efforts[`${Number(run.id)}/${e.key}`] = effort(
          { ...run, seconds: Math.round(e.ms / 1000) },
          'best_effort',
          e.start,
        );
      }
      continue;
    }
    const d = countingDistance(Number(run.distance_m));
    if (d) efforts[`${Number(run.id)}/${d.key}`] = effort(run, 'run', null);
  }
  const signUps = await sql<{ day: string; n: number }>`
    select substr(created_at, 1, 10) as day, count(*) as n from users group by substr(created_at, 1, 10)`.execute(db);
  return {
    efforts,
    signUpDays: nonZero(signUps.rows, (r) => r.day),
    runnerDays: Object.fromEntries(runnerDays.rows.map((r) => [`${r.user_id}/${r.date}`, dayTotals(r)])),
    entryCounts: Object.fromEntries(users.map((u) => [Number(u.id), counts.get(Number(u.id)) ?? 0])),
    entryDays: nonZero(days, (r) => r.date),
  };
}

/**
 * SQL of insights: a runner's counting runs (runner_efforts), days (runner_days) and runs of a date
 * range, each read from an index that starts with the runner, so that nobody else's data is read.
 */
import { sql } from 'kysely';
import { ASSUMED_EFFORT, type Effort, type Run, type RunnerDay } from '../../../core/insights.js';
import type { HeartRateSummary } from '../../../core/tracks/heart-rate.js';
import { compiled, type ParamOf } from '../../db/compiled.js';
import { inOrder, packedColumns, unpack } from '../../db/packed.js';
import type { Executor } from '../../db/schema.js';
import { shown } from '../../db/staged.js';

const effortsOf = compiled<{ userId: number }>()((db, param) =>
  db
    .selectFrom('runner_efforts')
    .select(['key', 'entry_id', 'date', 'distance_m', 'seconds', 'source', 'start_m'])
    .where('user_id', '=', param('userId'))
    .where(shown('staged'))
    .orderBy('date')
    .orderBy('entry_id'),
);

/** Everything of a runner that counts for a standard distance (runs, best efforts), in (date, id) order. */
export async function listEfforts(db: Executor, userId: number): Promise<Effort[]> {
  const rows = await effortsOf(db, { userId });
  return rows.map((r) => ({
    key: r.key,
    entryId: Number(r.entry_id),
    date: r.date,
    distanceM: Number(r.distance_m),
    seconds: Number(r.seconds),
    source: r.source,
    start: r.start_m === null ? null : Number(r.start_m),
  }));
}

const DAY_COLUMNS = ['date', 'runs', 'distance_m', 'seconds', 'effort_seconds', 'unrated_seconds', 'unrated_runs'];

/** A runner's days with runs in a range, packed into one text (db/packed.ts): a whole history is one row. */
type DayRange = { userId: number; from: string; to: string };

/** A runner's days with runs in a date range (inclusive). */
const daysIn = (db: Executor, param: ParamOf<DayRange>) =>
  db
    .selectFrom('runner_days')
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('runs', '>', 0);

const daysBetween = compiled<DayRange>()((db, param) =>
  daysIn(db, param).select(packedColumns(db, DAY_COLUMNS).as('days')),
);

/** A runner's days with runs between two dates (inclusive), oldest first. */
export async function listDays(db: Executor, userId: number, from: string, to: string): Promise<RunnerDay[]> {
  const [row] = await daysBetween(db, { userId, from, to });
  const days = unpack(row?.days).map(
    ([date, runs, distanceM, seconds, effortSeconds, unratedSeconds, unratedRuns]) => ({
      date: date!,
      runs: Number(runs),
      distanceM: Number(distanceM),
      seconds: Number(seconds),
      effortSeconds: Number(effortSeconds),
      unratedSeconds: Number(unratedSeconds),
      unratedRuns: Number(unratedRuns),
    }),
  );
  return inOrder(days, (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

const runDates = compiled<{ userId: number; to: string }>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select(packedColumns(db, ['date']).as('dates'))
    .where('user_id', '=', param('userId'))
    .where('date', '<=', param('to'))
    .where('runs', '>', 0),
);

/** The dates on which a runner ran, up to a date, oldest first. */
export async function listRunDates(db: Executor, userId: number, to: string): Promise<string[]> {
  const [row] = await runDates(db, { userId, to });
  return row?.dates ? inOrder(row.dates.split(';'), (a, b) => (a < b ? -1 : a > b ? 1 : 0)) : [];
}

const runsBetween = compiled<{ userId: number; from: string; to: string; minMetres: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .select(packedColumns(db, ['id', 'date', 'distance_m', 'seconds']).as('runs'))
    .where('user_id', '=', param('userId'))
    .where(shown('staged'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('distance_m', '>=', param('minMetres')),
);

/** A runner's runs of at least `minMetres` between two dates (inclusive), in (date, id) order. */
export async function listRuns(db: Executor, userId: number, from: string, to: string, minMetres = 0): Promise<Run[]> {
  const [row] = await runsBetween(db, { userId, from, to, minMetres });
  const runs = unpack(row?.runs).map(([id, date, distanceM, seconds]) => ({
    id: Number(id),
    date: date!,
    distanceM: Number(distanceM),
    seconds: Number(seconds),
  }));
  return inOrder(runs, (a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
}

const dayLoads = compiled<DayRange>()((db, param) =>
  daysIn(db, param).select(
    packedColumns(db, ['date', `(effort_seconds + ${ASSUMED_EFFORT} * unrated_seconds)`]).as('days'),
  ),
);

/**
 * Only the load (effort x seconds, unrated runs at the assumed effort) of a runner's days with runs
 * between two dates: the long history behind fitness and fatigue, in as few bytes as it takes.
 */
export async function listDayLoads(db: Executor, userId: number, from: string, to: string): Promise<RunnerDay[]> {
  const [row] = await dayLoads(db, { userId, from, to });
  return unpack(row?.days).map(([date, effortSeconds]) => ({
    date: date!,
    runs: 1,
    distanceM: 0,
    seconds: 0,
    effortSeconds: Number(effortSeconds),
    unratedSeconds: 0,
    unratedRuns: 0,
  }));
}

const totalsBetween = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select((eb) => [
      eb.fn.sum<number>('runs').as('runs'),
      eb.fn.sum<number>('distance_m').as('distance_m'),
      eb.fn.sum<number>('seconds').as('seconds'),
    ])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to')),
);

/** A runner's runs, metres and seconds between two dates (inclusive). */
export async function totals(
  db: Executor,
  userId: number,
  from: string,
  to: string,
): Promise<{ runs: number; distanceM: number; seconds: number }> {
  const [row] = await totalsBetween(db, { userId, from, to });
  return { runs: Number(row?.runs ?? 0), distanceM: Number(row?.distance_m ?? 0), seconds: Number(row?.seconds ?? 0) };
}

const heartRateRuns = compiled<{ userId: number; to: string }>()((db, param) =>
  db
    .selectFrom('entries as e')
    .innerJoin('tracks as t', 't.entry_id', 'e.id')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .select([
      'e.date',
      'e.seconds',
      't.hr_summary',
      'u.max_heart_rate as profile_max',
      sql<number | null>`(select max(x.max_heart_rate) from tracks x inner join entries y on y.id = x.entry_id
        where x.user_id = e.user_id and ${shown('y.staged')})`.as('observed_max'),
    ])
    .where('e.user_id', '=', param('userId'))
    .where(shown('e.staged'))
    .where('e.date', '<=', param('to'))
    .where('e.effort', 'is', null)
    .where('t.hr_summary', 'is not', null),
);

/**
 * A runner's runs up to a date without an entered effort whose track has heart rate (§15), with
 * what their estimate needs: the heart-rate summary, and the runner's maximum heart rate, set
 * (profile) and observed (the highest of their tracks).
 */
export async function listHeartRateRuns(db: Executor, userId: number, to: string) {
  return (await heartRateRuns(db, { userId, to })).map((r) => ({
    date: r.date,
    seconds: Number(r.seconds),
    summary: JSON.parse(r.hr_summary!) as HeartRateSummary,
    profileMax: r.profile_max === null ? null : Number(r.profile_max),
    observedMax: r.observed_max === null ? null : Number(r.observed_max),
  }));
}

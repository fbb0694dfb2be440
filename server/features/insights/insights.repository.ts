/**
 * SQL of insights: a runner's counting runs (runner_efforts), days (runner_days) and runs of a date
 * range, each read from an index that starts with the runner, so that nobody else's data is read.
 */
import type { Effort, Run, RunnerDay } from '../../../core/insights.js';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';

const effortsOf = compiled<{ userId: number }>()((db, param) =>
  db
    .selectFrom('runner_efforts')
    .select(['key', 'entry_id', 'date', 'distance_m', 'seconds'])
    .where('user_id', '=', param('userId'))
    .orderBy('date')
    .orderBy('entry_id'),
);

/** Every run of a runner that counts for a standard distance, in (date, id) order. */
export async function listEfforts(db: Executor, userId: number): Promise<Effort[]> {
  const rows = await effortsOf(db, { userId });
  return rows.map((r) => ({
    key: r.key,
    entryId: Number(r.entry_id),
    date: r.date,
    distanceM: Number(r.distance_m),
    seconds: Number(r.seconds),
  }));
}

const daysBetween = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select(['date', 'runs', 'distance_m', 'seconds', 'effort_seconds', 'unrated_seconds', 'unrated_runs'])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('runs', '>', 0)
    .orderBy('date'),
);

/** A runner's days with runs between two dates (inclusive), oldest first. */
export async function listDays(db: Executor, userId: number, from: string, to: string): Promise<RunnerDay[]> {
  const rows = await daysBetween(db, { userId, from, to });
  return rows.map((r) => ({
    date: r.date,
    runs: Number(r.runs),
    distanceM: Number(r.distance_m),
    seconds: Number(r.seconds),
    effortSeconds: Number(r.effort_seconds),
    unratedSeconds: Number(r.unrated_seconds),
    unratedRuns: Number(r.unrated_runs),
  }));
}

const runDates = compiled<{ userId: number; to: string }>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select('date')
    .where('user_id', '=', param('userId'))
    .where('date', '<=', param('to'))
    .where('runs', '>', 0)
    .orderBy('date'),
);

/** The dates on which a runner ran, up to a date, oldest first. */
export async function listRunDates(db: Executor, userId: number, to: string): Promise<string[]> {
  return (await runDates(db, { userId, to })).map((r) => r.date);
}

const runsBetween = compiled<{ userId: number; from: string; to: string; minMetres: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .select(['id', 'date', 'distance_m', 'seconds'])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('distance_m', '>=', param('minMetres'))
    .orderBy('date')
    .orderBy('id'),
);

/** A runner's runs of at least `minMetres` between two dates (inclusive), in (date, id) order. */
export async function listRuns(db: Executor, userId: number, from: string, to: string, minMetres = 0): Promise<Run[]> {
  const rows = await runsBetween(db, { userId, from, to, minMetres });
  return rows.map((r) => ({
    id: Number(r.id),
    date: r.date,
    distanceM: Number(r.distance_m),
    seconds: Number(r.seconds),
  }));
}

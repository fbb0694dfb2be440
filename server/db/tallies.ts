/**
 * Tallies: the numbers derived from runs, kept so that no page or insight counts a runner's
 * history or everyone's runs. This file is their one owner (docs/decisions/023): the services
 * that write runs call it in the same transaction, so a write and its tallies commit together;
 * nothing is kept by a trigger. The tables:
 *
 * - `runner_days`: each runner's runs per day (count, metres, seconds, and the load's sums);
 * - `entry_days`: everyone's runs per day (the seek of a page of everyone's runs);
 * - `runner_efforts`: what counts for records at each standard distance (CONTRACT.md §10, §15):
 *   a run as a whole, or the best efforts of a tracked run with distances;
 * - `insight_revisions`: each user's answer revision, which moves with every write that changes
 *   what one of their kept answers shows (moveAnswerRevision; the answer cache, decision 034);
 * - `users.entry_count`: each runner's runs;
 * - `user_days`: the accounts created on each UTC day (the users list's pages, decision 029).
 *
 * On PostgreSQL, writers take their locks in one order, so two of them never wait for each other
 * in a circle: the runners' rows first (in id order), then their own tallies, and everyone's days
 * last, in date order, then the one day of sign-ups an account's creation or deletion moves. A long write (an import) holds everyone's days only from its end to its
 * commit (RunTally.finish): another runner's write never waits behind a whole import.
 */
import { sql, type Insertable } from 'kysely';
import { STANDARD_DISTANCES, countingDistance, countingMetres } from '../../core/insights.js';
import type { Executor, RunnerDaysTable, RunnerEffortsTable } from './schema.js';
import { shown } from './staged.js';

/** A best effort of a run's track (§14): its standard distance, elapsed milliseconds, and start (m). */
export interface TrackEffort {
  key: string;
  ms: number;
  start: number;
}

/** What a run's tallies depend on. */
export interface RunFacts {
  id: number;
  userId: number;
  date: string;
  distanceM: number;
  seconds: number;
  effort: number | null;
  /**
   * The best efforts of the run's track, when it has one with distances (§15: the run then counts
   * for records through them alone); null when it has none; undefined when not known to the
   * caller (they are read from the run's track).
   */
  efforts?: readonly TrackEffort[] | null;
}

type EffortRow = Insertable<RunnerEffortsTable>;

/** The rows of runner_efforts of a run (§10 as a whole, §15 through its track's best efforts). */
function effortRows(run: RunFacts, efforts: readonly TrackEffort[] | null): EffortRow[] {
  if (efforts) {
    return efforts.map((e) => ({
      entry_id: run.id,
      user_id: run.userId,
      key: e.key,
      date: run.date,
      distance_m: run.distanceM,
      seconds: Math.round(e.ms / 1000),
      source: 'best_effort',
      start_m: e.start,
    }));
  }
  const d = countingDistance(run.distanceM);
  return d
    ? [
        {
          entry_id: run.id,
          user_id: run.userId,
          key: d.key,
          date: run.date,
          distance_m: run.distanceM,
          seconds: run.seconds,
          source: 'run',
          start_m: null,
        },
      ]
    : [];
}

/** The best efforts of the tracks of `ids` that have distances (tracks without: absent). */
async function trackEfforts(db: Executor, ids: number[]): Promise<Map<number, TrackEffort[]>> {
  const found = new Map<number, TrackEffort[]>();
  for (let at = 0; at < ids.length; at += ROWS_PER_STATEMENT) {
    const rows = await db
      .selectFrom('tracks')
      .select(['entry_id', 'efforts'])
      .where('entry_id', 'in', ids.slice(at, at + ROWS_PER_STATEMENT))
      .where('efforts', 'is not', null)
      .execute();
    for (const row of rows) found.set(Number(row.entry_id), JSON.parse(row.efforts!) as TrackEffort[]);
  }
  return found;
}

/** The most rows of one multi-row statement (8 values each, well under either database's limit). */
const ROWS_PER_STATEMENT = 500;

const inChunks = async <T>(rows: T[], write: (chunk: T[]) => Promise<unknown>) => {
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) await write(rows.slice(at, at + ROWS_PER_STATEMENT));
};

/** What a write adds to one runner's day (negative for what it takes away). */
type DayDelta = RunnerDaysTable;

/**
 * The tallies of one transaction's writes of runs: `move` moves each runner's own tallies at once
 * and gathers everyone's days, which `finish` writes once, at the end of the transaction.
 */
export class RunTally {
  private readonly everyonesDays = new Map<string, number>();
  /** Each runner's own tallies not yet written: their run counts and their days. */
  private readonly counts = new Map<number, number>();
  private readonly days = new Map<string, DayDelta>();

  /**
   * `deferOwn`: the runners' own tallies are gathered too and written by `finish` (an import of
   * one locked runner: a few statements for the whole import instead of a few a batch).
   * `staged`: the runs moved are an import's still staged (decision 037); their rows of
   * runner_efforts carry its mark, and their tallies are all deferred to `finish`.
   */
  constructor(
    private db: Executor,
    private readonly options: { deferOwn?: boolean; staged?: number } = {},
  ) {}

  /** Where the next statements go: each batch of a staged import is a transaction of its own. */
  writeOn(db: Executor): void {
    this.db = db;
  }

  async move(added: readonly RunFacts[], removed: readonly RunFacts[]): Promise<void> {
    if (added.length === 0 && removed.length === 0) return;
    const tally = (run: RunFacts, sign: 1 | -1) => {
      this.counts.set(run.userId, (this.counts.get(run.userId) ?? 0) + sign);
      this.everyonesDays.set(run.date, (this.everyonesDays.get(run.date) ?? 0) + sign);
      const key = `${run.userId}/${run.date}`;
      let day = this.days.get(key);
      if (!day) {
        day = {
          user_id: run.userId,
          date: run.date,
          runs: 0,
          distance_m: 0,
          seconds: 0,
          effort_seconds: 0,
          unrated_seconds: 0,
          unrated_runs: 0,
        };
        this.days.set(key, day);
      }
      day.runs += sign;
      day.distance_m += sign * run.distanceM;
      day.seconds += sign * run.seconds;
      if (run.effort === null) {
        day.unrated_seconds += sign * run.seconds;
        day.unrated_runs += sign;
      } else {
        day.effort_seconds += sign * run.effort * run.seconds;
      }
    };
    for (const run of removed) tally(run, -1);
    for (const run of added) tally(run, 1);
    if (!this.options.deferOwn && this.options.staged === undefined) await this.writeOwn();
    await inChunks([...removed], (chunk) =>
      this.db
        .deleteFrom('runner_efforts')
        .where(
          'entry_id',
          'in',
          chunk.map((r) => r.id),
        )
        .execute(),
    );
    const unknown = added.filter((run) => run.efforts === undefined).map((run) => run.id);
    const ofTracks = unknown.length > 0 ? await trackEfforts(this.db, unknown) : new Map<number, TrackEffort[]>();
    const staged = this.options.staged ?? null;
    const counting = added.flatMap((run) =>
      effortRows(run, run.efforts === undefined ? (ofTracks.get(run.id) ?? null) : run.efforts).map((row) =>
        staged === null ? row : { ...row, staged },
      ),
    );
    await inChunks(counting, (chunk) => this.db.insertInto('runner_efforts').values(chunk).execute());
  }

  /** Writes the runners' own tallies gathered so far, and moves their revisions. */
  private async writeOwn(): Promise<void> {
    if (this.counts.size === 0) return;
    // The runners' rows first, in id order: a second writer of the same runner waits here.
    const runners = [...this.counts.keys()].sort((a, b) => a - b);
    for (const userId of runners) {
      await this.db
        .updateTable('users')
        .set((eb) => ({ entry_count: eb('entry_count', '+', this.counts.get(userId)!) }))
        .where('id', '=', userId)
        .execute();
    }
    const changed = [...this.days.values()]
      .filter((d) => d.runs !== 0 || d.distance_m !== 0 || d.seconds !== 0 || d.effort_seconds !== 0)
      .sort((a, b) => a.user_id - b.user_id || (a.date < b.date ? -1 : 1));
    this.counts.clear();
    this.days.clear();
    await inChunks(changed, (chunk) =>
      this.db
        .insertInto('runner_days')
        .values(chunk)
        .onConflict((oc) =>
          oc.columns(['user_id', 'date']).doUpdateSet((eb) => ({
            runs: eb('runner_days.runs', '+', eb.ref('excluded.runs')),
            distance_m: eb('runner_days.distance_m', '+', eb.ref('excluded.distance_m')),
            seconds: eb('runner_days.seconds', '+', eb.ref('excluded.seconds')),
            effort_seconds: eb('runner_days.effort_seconds', '+', eb.ref('excluded.effort_seconds')),
            unrated_seconds: eb('runner_days.unrated_seconds', '+', eb.ref('excluded.unrated_seconds')),
            unrated_runs: eb('runner_days.unrated_runs', '+', eb.ref('excluded.unrated_runs')),
          })),
        )
        .execute(),
    );
    await moveAnswerRevision(this.db, runners);
  }

  /** Takes a runner's runs out of everyone's days before the runner is deleted (their own tallies go with them). */
  async forgetRunner(userId: number): Promise<void> {
    const days = await this.db
      .selectFrom('runner_days')
      .select(['date', 'runs'])
      .where('user_id', '=', userId)
      .where('runs', '<>', 0)
      .execute();
    for (const day of days)
      this.everyonesDays.set(day.date, (this.everyonesDays.get(day.date) ?? 0) - Number(day.runs));
  }

  /**
   * Writes the runners' own tallies still gathered, then everyone's days, in date order: last in
   * the transaction, so held until its commit only.
   */
  async finish(): Promise<void> {
    await this.writeOwn();
    const days = [...this.everyonesDays]
      .filter(([, n]) => n !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, n]) => ({ date, n }));
    this.everyonesDays.clear();
    await inChunks(days, (chunk) =>
      this.db
        .insertInto('entry_days')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('date').doUpdateSet((eb) => ({ n: eb('entry_days.n', '+', eb.ref('excluded.n')) })),
        )
        .execute(),
    );
  }
}

/**
 * Moves the answer revision of users (http/answer-cache.ts, decision 034), on `db`: the transaction
 * of a write that changes what one of their kept answers shows. The one function that moves it:
 * RunTally for every write of runs and tracks it counts, a shoe's deletion (it clears its runs'
 * shoe), a goal's creation, change, deletion or import, a new maximum heart rate (zones, estimated
 * efforts). A new revision is seen by the next request's session, in every process on the database.
 */
export async function moveAnswerRevision(db: Executor, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('insight_revisions')
    .values(userIds.map((userId) => ({ user_id: userId, revision: 1 })))
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ revision: eb('insight_revisions.revision', '+', 1) })),
    )
    .execute();
}

/**
 * A runner's answer revision as it is now (0 before any write). Answers take theirs from the
 * session; this is for a writer that decided something outside its transaction (an import's
 * duplicate test) and checks, inside it, that nothing of the runner moved since.
 */
export async function revisionNow(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('insight_revisions')
    .select('revision')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** The tallies of a few runs written at once (a run created, edited or deleted). */
export async function countRuns(db: Executor, added: readonly RunFacts[], removed: readonly RunFacts[]): Promise<void> {
  const tally = new RunTally(db);
  await tally.move(added, removed);
  await tally.finish();
}

/**
 * An account created (+1) or deleted (-1), on the day of its `created_at`: after everything else
 * its transaction writes (see the lock order above).
 */
export async function countSignUp(db: Executor, createdAt: string, change: 1 | -1): Promise<void> {
  await db
    .insertInto('user_days')
    .values({ day: createdAt.slice(0, 10), n: change })
    .onConflict((oc) => oc.column('day').doUpdateSet((eb) => ({ n: eb('user_days.n', '+', change) })))
    .execute();
}

/** Everyone's days and sign-up days back to nothing (the demo reset, which deletes every account and so every runner's own tallies). */
export async function clearEveryonesDays(db: Executor): Promise<void> {
  await db.deleteFrom('entry_days').execute();
  await db.deleteFrom('user_days').execute();
}

/** The standard distance a run (`entries` row `e`) counts for, in SQL: the bounds of countingMetres. */
const countingKeySql = sql.raw(
  `case ${STANDARD_DISTANCES.map((d) => {
    const { min, max } = countingMetres(d);
    return `when e.distance_m between ${min} and ${max} then '${d.key}'`;
  }).join(' ')} end`,
);

/**
 * Every tally recomputed from the runs, in one transaction of the caller: what the seed runs after
 * writing its rows, and the repair command (`npm run tallies:rebuild`) for a database whose
 * tallies went wrong (a row written by hand).
 */
export async function rebuildTallies(db: Executor): Promise<void> {
  await db.deleteFrom('user_days').execute();
  await sql`insert into user_days (day, n) select substr(created_at, 1, 10), count(*) from users
    group by substr(created_at, 1, 10)`.execute(db);
  await db.deleteFrom('entry_days').execute();
  await sql`insert into entry_days (date, n) select date, count(*) from entries where ${shown('staged')} group by date`.execute(
    db,
  );
  await db.deleteFrom('runner_days').execute();
  await sql`insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
    select user_id, date, count(*), sum(distance_m), sum(seconds), sum(coalesce(effort, 0) * seconds),
      sum(case when effort is null then seconds else 0 end), sum(case when effort is null then 1 else 0 end)
    from entries where ${shown('staged')} group by user_id, date`.execute(db);
  // Rows of runs an import still stages stay theirs (decision 037).
  await db.deleteFrom('runner_efforts').where(shown('staged')).execute();
  await sql`insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds, source)
    select e.id, e.user_id, ${countingKeySql}, e.date, e.distance_m, e.seconds, 'run'
    from entries e where ${countingKeySql} is not null and ${shown('e.staged')}
      and not exists (select 1 from tracks t where t.entry_id = e.id and t.efforts is not null)`.execute(db);
  // §15: a tracked run with distances counts through its best efforts (a few hundred bytes a track, read in pages).
  for (let after = 0; ;) {
    const tracked = await db
      .selectFrom('tracks as t')
      .innerJoin('entries as e', 'e.id', 't.entry_id')
      .select(['e.id', 'e.user_id', 'e.date', 'e.distance_m', 'e.seconds', 'e.effort', 't.efforts'])
      .where('t.efforts', 'is not', null)
      .where(shown('e.staged'))
      .where('e.id', '>', after)
      .orderBy('e.id')
      .limit(ROWS_PER_STATEMENT)
      .execute();
    if (tracked.length === 0) break;
    const rows = tracked.flatMap((r) =>
      effortRows(
        {
          id: Number(r.id),
          userId: Number(r.user_id),
          date: r.date,
          distanceM: Number(r.distance_m),
          seconds: Number(r.seconds),
          effort: r.effort,
        },
        JSON.parse(r.efforts!) as TrackEffort[],
      ),
    );
    await inChunks(rows, (chunk) => db.insertInto('runner_efforts').values(chunk).execute());
    after = Number(tracked.at(-1)!.id);
  }
  await sql`update users set entry_count = coalesce((select sum(d.runs) from runner_days d where d.user_id = users.id), 0)`.execute(
    db,
  );
  // Every answer kept for a user (decision 034) is computed again.
  await sql`insert into insight_revisions (user_id, revision) select id, 1 from users where true
    on conflict (user_id) do update set revision = insight_revisions.revision + 1`.execute(db);
}

/**
 * SQL of imports: the runner's stored runs an import is compared with (the duplicate test), the
 * page cache of the connection that stores them (SQLite), and the rows of staged imports
 * (decision 037).
 */
import { sql } from 'kysely';
import { isSqlite, type Executor } from '../../db/schema.js';
import { shown } from '../../db/staged.js';

export interface StoredRun {
  date: string;
  distanceM: number;
  seconds: number;
}

/** Dates asked at once: a fixed number (the last repeated), so that the statement's text is always the same. */
export const DATES_PER_QUERY = 64;

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/** A stored run as an import compares with it: and whether it has a track (§13: one without is matched first). */
export type StoredMatch = StoredRun & { id: number; hasTrack: boolean };

type RunRow = {
  id: number | bigint;
  date: string;
  distance_m: number | bigint;
  seconds: number | bigint;
  has_track: number | bigint;
};
const storedRun = (row: RunRow): StoredMatch => ({
  id: Number(row.id),
  date: row.date,
  distanceM: Number(row.distance_m),
  seconds: Number(row.seconds),
  hasTrack: Number(row.has_track) === 1,
});

/**
 * The runner's runs dated on any of `dates`, by date then id: in one query of the range they
 * span when they lie close together (an export in date order), else by lists of dates.
 */
export async function storedRunsOn(db: Executor, userId: number, dates: readonly string[]): Promise<StoredMatch[]> {
  const found: StoredMatch[] = [];
  if (dates.length === 0) return found;
  const sorted = [...dates].sort();
  const from = sorted[0]!;
  const to = sorted[sorted.length - 1]!;
  if (dayNumber(to) - dayNumber(from) <= 2 * dates.length + 7) {
    const wanted = new Set(dates);
    const rows = await db
      .selectFrom('entries')
      .select(['id', 'date', 'distance_m', 'seconds', 'has_track'])
      .where('user_id', '=', userId)
      .where(shown('staged'))
      .where('date', '>=', from)
      .where('date', '<=', to)
      .orderBy('date')
      .orderBy('id')
      .execute();
    for (const row of rows) if (wanted.has(row.date)) found.push(storedRun(row));
    return found;
  }
  for (let at = 0; at < dates.length; at += DATES_PER_QUERY) {
    const some = dates.slice(at, at + DATES_PER_QUERY);
    while (some.length < DATES_PER_QUERY) some.push(some[some.length - 1]!);
    const rows = await db
      .selectFrom('entries')
      .select(['id', 'date', 'distance_m', 'seconds', 'has_track'])
      .where('user_id', '=', userId)
      .where(shown('staged'))
      .where('date', 'in', some)
      .orderBy('date')
      .orderBy('id')
      .execute();
    for (const row of rows) found.push(storedRun(row));
  }
  return found;
}

/** SQLite runs every statement synchronously, on the event loop; PostgreSQL's wait on the network. */
export const storesOnEventLoop: (db: Executor) => boolean = isSqlite;

/**
 * SQLite: while an import stores its runs, the page cache of its connection (`cache_size`, which
 * db/sqlite.ts sets for reads) is held to `kib` KiB. A transaction of many new rows would
 * otherwise fill the whole cache with pages only it writes, and the process's memory would grow
 * by that much; past `kib`, SQLite writes pages to the WAL before the commit. Answers a function
 * that gives the connection its own cache size back. Nothing on PostgreSQL.
 */
export async function holdPageCache(db: Executor, kib: number): Promise<() => Promise<void>> {
  if (!storesOnEventLoop(db)) return async () => undefined;
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  const own = Number(rows[0]?.cache_size ?? -2000);
  await sql.raw(`pragma cache_size = ${-Math.round(kib)}`).execute(db);
  return async () => {
    await sql.raw(`pragma cache_size = ${own}`).execute(db);
  };
}

/** Rows deleted or cleared per statement when an import's staged runs are undone or shown (each its own short transaction). */
const STAGED_ROWS_PER_STATEMENT = 2000;

/** A new staged import of a runner (decision 037): its id marks the runs it stores until it lands. */
export async function stageImport(db: Executor, userId: number, startedAt: string): Promise<number> {
  const row = await db
    .insertInto('staged_imports')
    .values({ user_id: userId, started_at: startedAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Shows every run of a staged import at once: one statement, in the import's last transaction. */
export async function landStaged(trx: Executor, staged: number): Promise<void> {
  await trx.deleteFrom('staged_imports').where('id', '=', staged).execute();
}

/**
 * One slice of the rows of a staged import, `table` `entries` or `runner_efforts`: `cleared`
 * takes the mark off shown rows (an import landed), `deleted` deletes them (an import undone;
 * a run's track and original go with it). Answers how many rows it touched: 0 when none is left.
 */
export async function stagedSlice(
  db: Executor,
  table: 'entries' | 'runner_efforts',
  staged: number,
  action: 'cleared' | 'deleted',
): Promise<number> {
  // A row's key (a run's id; an effort's run and distance), the slice read from the partial index on `staged`.
  const key = table === 'entries' ? sql`id` : sql`(entry_id, key)`;
  const some = sql`select ${table === 'entries' ? sql`id` : sql`entry_id, key`}
    from ${sql.table(table)} where staged = ${staged} limit ${STAGED_ROWS_PER_STATEMENT}`;
  const result =
    action === 'cleared'
      ? await sql`update ${sql.table(table)} set staged = null where ${key} in (${some})`.execute(db)
      : await sql`delete from ${sql.table(table)} where ${key} in (${some})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Imports that never landed: their runner's, or (no runner) every one, such as after a stop mid-import. */
export async function stagedImports(db: Executor, userId?: number): Promise<number[]> {
  let query = db.selectFrom('staged_imports').select('id');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return (await query.execute()).map((row) => Number(row.id));
}

/** The row of a staged import whose runs are all deleted. */
export async function forgetStaged(db: Executor, staged: number): Promise<void> {
  await db.deleteFrom('staged_imports').where('id', '=', staged).execute();
}

/** Imports whose runs were shown but some still carry their mark (a stop before it was cleared). */
export async function markedImports(db: Executor): Promise<number[]> {
  const rows = await sql<{ staged: number }>`select distinct staged from entries where staged is not null
    union select distinct staged from runner_efforts where staged is not null`.execute(db);
  return rows.rows.map((row) => Number(row.staged));
}

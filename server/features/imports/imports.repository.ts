/**
 * SQL of imports: the runner's stored runs an import is compared with (the duplicate test), and
 * the page cache of the connection that stores them (SQLite).
 */
import { sql } from 'kysely';
import { isSqlite, type Executor } from '../../db/schema.js';

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

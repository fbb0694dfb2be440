/** SQL for time entries. Distances are stored in metres and durations in seconds. */
import { sql, type Kysely, type Selectable } from 'kysely';
import { formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import type { Entry, EntryWithUser } from '../../../core/schemas.js';
import { prepared } from '../../db/prepared.js';
import type { Database, EntriesTable } from '../../db/schema.js';
import { SEEK_FROM, countRunsBetween, ownRunMonths, seekIn, seekRunDay } from '../system/buckets.repository.js';
import { adjustCounter } from '../system/counters.repository.js';
import { adjustEntryCount } from '../users/users.repository.js';

type Executor = Kysely<Database>;
type EntryRow = Selectable<EntriesTable>;

export interface EntryValues {
  date: string;
  distanceKm: number;
  seconds: number;
}

export function toEntry(row: EntryRow): Entry {
  const distanceKm = Number(row.distance_m) / 1000;
  const seconds = Number(row.seconds);
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    date: row.date,
    distance: distanceKm,
    time: formatDuration(seconds),
    speed: round2(speedKmh(distanceKm, seconds)),
    pace: round2(paceMinPerKm(distanceKm, seconds)),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toEntryWithUser(row: EntryRow & { user_name: string }): EntryWithUser {
  return { ...toEntry(row), user: { id: Number(row.user_id), name: row.user_name } };
}

function columns(values: EntryValues) {
  const distance_m = Math.round(values.distanceKm * 1000);
  // One division of two exact integers: equal speeds are equal floats, so ties stay ties.
  const speed = (distance_m * 36) / (values.seconds * 10);
  return { date: values.date, distance_m, seconds: values.seconds, speed };
}

export async function insertEntry(db: Executor, userId: number, values: EntryValues, nowIso: string): Promise<Entry> {
  const row = await db
    .insertInto('entries')
    .values({ user_id: userId, ...columns(values), created_at: nowIso, updated_at: nowIso })
    .returningAll()
    .executeTakeFirstOrThrow();
  await adjustEntryCount(db, userId, 1);
  await adjustCounter(db, 'entries', 1);
  return toEntry(row);
}

export async function findEntryById(db: Executor, id: number): Promise<Entry | null> {
  const row = await db.selectFrom('entries').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toEntry(row) : null;
}

export async function updateEntry(
  db: Executor,
  id: number,
  values: EntryValues,
  nowIso: string,
): Promise<Entry | null> {
  const row = await db
    .updateTable('entries')
    .set({ ...columns(values), updated_at: nowIso })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toEntry(row) : null;
}

export async function deleteEntry(db: Executor, entry: Entry): Promise<boolean> {
  const result = await db.deleteFrom('entries').where('id', '=', entry.id).executeTakeFirst();
  const deleted = Number(result.numDeletedRows) === 1;
  if (deleted) {
    await adjustEntryCount(db, entry.user_id, -1);
    await adjustCounter(db, 'entries', -1);
  }
  return deleted;
}

export interface DateRange {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

const hasRange = (range: DateRange) => Boolean(range.dateFrom || range.dateTo);

export interface ListOptions extends DateRange {
  limit: number;
  offset: number;
  /** The total without a date range (users.entry_count or the entries counter). */
  knownTotal: number;
  /** Offsets from here on start at their bucket instead of skipping row by row. */
  seekFrom?: number;
}

/**
 * A runner's own runs, date desc then id desc, from the (user_id, date) index. The total
 * within a date range comes from their month buckets (plus an exact count of the two
 * months cut by the range), and a deep page starts at its month, so a page never reads
 * the rows it skips beyond one month's runs.
 */
export async function listEntriesForUser(
  db: Executor,
  userId: number,
  options: ListOptions,
): Promise<{ entries: Entry[]; total: number }> {
  const range = { from: options.dateFrom, to: options.dateTo };
  const deep = options.offset >= (options.seekFrom ?? SEEK_FROM);
  const months = deep || hasRange(options) ? await ownRunMonths(db, userId, range) : null;
  const total = hasRange(options) ? months!.reduce((sum, m) => sum + m.n, 0) : options.knownTotal;

  let offset = options.offset;
  let upTo = options.dateTo;
  if (deep) {
    const start = seekIn(months!, offset);
    if (!start) return { entries: [], total };
    offset -= start.before;
    const monthEnd = `${start.key}-31`;
    if (!upTo || monthEnd < upTo) upTo = monthEnd;
  }
  const rows = await ownPage(db, userId, options.dateFrom ?? FIRST_DATE, upTo ?? LAST_DATE, options.limit, offset);
  return { entries: rows.map(toEntry), total };
}

/** Bounds that every date lies within, for queries compiled once with a date range. */
const FIRST_DATE = '0000-00-00';
const LAST_DATE = '9999-99-99';

const ownPage = prepared(
  [-1_000_001, '\u0000from', '\u0000to', -1_000_002, -1_000_003],
  (db, userId: number, from: string, to: string, limit: number, offset: number) =>
    db
      .selectFrom('entries')
      .selectAll()
      .where('user_id', '=', userId)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset),
);

/** Everyone's order: date desc, distance desc, id desc. */
function compareAll(a: EntryRow, b: EntryRow): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.distance_m !== b.distance_m) return Number(b.distance_m) - Number(a.distance_m);
  return Number(b.id) - Number(a.id);
}

/**
 * Everyone's runs. The page's ids come from the (date, distance_m, id) index alone (rows
 * skipped there cost an index step, not a row and a user); a deep page starts at its day,
 * found from the day buckets; totals within a range are sums of day buckets.
 */
export async function listAllEntries(
  db: Executor,
  options: ListOptions,
): Promise<{ entries: EntryWithUser[]; total: number }> {
  const range = { from: options.dateFrom, to: options.dateTo };
  const total = hasRange(options) ? await countRunsBetween(db, range) : options.knownTotal;

  let offset = options.offset;
  let upTo = options.dateTo;
  if (offset >= (options.seekFrom ?? SEEK_FROM)) {
    const start = await seekRunDay(db, range, offset);
    if (!start) return { entries: [], total };
    offset -= start.before;
    upTo = start.key;
  }
  const rows = await allPage(db, options.dateFrom ?? FIRST_DATE, upTo ?? LAST_DATE, options.limit, offset);
  return { entries: rows.sort(compareAll).map(toEntryWithUser), total };
}

const allPage = prepared(
  ['\u0000from', '\u0000to', -1_000_001, -1_000_002],
  (db, from: string, to: string, limit: number, offset: number) => {
    const page = db
      .selectFrom('entries')
      .select('entries.id')
      .where('entries.date', '>=', from)
      .where('entries.date', '<=', to)
      .orderBy('entries.date', 'desc')
      .orderBy('entries.distance_m', 'desc')
      .orderBy('entries.id', 'desc')
      .limit(limit)
      .offset(offset);
    return db
      .selectFrom(page.as('page'))
      .innerJoin('entries', 'entries.id', 'page.id')
      .innerJoin('users', 'users.id', 'entries.user_id')
      .selectAll('entries')
      .select('users.name as user_name');
  },
);

/**
 * A user's runs between two dates, in the order of the (user_id, date, id) index. Days are
 * summed below: SQLite's GROUP BY costs more per row than the adding it does.
 */
const runsBetween = prepared([-1_000_001, '\u0000from', '\u0000to'], (db, userId: number, from: string, to: string) =>
  db
    .selectFrom('entries')
    .select(['date', 'distance_m', 'seconds'])
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date', 'asc')
    .orderBy('id', 'asc'),
);

export interface DayTotals {
  date: string;
  count: number;
  distanceKm: number;
  seconds: number;
}

/** Per-day totals of a user's runs between two dates (inclusive), oldest first. */
export async function dailyTotals(db: Executor, userId: number, from: string, to: string): Promise<DayTotals[]> {
  const rows = await runsBetween(db, userId, from, to);
  const days: DayTotals[] = [];
  let day: DayTotals | undefined;
  let metres = 0;
  for (const row of rows) {
    if (day?.date !== row.date) {
      if (day) day.distanceKm = metres / 1000;
      day = { date: row.date, count: 0, distanceKm: 0, seconds: 0 };
      days.push(day);
      metres = 0;
    }
    day.count += 1;
    metres += Number(row.distance_m);
    day.seconds += Number(row.seconds);
  }
  if (day) day.distanceKm = metres / 1000;
  return days;
}

/** One statement, each value read from the top of its own index. */
const bests = prepared([-1_000_001], (db, userId: number) => {
  const own = () => db.selectFrom('entries').where('user_id', '=', userId).limit(1);
  return db.selectNoFrom([
    own().select('distance_m').orderBy('speed', 'desc').as('fastest_distance_m'),
    own().select('seconds').orderBy('speed', 'desc').as('fastest_seconds'),
    own().select('distance_m').orderBy('distance_m', 'desc').as('max_distance_m'),
    own().select('seconds').orderBy('seconds', 'desc').as('max_seconds'),
  ]);
});

/** A user's best results. */
export async function personalBests(
  db: Executor,
  userId: number,
): Promise<{ maxSpeed: number | null; maxDistanceKm: number | null; maxSeconds: number | null }> {
  const [row] = await bests(db, userId);
  const present = (value: unknown) => value !== null && value !== undefined;
  return {
    maxSpeed:
      row && present(row.fastest_distance_m) && present(row.fastest_seconds)
        ? round2(speedKmh(Number(row.fastest_distance_m) / 1000, Number(row.fastest_seconds)))
        : null,
    maxDistanceKm: row && present(row.max_distance_m) ? Number(row.max_distance_m) / 1000 : null,
    maxSeconds: row && present(row.max_seconds) ? Number(row.max_seconds) : null,
  };
}

const span = prepared([-1_000_001], (db, userId: number) => {
  const own = () => db.selectFrom('entries').select('date').where('user_id', '=', userId).limit(1);
  return db.selectNoFrom([own().orderBy('date', 'asc').as('first'), own().orderBy('date', 'desc').as('last')]);
});

/** The first and last date of a user's runs. */
export async function dateSpan(db: Executor, userId: number): Promise<{ first: string; last: string } | null> {
  const [row] = await span(db, userId);
  return row?.first && row.last ? { first: row.first, last: row.last } : null;
}

type RecordKind = 'fastest' | 'longest';

/** Both record runs in one statement (one round trip on PostgreSQL), each the top of its index. */
const recordRows = prepared([], (db) => {
  const top = (kind: RecordKind, order: 'entries.speed' | 'entries.distance_m') =>
    db
      .selectFrom('entries')
      .innerJoin('users', 'users.id', 'entries.user_id')
      .selectAll('entries')
      .select(['users.name as user_name', sql<RecordKind>`${sql.lit(kind)}`.as('record')])
      .orderBy(order, 'desc')
      .orderBy('entries.id', 'asc')
      .limit(1);
  return db
    .selectFrom(top('fastest', 'entries.speed').as('fastest'))
    .selectAll()
    .unionAll(db.selectFrom(top('longest', 'entries.distance_m').as('longest')).selectAll());
});

/** The fastest and the longest run of everyone, ties to the lowest id (null without runs). */
export async function recordRuns(
  db: Executor,
): Promise<{ fastest: EntryWithUser | null; longest: EntryWithUser | null }> {
  const rows = await recordRows(db);
  const of = (kind: RecordKind) => {
    const row = rows.find((r) => r.record === kind);
    return row ? toEntryWithUser(row) : null;
  };
  return { fastest: of('fastest'), longest: of('longest') };
}

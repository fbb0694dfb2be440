/** SQL for time entries. Distances are stored in metres and durations in seconds. */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import type { Entry, EntryWithUser } from '../../../core/schemas.js';
import type { Database, EntriesTable } from '../../db/schema.js';
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

function inRange<O>(query: SelectQueryBuilder<Database, 'entries', O>, range: DateRange) {
  let q = query;
  if (range.dateFrom) q = q.where('entries.date', '>=', range.dateFrom);
  if (range.dateTo) q = q.where('entries.date', '<=', range.dateTo);
  return q;
}

const hasRange = (range: DateRange) => Boolean(range.dateFrom || range.dateTo);

export async function listEntriesForUser(
  db: Executor,
  userId: number,
  options: DateRange & { limit: number; offset: number; knownTotal: number },
): Promise<{ entries: Entry[]; total: number }> {
  const base = inRange(db.selectFrom('entries').where('user_id', '=', userId), options);
  const [rows, total] = await Promise.all([
    // The (user_id, date, id) index gives the order and the date range without a sort.
    base
      .selectAll()
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    hasRange(options)
      ? base
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n))
      : Promise.resolve(options.knownTotal),
  ]);
  return { entries: rows.map(toEntry), total };
}

export async function listAllEntries(
  db: Executor,
  options: DateRange & { limit: number; offset: number; knownTotal: number },
): Promise<{ entries: EntryWithUser[]; total: number }> {
  const [rows, total] = await Promise.all([
    inRange(db.selectFrom('entries'), options)
      .innerJoin('users', 'users.id', 'entries.user_id')
      .selectAll('entries')
      .select('users.name as user_name')
      .orderBy('entries.date', 'desc')
      .orderBy('entries.distance_m', 'desc')
      .orderBy('entries.id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    hasRange(options)
      ? inRange(db.selectFrom('entries'), options)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n))
      : Promise.resolve(options.knownTotal),
  ]);
  return { entries: rows.map(toEntryWithUser), total };
}

/** Per-day totals of a user's runs between two dates (inclusive), oldest first. */
export async function dailyTotals(
  db: Executor,
  userId: number,
  from: string,
  to: string,
): Promise<{ date: string; count: number; distanceKm: number; seconds: number }[]> {
  const rows = await db
    .selectFrom('entries')
    .select((eb) => [
      'date',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('distance_m').as('distance_m'),
      eb.fn.sum<number>('seconds').as('seconds'),
    ])
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .groupBy('date')
    .orderBy('date', 'asc')
    .execute();
  return rows.map((r) => ({
    date: r.date,
    count: Number(r.count),
    distanceKm: Number(r.distance_m) / 1000,
    seconds: Number(r.seconds),
  }));
}

/** A user's best results, each read from its own index. */
export async function personalBests(
  db: Executor,
  userId: number,
): Promise<{ maxSpeed: number | null; maxDistanceKm: number | null; maxSeconds: number | null }> {
  const own = db.selectFrom('entries').where('user_id', '=', userId);
  const [fastest, longest, longestTime] = await Promise.all([
    own.select(['distance_m', 'seconds']).orderBy('speed', 'desc').limit(1).executeTakeFirst(),
    own.select('distance_m').orderBy('distance_m', 'desc').limit(1).executeTakeFirst(),
    own.select('seconds').orderBy('seconds', 'desc').limit(1).executeTakeFirst(),
  ]);
  return {
    maxSpeed: fastest ? round2(speedKmh(Number(fastest.distance_m) / 1000, Number(fastest.seconds))) : null,
    maxDistanceKm: longest ? Number(longest.distance_m) / 1000 : null,
    maxSeconds: longestTime ? Number(longestTime.seconds) : null,
  };
}

/** The first and last date of a user's runs. */
export async function dateSpan(db: Executor, userId: number): Promise<{ first: string; last: string } | null> {
  const own = db.selectFrom('entries').select('date').where('user_id', '=', userId);
  const [first, last] = await Promise.all([
    own.orderBy('date', 'asc').limit(1).executeTakeFirst(),
    own.orderBy('date', 'desc').limit(1).executeTakeFirst(),
  ]);
  return first && last ? { first: first.date, last: last.date } : null;
}

/** The fastest or longest run of everyone, ties to the lowest id. */
export async function recordRun(db: Executor, kind: 'fastest' | 'longest'): Promise<EntryWithUser | null> {
  const row = await db
    .selectFrom('entries')
    .innerJoin('users', 'users.id', 'entries.user_id')
    .selectAll('entries')
    .select('users.name as user_name')
    .orderBy(kind === 'fastest' ? 'entries.speed' : 'entries.distance_m', 'desc')
    .orderBy('entries.id', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row ? toEntryWithUser(row) : null;
}

/**
 * Bucket counts (runs per day, runs per user and month, sign-ups per UTC day), kept by
 * triggers in the writing transaction (migrations.ts). They give totals over a range
 * and the start of a deep page without reading the rows before it: a page at offset k
 * is found by summing bucket counts, newest first, up to the bucket that holds row k,
 * and only the rows of that one bucket are skipped one by one.
 */
import { sql, type Kysely } from 'kysely';
import { addDays } from '../../../core/time.js';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';

type Executor = Kysely<Database>;

/** Offsets below this are skipped row by row: cheaper than reading buckets. */
export const SEEK_FROM = 300;

export interface Seek {
  /** The bucket that holds the first row of the page. */
  key: string;
  /** Rows (in range) that come before that bucket. */
  before: number;
}

/** The bucket holding row `offset` (0-based) of buckets listed newest first, or null past the end. */
export function seekIn(buckets: { key: string; n: number }[], offset: number): Seek | null {
  let before = 0;
  for (const bucket of buckets) {
    if (offset < before + bucket.n) return { key: bucket.key, before };
    before += bucket.n;
  }
  return null;
}

/** Bounds that every date (or month) lies within, for queries compiled once with a range. */
const FIRST = '0000-00-00';
const LAST = '9999-99-99';

const monthRows = prepared([-1_000_001, '\u0000from', '\u0000to'], (db, userId: number, from: string, to: string) =>
  db
    .selectFrom('entry_months')
    .select(['month', 'n'])
    .where('user_id', '=', userId)
    .where('month', '>=', from)
    .where('month', '<=', to)
    .where('n', '>', 0)
    .orderBy('month', 'desc'),
);
const ownRunsBetween = prepared(
  [-1_000_001, '\u0000from', '\u0000to'],
  (db, userId: number, from: string, to: string) =>
    db
      .selectFrom('entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('date', '>=', from)
      .where('date', '<=', to),
);

interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

const runsBetween = prepared(['\u0000from', '\u0000to'], (db, from: string, to: string) =>
  db
    .selectFrom('entry_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('date', '>=', from)
    .where('date', '<=', to),
);

/** Everyone's runs between two dates (inclusive), from the day buckets. */
export async function countRunsBetween(db: Executor, range: DayRange): Promise<number> {
  const [row] = await runsBetween(db, range.from ?? FIRST, range.to ?? LAST);
  return Number(row?.n ?? 0);
}

/** The day holding row `offset` of everyone's runs (newest day first) within a range. */
export async function seekRunDay(db: Executor, range: DayRange, offset: number): Promise<Seek | null> {
  const from = range.from ?? FIRST;
  const to = range.to ?? LAST;
  // A running sum over the day buckets, computed by the database; one row comes back.
  const result = await sql<{ date: string; before: number }>`
    select date, cum - n as before from (
      select date, n, sum(n) over (order by date desc rows between unbounded preceding and current row) as cum
      from entry_days where date >= ${from} and date <= ${to}
    ) t where cum > ${offset} order by date desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? { key: row.date, before: Number(row.before) } : null;
}

/**
 * A user's runs per month within a range, newest first; the months cut by the range's
 * ends are counted exactly from the runs themselves.
 */
export async function ownRunMonths(
  db: Executor,
  userId: number,
  range: DayRange,
): Promise<{ key: string; n: number }[]> {
  const fromMonth = range.from?.slice(0, 7);
  const toMonth = range.to?.slice(0, 7);
  const months = (await monthRows(db, userId, fromMonth ?? FIRST, toMonth ?? LAST)).map((r) => ({
    key: r.month,
    n: Number(r.n),
  }));
  const exact = async (month: string) => {
    const start = range.from && range.from > `${month}-01` ? range.from : `${month}-01`;
    const end = range.to && range.to < `${month}-31` ? range.to : `${month}-31`;
    const [row] = await ownRunsBetween(db, userId, start, end);
    return Number(row?.n ?? 0);
  };
  // A month is cut when the range starts after its first day or ends before its last.
  const cut = (month: string) =>
    (range.from?.slice(0, 7) === month && !range.from.endsWith('-01')) ||
    (range.to?.slice(0, 7) === month && !addDays(range.to, 1).endsWith('-01'));
  for (const edge of new Set([fromMonth, toMonth])) {
    const bucket = edge && cut(edge) ? months.find((m) => m.key === edge) : undefined;
    if (bucket) bucket.n = await exact(bucket.key);
  }
  return months.filter((m) => m.n > 0);
}

const dayStart = (day: string) => `${day}T00:00:00.000Z`;

const signupsFrom = prepared(['\u0000day'], (db, day: string) =>
  db
    .selectFrom('user_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('day', '>=', day),
);
const usersBetween = prepared(['\u0000from', '\u0000to'], (db, from: string, to: string) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', from)
    .where('created_at', '<', to),
);

/** Users created at or after an instant: whole days from the buckets, the first day from the index. */
export async function countUsersSince(db: Executor, sinceIso: string): Promise<number> {
  const nextDay = addDays(sinceIso.slice(0, 10), 1);
  const [[whole], [partial]] = await Promise.all([
    signupsFrom(db, nextDay),
    usersBetween(db, sinceIso, dayStart(nextDay)),
  ]);
  return Number(whole?.n ?? 0) + Number(partial?.n ?? 0);
}

/** The sign-up day holding row `offset` of the users list (newest first). */
export async function seekUserDay(db: Executor, offset: number): Promise<Seek | null> {
  const result = await sql<{ day: string; before: number }>`
    select day, cum - n as before from (
      select day, n, sum(n) over (order by day desc rows between unbounded preceding and current row) as cum
      from user_days
    ) t where cum > ${offset} order by day desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? { key: row.day, before: Number(row.before) } : null;
}

/** The first instant after a UTC day, as created_at strings are written. */
export const afterDay = (day: string) => dayStart(addDays(day, 1));

/** Users and runs in all, and users created since each of two instants, in one statement. */
const totalsSince = prepared(
  ['\u0000a', '\u0000b', '\u0000c', '\u0000d', '\u0000e', '\u0000f'],
  (db, aDay: string, aFrom: string, aTo: string, bDay: string, bFrom: string, bTo: string) => {
    const counter = (name: string) => db.selectFrom('counters').select('value').where('name', '=', name);
    const wholeDays = (day: string) =>
      db
        .selectFrom('user_days')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
        .where('day', '>=', day);
    const partialDay = (from: string, to: string) =>
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('created_at', '>=', from)
        .where('created_at', '<', to);
    return db.selectNoFrom([
      counter('users').as('users'),
      counter('entries').as('entries'),
      wholeDays(aDay).as('a_days'),
      partialDay(aFrom, aTo).as('a_partial'),
      wholeDays(bDay).as('b_days'),
      partialDay(bFrom, bTo).as('b_partial'),
    ]);
  },
);

/**
 * The admin dashboard's counts: users and runs from the counters, users created since
 * each instant from the sign-up buckets (whole days) and the index (the first, partial day).
 */
export async function totalsAndSignupsSince(
  db: Executor,
  sinceA: string,
  sinceB: string,
): Promise<{ users: number; entries: number; sinceA: number; sinceB: number }> {
  const args = (since: string) => {
    const nextDay = addDays(since.slice(0, 10), 1);
    return [nextDay, since, dayStart(nextDay)] as const;
  };
  const [row] = await totalsSince(db, ...args(sinceA), ...args(sinceB));
  return {
    users: Number(row?.users ?? 0),
    entries: Number(row?.entries ?? 0),
    sinceA: Number(row?.a_days ?? 0) + Number(row?.a_partial ?? 0),
    sinceB: Number(row?.b_days ?? 0) + Number(row?.b_partial ?? 0),
  };
}

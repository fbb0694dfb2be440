/**
 * Tallies: totals kept in step with their tables, so that no statistic counts a whole table
 * and no deep page reads the rows it skips. This file is their one owner.
 *
 * - `counters`: users and runs in all. Written by the services, visibly, inside the
 *   transaction of the write they count (adjustCounter).
 * - Buckets: runs per day (entry_days), runs per user and month (entry_months) and sign-ups
 *   per UTC day (user_days), kept by the triggers entries_buckets* and users_buckets* of
 *   migrations.ts (docs/decisions/010). A page at offset k is found by summing bucket
 *   counts, newest first, up to the bucket that holds row k; only the rows of that one
 *   bucket are then skipped one by one.
 */
import { sql, type RawBuilder } from 'kysely';
import { addDays } from '../../core/time.js';
import { compiled } from './compiled.js';
import type { Executor } from './schema.js';

export type CounterName = 'users' | 'entries';

/** Bounds that every date (and month) lies within, for queries compiled once with a range. */
export const FIRST_DATE = '0000-00-00';
export const LAST_DATE = '9999-99-99';

export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

/** Offsets below this are skipped row by row: cheaper than reading buckets. */
export const SEEK_FROM = 300;

export interface Seek {
  /** The bucket that holds the first row of the page. */
  key: string;
  /** Rows (in range) that come before that bucket. */
  before: number;
}

export async function adjustCounter(db: Executor, name: CounterName, delta: number): Promise<void> {
  await db
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', delta) }))
    .where('name', '=', name)
    .execute();
}

/** Every counter back to zero (the demo reset, which deletes every account). */
export async function resetCounters(db: Executor): Promise<void> {
  await db.updateTable('counters').set({ value: 0 }).execute();
}

const counterValue = (db: Executor, name: CounterName | RawBuilder<CounterName>) =>
  db.selectFrom('counters').select('value').where('name', '=', name);

const counterRow = compiled<{ name: CounterName }>()((db, param) => counterValue(db, param('name')));

export async function readCounter(db: Executor, name: CounterName): Promise<number> {
  const [row] = await counterRow(db, { name });
  return Number(row?.value ?? 0);
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

const monthRows = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entry_months')
    .select(['month', 'n'])
    .where('user_id', '=', param('userId'))
    .where('month', '>=', param('from'))
    .where('month', '<=', param('to'))
    .where('n', '>', 0)
    .orderBy('month', 'desc'),
);
const ownRunsBetween = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to')),
);

const runsBetween = compiled<{ from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entry_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to')),
);

/** Everyone's runs between two dates (inclusive), from the day buckets. */
export async function countRunsBetween(db: Executor, range: DayRange): Promise<number> {
  const [row] = await runsBetween(db, { from: range.from ?? FIRST_DATE, to: range.to ?? LAST_DATE });
  return Number(row?.n ?? 0);
}

/** The day holding row `offset` of everyone's runs (newest day first) within a range. */
export async function seekRunDay(db: Executor, range: DayRange, offset: number): Promise<Seek | null> {
  const from = range.from ?? FIRST_DATE;
  const to = range.to ?? LAST_DATE;
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
  const rows = await monthRows(db, { userId, from: fromMonth ?? FIRST_DATE, to: toMonth ?? LAST_DATE });
  const months = rows.map((r) => ({ key: r.month, n: Number(r.n) }));
  const exact = async (month: string) => {
    const start = range.from && range.from > `${month}-01` ? range.from : `${month}-01`;
    const end = range.to && range.to < `${month}-31` ? range.to : `${month}-31`;
    const [row] = await ownRunsBetween(db, { userId, from: start, to: end });
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
const totalsSince = compiled<{
  aDay: string;
  aFrom: string;
  aTo: string;
  bDay: string;
  bFrom: string;
  bTo: string;
}>()((db, param) => {
  const wholeDays = (day: RawBuilder<string>) =>
    db
      .selectFrom('user_days')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('day', '>=', day);
  const partialDay = (from: RawBuilder<string>, to: RawBuilder<string>) =>
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', from)
      .where('created_at', '<', to);
  return db.selectNoFrom([
    counterValue(db, 'users').as('users'),
    counterValue(db, 'entries').as('entries'),
    wholeDays(param('aDay')).as('a_days'),
    partialDay(param('aFrom'), param('aTo')).as('a_partial'),
    wholeDays(param('bDay')).as('b_days'),
    partialDay(param('bFrom'), param('bTo')).as('b_partial'),
  ]);
});

/**
 * The admin dashboard's counts: users and runs from the counters, users created since
 * each instant from the sign-up buckets (whole days) and the index (the first, partial day).
 */
export async function totalsAndSignupsSince(
  db: Executor,
  sinceA: string,
  sinceB: string,
): Promise<{ users: number; entries: number; sinceA: number; sinceB: number }> {
  const bounds = (since: string) => {
    const nextDay = addDays(since.slice(0, 10), 1);
    return { day: nextDay, from: since, to: dayStart(nextDay) };
  };
  const a = bounds(sinceA);
  const b = bounds(sinceB);
  const [row] = await totalsSince(db, {
    aDay: a.day,
    aFrom: a.from,
    aTo: a.to,
    bDay: b.day,
    bFrom: b.from,
    bTo: b.to,
  });
  return {
    users: Number(row?.users ?? 0),
    entries: Number(row?.entries ?? 0),
    sinceA: Number(row?.a_days ?? 0) + Number(row?.a_partial ?? 0),
    sinceB: Number(row?.b_days ?? 0) + Number(row?.b_partial ?? 0),
  };
}

/** A runner's totals of one month (`YYYY-MM`): runs, metres and seconds. */
export interface MonthTotals {
  month: string;
  runs: number;
  distanceM: number;
  seconds: number;
}

const monthTotalRows = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entry_months')
    .select(['month', 'n', 'distance_m', 'seconds'])
    .where('user_id', '=', param('userId'))
    .where('month', '>=', param('from'))
    .where('month', '<=', param('to'))
    .where('n', '>', 0)
    .orderBy('month'),
);

/** A runner's months with runs between two months (inclusive), oldest first, from the month buckets. */
export async function runnerMonthTotals(
  db: Executor,
  userId: number,
  fromMonth: string,
  toMonth: string,
): Promise<MonthTotals[]> {
  const rows = await monthTotalRows(db, { userId, from: fromMonth, to: toMonth });
  return rows.map((r) => ({
    month: r.month,
    runs: Number(r.n),
    distanceM: Number(r.distance_m),
    seconds: Number(r.seconds),
  }));
}

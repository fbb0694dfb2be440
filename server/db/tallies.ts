/**
 * Tallies: totals kept in step with their tables, so that no statistic counts a whole table
 * and no deep page reads the rows it skips. This file is their one owner.
 *
 * - `counters`: users and runs in all. Written by the services, visibly, inside the
 *   transaction of the write they count (adjustCounter).
 * - Buckets: runs per day (entry_days), per month (entry_all_months) and per day and
 *   kilometre (entry_blocks), runs per user and month (entry_months) and sign-ups per UTC
 *   day (user_days), kept by the triggers entries_buckets* and users_buckets* of
 *   migrations.ts (docs/decisions/010). A page at offset k is found by summing bucket
 *   counts, newest first, up to the bucket that holds row k; only the rows of that one
 *   bucket are then skipped one by one.
 */
import { sql, type RawBuilder } from 'kysely';
import { addDays } from '../../core/time.js';
import { compiled, type ParamOf } from './compiled.js';
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

/**
 * Everyone's runs in all (the counter) or between two dates (the day buckets), as a subquery:
 * a statement that answers a page can answer its total with it, in the same round trip.
 */
export function runsTotal(db: Executor, range: { from: RawBuilder<string>; to: RawBuilder<string> } | null) {
  if (!range) return counterValue(db, 'entries');
  return db
    .selectFrom('entry_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('date', '>=', range.from)
    .where('date', '<=', range.to);
}

/** Everyone's runs between two dates (inclusive), from the day buckets. */
export async function countRunsBetween(db: Executor, range: DayRange): Promise<number> {
  const [row] = await runsBetween(db, { from: range.from ?? FIRST_DATE, to: range.to ?? LAST_DATE });
  return Number(row?.n ?? 0);
}

/** Everyone's runs are also counted per day and whole kilometre of distance (entry_blocks). */
export const RUN_BLOCK_M = 1000;

/** Where row `offset` of everyone's runs (date desc, distance desc, id desc) falls. */
export interface RunSeek {
  /** The day of the block that holds the row. */
  date: string;
  /** The longest distance the block can hold: its rows come first within the day from here. */
  maxDistanceM: number;
  /** Rows of the range that come before the block. */
  before: number;
}

/** Whether a range starts after the first day of `month`, or ends before its last. */
function cutsMonth(range: DayRange, month: string): boolean {
  return (
    (range.from?.slice(0, 7) === month && !range.from.endsWith('-01')) ||
    (range.to?.slice(0, 7) === month && !addDays(range.to, 1).endsWith('-01'))
  );
}

/** The part of a range within one month. */
function withinMonth(range: DayRange, month: string): { from: string; to: string } {
  const first = `${month}-01`;
  const last = `${month}-31`;
  return {
    from: range.from && range.from > first ? range.from : first,
    to: range.to && range.to < last ? range.to : last,
  };
}

/** In SQL, the first day of a month within the range (`from`), or its last (`to`; `-31` bounds every month). */
const clip = (bound: 'from' | 'to', month: RawBuilder<string>, param: ParamOf<SeekArgs>) =>
  bound === 'from'
    ? sql<string>`(case when ${param('from')} > ${month} || '-01' then ${param('from')} else ${month} || '-01' end)`
    : sql<string>`(case when ${param('to')} < ${month} || '-31' then ${param('to')} else ${month} || '-31' end)`;

type SeekArgs = { from: string; to: string; fromMonth: string; toMonth: string; offset: number };

/**
 * One statement, three running sums over a few dozen rows each: the months of the range
 * newest first (the two at its ends summed from their days within it), the days of the month
 * that holds row `offset`, then the blocks of the day that holds it.
 */
const seekRows = compiled<SeekArgs>()((db, param) => {
  const month = sql<string>`m.month`;
  const picked = sql<string>`pm.key`;
  const running = (n: string, order: string) =>
    sql.raw(`sum(${n}) over (order by ${order} desc rows between unbounded preceding and current row) - ${n}`);
  const seek = sql<{ date: string; block: number; before: number }>`(
    with months as (
      select m.month as key,
        case when m.month = ${param('fromMonth')} or m.month = ${param('toMonth')}
          then (select coalesce(sum(d.n), 0) from entry_days d
                where d.date >= ${clip('from', month, param)} and d.date <= ${clip('to', month, param)})
          else m.n end as n
      from entry_all_months m
      where m.month >= ${param('fromMonth')} and m.month <= ${param('toMonth')} and m.n > 0
    ),
    month_sums as (select key, n, ${running('n', 'key')} as before from months),
    pm as (select key, before from month_sums where before + n > ${param('offset')} order by key desc limit 1),
    day_sums as (
      select d.date as key, d.n, pm.before + ${running('d.n', 'd.date')} as before
      from pm join entry_days d
        on d.date >= ${clip('from', picked, param)} and d.date <= ${clip('to', picked, param)} and d.n > 0
    ),
    pd as (select key, before from day_sums where before + n > ${param('offset')} order by key desc limit 1),
    block_sums as (
      select pd.key as date, b.block, b.n, pd.before + ${running('b.n', 'b.block')} as before
      from pd join entry_blocks b on b.date = pd.key and b.n > 0
    )
    select date, block, before from block_sums where before + n > ${param('offset')} order by block desc limit 1)`;
  return db.selectFrom(seek.as('seek')).selectAll();
});

/**
 * The block holding row `offset` of everyone's runs within a range, or null past the end:
 * a running sum over the months of the range newest first (the months its ends cut are
 * summed from their days), then over that month's days, then over that day's blocks, each a
 * few dozen rows at most whatever the offset, in one statement.
 */
export async function seekRun(db: Executor, range: DayRange, offset: number): Promise<RunSeek | null> {
  const from = range.from ?? FIRST_DATE;
  const to = range.to ?? LAST_DATE;
  const [row] = await seekRows(db, { from, to, fromMonth: from.slice(0, 7), toMonth: to.slice(0, 7), offset });
  if (!row) return null;
  return {
    date: row.date,
    maxDistanceM: (Number(row.block) + 1) * RUN_BLOCK_M - 1,
    before: Number(row.before),
  };
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
    const [row] = await ownRunsBetween(db, { userId, ...withinMonth(range, month) });
    return Number(row?.n ?? 0);
  };
  for (const edge of new Set([fromMonth, toMonth])) {
    const bucket = edge && cutsMonth(range, edge) ? months.find((m) => m.key === edge) : undefined;
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

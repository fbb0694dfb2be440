/**
 * SQL of everyone's runs (the admin's list and dashboard): pages by day buckets, their total, and
 * the fastest and the longest run of everyone (decision 024).
 */
import { sql } from 'kysely';
import type { EntryWithUser } from '../../../core/schemas.js';
import { checkedPageSize, compiled, compiledPer, type ParamOf } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';
import { FIRST_DATE, LAST_DATE, toEntryWithUser, type EntryRow, type PageOptions } from './entries.repository.js';
import { shown } from '../../db/staged.js';

/**
 * Where row `offset` of everyone's runs in a range falls: the newest day whose runs, added up
 * from the newest day of the range, pass `offset` (`before`: the runs of the days after it), and
 * the range's total. One running sum over the range's days (entry_days), whatever the offset.
 */
const daySeek = compiled<{ from: string; to: string; offset: number }>()((db, param) =>
  db
    .selectFrom(
      db
        .selectFrom('entry_days')
        .select(['date', 'n'])
        .select(
          sql<number>`sum(n) over (order by date desc rows between unbounded preceding and current row)`.as('upto'),
        )
        .where('date', '>=', param('from'))
        .where('date', '<=', param('to'))
        .where('n', '>', 0)
        .as('d'),
    )
    .select(['date', sql<number>`upto - n`.as('before'), runsBetweenOf(db, param).as('total')])
    .where('upto', '>', param('offset'))
    .orderBy('date', 'desc')
    .limit(1),
);

/** Everyone's runs between two dates, from their days. */
function runsBetweenOf(db: Executor, param: ParamOf<{ from: string; to: string }>) {
  return db
    .selectFrom('entry_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'));
}
const runsBetween = compiled<{ from: string; to: string }>()(runsBetweenOf);

/** Everyone's order: date desc, distance desc, id desc. */
function compareAll(a: EntryRow, b: EntryRow): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.distance_m !== b.distance_m) return Number(b.distance_m) - Number(a.distance_m);
  return Number(b.id) - Number(a.id);
}

/** A page of everyone's runs from a day down, skipping `skip` runs: their ids from the (date, distance_m, id) index alone, then their rows. */
const allPage = (size: number) =>
  compiled<{ from: string; to: string; skip: number }>()((db, param) =>
    db
      .selectFrom(
        db
          .selectFrom('entries')
          .select('id')
          .where('date', '>=', param('from'))
          .where('date', '<=', param('to'))
          .where(shown('staged'))
          .orderBy('date', 'desc')
          .orderBy('distance_m', 'desc')
          .orderBy('id', 'desc')
          .limit(size)
          .offset(param('skip'))
          .as('page'),
      )
      .innerJoin('entries', 'entries.id', 'page.id')
      .innerJoin('users', 'users.id', 'entries.user_id')
      .selectAll('entries')
      .select('users.name as user_name'),
  );
/** The page statement of each page size, with the size written in it. */
const allPageOf = compiledPer(String, allPage);

/**
 * Everyone's runs (date desc, distance desc, id desc), by day buckets: the page starts at the day
 * that holds its first row (daySeek) and skips only that day's runs before it, so a deep page
 * costs what the first does.
 */
export async function listAllEntries(
  db: Executor,
  options: PageOptions,
): Promise<{ entries: EntryWithUser[]; total: number }> {
  const from = options.dateFrom ?? FIRST_DATE;
  const to = options.dateTo ?? LAST_DATE;
  const [seek] = await daySeek(db, { from, to, offset: options.offset });
  if (!seek) return { entries: [], total: Number((await runsBetween(db, { from, to }))[0]?.n ?? 0) };
  const rows = await allPageOf(checkedPageSize(options.limit))(db, {
    from,
    to: seek.date,
    skip: options.offset - Number(seek.before),
  });
  // In the page's order here: an ORDER BY over the joined rows costs SQLite a sort in memory.
  return { entries: rows.sort(compareAll).map(toEntryWithUser), total: Number(seek.total) };
}

/** Everyone's runs in all, from their days. */
export async function countAllRuns(db: Executor): Promise<number> {
  return Number((await runsBetween(db, { from: FIRST_DATE, to: LAST_DATE }))[0]?.n ?? 0);
}

/** The fastest and the longest run of everyone (each the top of its index, ties to the lowest id), with its runner. */
const recordRuns = compiled()((db) => {
  // The run from the top of its index first, then its runner: joined before the LIMIT,
  // PostgreSQL plans the join for every runner.
  const top = (order: 'speed' | 'distance_m', record: string) =>
    db
      .selectFrom(
        db
          .selectFrom('entries')
          .selectAll()
          .where(shown('staged'))
          .orderBy(order, 'desc')
          .orderBy('id', 'asc')
          .limit(1)
          .as('e'),
      )
      .innerJoin('users', 'users.id', 'e.user_id')
      .selectAll('e')
      .select(['users.name as user_name', sql<string>`${sql.lit(record)}`.as('record')]);
  return db
    .selectFrom(top('speed', 'fastest').as('fastest'))
    .selectAll()
    .unionAll(db.selectFrom(top('distance_m', 'longest').as('longest')).selectAll());
});

export async function recordsOfEveryone(
  db: Executor,
): Promise<{ fastest: EntryWithUser | null; longest: EntryWithUser | null }> {
  const rows = await recordRuns(db);
  const of = (kind: string) => {
    const row = rows.find((r) => r.record === kind);
    return row ? toEntryWithUser(row) : null;
  };
  return { fastest: of('fastest'), longest: of('longest') };
}

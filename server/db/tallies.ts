/**
 * Tallies: totals kept in step with their tables, so that no statistic counts a whole table
 * and no deep page reads the rows it skips. This file is their one owner.
 *
 * - `counters`: users and runs in all. Written by the services, visibly, inside the
 *   transaction of the write they count (adjustCounter).
 * - Buckets: runs per day (entry_days), per month (entry_all_months) and per day and
 *   kilometre (entry_blocks), runs per user and month (entry_months) and sign-ups per UTC
 *   day (user_days), kept by the triggers entries_buckets* and users_buckets* of
 *   migrations.ts (docs/decisions/010), and per UTC month and hour (user_months, user_hours),
 *   kept by users_list_buckets*. A page at offset k is found by summing bucket
 *   counts, newest first, up to the bucket that holds row k; only the rows of that one
 *   bucket are then skipped one by one.
 */
import { sql, type Compilable, type RawBuilder, type Selectable } from 'kysely';
import { addDays } from '../../core/time.js';
import { checkedPageSize, compiled, compiledPer, type ParamOf } from './compiled.js';
import { isSqlite, type Executor, type UsersTable } from './schema.js';
import { usersRevision } from './user-search.js';

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

/** The number of users (the counter), as a subquery a page's statement can answer with. */
export function usersTotal(db: Executor) {
  return counterValue(db, 'users');
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
  /** The longest distance the block (or its group) can hold: its rows come first within the day from here. */
  maxDistanceM: number;
  /** Rows of the range that come before the block (or its group). */
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

export type SeekArgs = { from: string; to: string; fromMonth: string; toMonth: string; offset: number };

/**
 * PostgreSQL, one relation of at most one row (date, block, before): three running sums over
 * a few dozen rows each: the months of the range newest first (the two at its ends summed
 * from their days within it), the days of the month that holds row `offset`, then the blocks
 * of the day that holds it. Read alone (seekRows), or within a page's statement.
 */
export function runSeekRelation(param: ParamOf<SeekArgs>) {
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
  return seek;
}
const seekRows = compiled<SeekArgs>()((db, param) => db.selectFrom(runSeekRelation(param).as('seek')).selectAll());

/**
 * The block holding row `offset` of everyone's runs within a range, or null past the end:
 * a running sum over the months of the range newest first (the months its ends cut are
 * summed from their days), then over that month's days, then over that day's blocks, each a
 * few dozen rows at most whatever the offset, in one statement.
 */
export async function seekRun(db: Executor, range: DayRange, offset: number): Promise<RunSeek | null> {
  if (isSqlite(db)) {
    // Fresh, as after every write: a block's groups would cost more than the page skips.
    return seekRunStepwise(db, freshRead('runs', db, revisionOfRuns), range, offset, null);
  }
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

/** Above any distance (metres): a page or a seek that starts at the top of a day. */
export const ANY_DISTANCE_M = 2_147_483_647;

/** The runs' revision (migration steps 014 and 015), as a subquery of a statement. */
export function runsRevision(db: Executor) {
  return db.selectFrom('run_revisions').select('revision').where('id', '=', 1);
}

/** A row of a bucket list of a stepwise seek; those of everyone's runs carry the runs' revision their statement read. */
type RevisedRow = { key: string | number; n: number | string | null; revision?: number | string | null };
/** The runs' revision a bucket list's statement read (each of its rows carries it). */
const revisionOfRuns = (rows: RevisedRow[]) => (rows[0]?.revision == null ? null : Number(rows[0].revision));

const allMonthRows = compiled<{ from: string; to: string; limit: number | null }>()((db, param) =>
  db
    .selectFrom('entry_all_months')
    .select(['month as key', 'n', runsRevision(db).as('revision')])
    .where('month', '>=', param('from'))
    .where('month', '<=', param('to'))
    .where('n', '>', 0)
    .orderBy('month', 'desc')
    .limit(param('limit')),
);
const allDayRows = compiled<{ from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entry_days')
    .select(['date as key', 'n', runsRevision(db).as('revision')])
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .where('n', '>', 0)
    .orderBy('date', 'desc'),
);
/** The distances of a block's runs (one day, one kilometre), longest first, with the runs' revision. */
const blockDistances = compiled<{ date: string; low: number; high: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .select(['distance_m', runsRevision(db).as('revision')])
    .where('date', '=', param('date'))
    .where('distance_m', '>=', param('low'))
    .where('distance_m', '<=', param('high'))
    .orderBy('distance_m', 'desc'),
);

/**
 * A block's runs in groups of about `rows`, longest first: each group's longest distance
 * (`key`) and its runs (`n`). A group holds every run of its distances: it starts at the first
 * distance whose runs start at or past a multiple of `rows` within the block, so it holds
 * fewer than `rows` runs plus the ties of its last distance. Grouped here: SQLite's GROUP BY
 * and window over a busy block's 1,500 runs cost 0.4-0.8 ms, reading their distances 0.19.
 */
async function blockGroups(
  db: Executor,
  block: { date: string; low: number; high: number },
  rows: number,
): Promise<RevisedRow[]> {
  const groups: { key: number; n: number; revision: RevisedRow['revision'] }[] = [];
  let before = 0;
  let previous: number | null = null;
  let group = -1;
  for (const run of await blockDistances(db, block)) {
    const distance = Number(run.distance_m);
    // A new group starts only between two distances, at or past the next multiple of `rows`.
    if (distance !== previous && Math.floor(before / rows) !== group) {
      group = Math.floor(before / rows);
      groups.push({ key: distance, n: 0, revision: run.revision });
    }
    groups.at(-1)!.n += 1;
    previous = distance;
    before += 1;
  }
  return groups;
}

/** Runs a page skips within its block before it seeks within the block's groups (blockGroups). */
export const SUB_BLOCK_ROWS = 64;

/** How a seek goes on within a block's groups: their size, and how their lists are read. */
interface BlockGroups {
  rows: number;
  read: BucketRead;
}

const blockRows = compiled<{ date: string }>()((db, param) =>
  db
    .selectFrom('entry_blocks')
    .select(['block as key', 'n', runsRevision(db).as('revision')])
    .where('date', '=', param('date'))
    .where('n', '>', 0)
    .orderBy('block', 'desc'),
);
/** Everyone's runs between two dates (the day buckets), as one row with the revision. */
const runsBetweenRevised = compiled<{ from: string; to: string }>()((db, param) =>
  db.selectNoFrom((eb) => [
    eb.val('').as('key'),
    runsTotal(db, { from: param('from'), to: param('to') }).as('n'),
    runsRevision(db).as('revision'),
  ]),
);

/** The pages people read are the first ones: the newest months are read first, the rest only when needed. */
const NEWEST_MONTHS = 3;

/**
 * The running sums of deep pages read their bucket lists once per revision of what the
 * buckets count: on SQLite everyone's runs (the runs' revision, migration step 014) and the
 * users list (the users', step 012); on PostgreSQL everyone's runs (step 015). The lists are
 * remembered per database handle (its adapter, shared by its transactions), by statement and
 * values, all at one revision: a list read at a newer revision replaces them all, one read at
 * an older one is not kept. Within a transaction, which may see a revision that a rollback
 * takes back, nothing is kept or answered from memory. A page seeks through remembered lists
 * without a statement, and its own statement reads the revision: read at the one remembered,
 * page and seek agree exactly; otherwise the page seeks again (SQLite: through fresh reads;
 * PostgreSQL: within one statement, runsSeekSettled). Once a page has read a newer revision
 * than the lists', they are known to be out of date and are not tried again.
 */
interface RememberedLists {
  revision: number;
  lists: Map<string, Counted[]>;
}
const rememberedLists = {
  runs: new WeakMap<object, RememberedLists>(),
  users: new WeakMap<object, RememberedLists>(),
};
type ListsOf = keyof typeof rememberedLists;
/** The newest revision a page's statement read outside a transaction, per database handle. */
const newestPageRevisions = {
  runs: new WeakMap<object, number>(),
  users: new WeakMap<object, number>(),
};

/** Notes the revision a page's statement read (committed: outside a transaction only). */
function notePageRevision(of: ListsOf, db: Executor, revision: number): void {
  if (db.isTransaction) return;
  const adapter = db.getExecutor().adapter;
  if ((newestPageRevisions[of].get(adapter) ?? -Infinity) < revision) newestPageRevisions[of].set(adapter, revision);
}

/**
 * Reads one bucket list of a seek: `list` names it (statement and values) and `read` runs its
 * statement. A fresh reader runs it and remembers the list; a remembering reader answers from
 * memory only, and throws NOT_REMEMBERED otherwise.
 */
type BucketRead = (list: string, read: () => Promise<RevisedRow[]>) => Promise<Counted[]>;
const NOT_REMEMBERED = Symbol('not remembered');

/**
 * A fresh reader of `of`'s lists. `revisionOf` says at which revision a list was read: the one
 * its rows carry (the runs'), or one read before it (the users': a list read while a write
 * lands is then kept under the revision before the write, which no later page is read at).
 */
function freshRead(of: ListsOf, db: Executor, revisionOf: (rows: RevisedRow[]) => number | null): BucketRead {
  return async (name, read) => {
    const rows = await read();
    const list = rows.map((b) => ({ key: String(b.key), n: Number(b.n ?? 0) }));
    const revision = revisionOf(rows);
    if (revision === null || db.isTransaction) return list;
    const adapter = db.getExecutor().adapter;
    let remembered = rememberedLists[of].get(adapter);
    if (!remembered || remembered.revision < revision) {
      remembered = { revision, lists: new Map() };
      rememberedLists[of].set(adapter, remembered);
    }
    if (remembered.revision === revision) {
      if (remembered.lists.size >= REMEMBERED_BUCKET_LISTS) remembered.lists.clear();
      remembered.lists.set(name, list);
    }
    return list;
  };
}

/**
 * A page from a seek made of remembered lists alone: `page` reads it, each row with the
 * revision its statement read. Null when a list the seek needs is not remembered, the seek
 * finds no row, or the page was read at another revision than the lists (a write landed).
 */
async function pageFromMemory<Seek, Row extends { revision: unknown }>(
  of: ListsOf,
  db: Executor,
  seek: (read: BucketRead) => Promise<Seek | null>,
  page: (found: Seek) => Promise<Row[]>,
): Promise<Row[] | null> {
  const adapter = db.getExecutor().adapter;
  const remembered = db.isTransaction ? undefined : rememberedLists[of].get(adapter);
  if (!remembered || remembered.revision < (newestPageRevisions[of].get(adapter) ?? -Infinity)) return null;
  let found: Seek | null;
  try {
    found = await seek(async (name) => {
      const list = remembered.lists.get(name);
      if (!list) throw NOT_REMEMBERED;
      return list;
    });
  } catch (error) {
    if (error === NOT_REMEMBERED) return null;
    throw error;
  }
  if (!found) return null;
  const rows = await page(found);
  if (rows.length === 0) return null;
  const revision = Number(rows[0]!.revision);
  notePageRevision(of, db, revision);
  return revision === remembered.revision ? rows : null;
}

/** How many bucket lists of `of`'s seeks a database handle remembers now, and at which revision (tests). */
export function rememberedBucketLists(db: Executor, of: ListsOf): { lists: number; revision: number | null } {
  const remembered = rememberedLists[of].get(db.getExecutor().adapter);
  return { lists: remembered?.lists.size ?? 0, revision: remembered?.revision ?? null };
}

/**
 * A deep page of everyone's runs from the lists remembered at the last runs' revision read,
 * without a bucket read (pageFromMemory; see RememberedLists); null otherwise.
 */
export function rememberedRunPage<Row extends { revision: unknown }>(
  db: Executor,
  range: DayRange,
  offset: number,
  page: (seek: RunSeek) => Promise<Row[]>,
  groupRows = SUB_BLOCK_ROWS,
): Promise<Row[] | null> {
  const fresh = freshRead('runs', db, revisionOfRuns);
  // A block's groups not remembered yet are read now: once per block and revision, by a page
  // whose seek is otherwise remembered (no write landed since its lists were read).
  const groupsOrFresh =
    (read: BucketRead): BucketRead =>
    async (name, rows) => {
      try {
        return await read(name, rows);
      } catch (error) {
        if (error === NOT_REMEMBERED) return fresh(name, rows);
        throw error;
      }
    };
  return pageFromMemory(
    'runs',
    db,
    (read) => seekRunStepwise(db, read, range, offset, { rows: groupRows, read: groupsOrFresh(read) }),
    page,
  );
}

/** The revision at which the last deep page of everyone's runs sought within its own statement was read (PostgreSQL). */
const selfSoughtRevisions = new WeakMap<object, number>();

/**
 * PostgreSQL: a deep page of everyone's runs that sought within its own statement (one round
 * trip, not from memory) read the runs at `revision`. When the page before it that did so read
 * the same revision (no write of runs landed between them), the bucket lists of this seek are
 * read and remembered now, for the pages after it. Where runs are written all the time, pages
 * keep seeking within their own statement and the lists are not read for nothing.
 */
export async function runsSeekSettled(
  db: Executor,
  range: DayRange,
  offset: number,
  revision: number,
  groupRows = SUB_BLOCK_ROWS,
): Promise<void> {
  if (db.isTransaction) return;
  notePageRevision('runs', db, revision);
  const adapter = db.getExecutor().adapter;
  const before = selfSoughtRevisions.get(adapter);
  selfSoughtRevisions.set(adapter, revision);
  if (before !== revision) return;
  const fresh = freshRead('runs', db, revisionOfRuns);
  await seekRunStepwise(db, fresh, range, offset, { rows: groupRows, read: fresh });
}

/**
 * The same three running sums, taken here over three plain reads of the buckets'
 * covering indexes (step 013), each through `read` (fresh, or remembered), then, with
 * `groups`, a fourth over the found block's groups (blockGroups) when the page would skip
 * more than a group's runs within it: SQLite's seek,
 * whose window functions cost more than the reads themselves, and whose reads cost no round
 * trip; on PostgreSQL, the reads that fill the remembered lists (runsSeekSettled). Fresh
 * reads are not one snapshot: should a write land between them, the seek stops at the start
 * of the month or day it found, which only makes the page skip more rows, never show the
 * wrong ones.
 */
async function seekRunStepwise(
  db: Executor,
  read: BucketRead,
  range: DayRange,
  offset: number,
  groups: BlockGroups | null,
): Promise<RunSeek | null> {
  const fromMonth = (range.from ?? FIRST_DATE).slice(0, 7);
  const toMonth = (range.to ?? LAST_DATE).slice(0, 7);
  const monthsUpTo = async (limit: number | null) => {
    const listed = await read(`months:${fromMonth}:${toMonth}:${limit}`, () =>
      allMonthRows(db, { from: fromMonth, to: toMonth, limit }),
    );
    // A copy: the edges' counts must not change the remembered list.
    const months = listed.map((m) => ({ ...m }));
    await countEdgesExactly(months, range, async (within) => {
      const [edge] = await read(`runs:${within.from}:${within.to}`, () => runsBetweenRevised(db, within));
      return edge?.n ?? 0;
    });
    return { months, all: limit === null || limit < 0 || listed.length < limit };
  };
  const newest = await monthsUpTo(NEWEST_MONTHS);
  // No limit: LIMIT -1 on SQLite, LIMIT NULL on PostgreSQL.
  const month =
    seekIn(newest.months, offset) ??
    (newest.all ? null : seekIn((await monthsUpTo(isSqlite(db) ? -1 : null)).months, offset));
  if (!month) return null;
  const days = withinMonth(range, month.key);
  const day = seekIn(await read(`days:${days.from}:${days.to}`, () => allDayRows(db, days)), offset - month.before);
  if (!day) return { date: days.to, maxDistanceM: ANY_DISTANCE_M, before: month.before };
  const before = month.before + day.before;
  const blocks = await read(`blocks:${day.key}`, () => blockRows(db, { date: day.key }));
  const block = seekIn(blocks, offset - before);
  if (!block) return { date: day.key, maxDistanceM: ANY_DISTANCE_M, before };
  const low = Number(block.key) * RUN_BLOCK_M;
  const inBlock = { date: day.key, maxDistanceM: low + RUN_BLOCK_M - 1, before: before + block.before };
  // A block of a busy day holds hundreds of runs (1,500 at 10,000,000 runs), each an index
  // step of the page's statement: past `groups.rows` of them the seek goes on within the
  // block's groups, and the page skips fewer than `groups.rows` plus one distance's ties.
  if (!groups || offset - inBlock.before < groups.rows) return inBlock;
  const listed = await groups.read(`groups:${day.key}:${block.key}:${groups.rows}`, () =>
    blockGroups(db, { date: day.key, low, high: inBlock.maxDistanceM }, groups.rows),
  );
  // Groups that do not add up to the block (a write landed between fresh reads) are not used.
  const blockRuns = blocks.find((b) => b.key === block.key)!.n;
  const group = listed.reduce((sum, g) => sum + g.n, 0) === blockRuns ? seekIn(listed, offset - inBlock.before) : null;
  if (!group) return inBlock;
  return { date: day.key, maxDistanceM: Number(group.key), before: inBlock.before + group.before };
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
  await countEdgesExactly(months, range, async (within) => {
    const [row] = await ownRunsBetween(db, { userId, ...within });
    return Number(row?.n ?? 0);
  });
  return months.filter((m) => m.n > 0);
}

/** Month buckets of a range, the (at most two) months its ends cut recounted with `count` over the part within it. */
async function countEdgesExactly(
  months: { key: string; n: number }[],
  range: DayRange,
  count: (within: { from: string; to: string }) => Promise<number>,
): Promise<void> {
  for (const edge of new Set([range.from?.slice(0, 7), range.to?.slice(0, 7)])) {
    const bucket = edge && cutsMonth(range, edge) ? months.find((m) => m.key === edge) : undefined;
    if (bucket) bucket.n = await count(withinMonth(range, edge!));
  }
}

const HOUR_MS = 3_600_000;

/** Where row `offset` of the users list (newest first) falls. */
export interface UserSeek {
  /** The first instant after the sign-up hour that holds the row (a created_at upper bound). */
  upTo: string;
  /** Users of the list created from `upTo` on, before the row's hour. */
  before: number;
}

/** The columns of a user in the users list: the API user's, never the password hash or the search text. */
export const USER_LIST_COLUMNS = [
  'id',
  'name',
  'email',
  'role',
  'timezone',
  'units',
  'theme',
  'pace_format',
  'date_format',
  'created_at',
  'updated_at',
] as const;
export type UserListRow = Pick<Selectable<UsersTable>, (typeof USER_LIST_COLUMNS)[number]>;

type UserPageRow = UserListRow & { total: number | string };

/**
 * PostgreSQL, one statement: three running sums over a few dozen rows each (every month with
 * sign-ups newest first from user_months, the days of the month that holds row `offset` from
 * user_days, then the hours of that day from user_hours), then the page from the first
 * instant after that hour, skipping only that hour's users before the row, and the number
 * of users (the counter). Past the end it has no rows.
 */
const seekUsersPageRows = (size: number) =>
  compiled<{ offset: number }>()((db, param) => {
    const running = (n: string, order: string) =>
      sql.raw(`sum(${n}) over (order by ${order} desc rows between unbounded preceding and current row) - ${n}`);
    const page = sql<UserPageRow>`(
    with month_sums as (select month as key, n, ${running('n', 'month')} as before from user_months where n > 0),
    pm as (select key, before from month_sums where before + n > ${param('offset')} order by key desc limit 1),
    day_sums as (
      select d.day as key, d.n, pm.before + ${running('d.n', 'd.day')} as before
      from pm join user_days d on d.day >= pm.key || '-01' and d.day <= pm.key || '-31' and d.n > 0
    ),
    pd as (select key, before from day_sums where before + n > ${param('offset')} order by key desc limit 1),
    hour_sums as (
      select h.hour as key, h.n, pd.before + ${running('h.n', 'h.hour')} as before
      from pd join user_hours h on h.hour >= pd.key || 'T00' and h.hour <= pd.key || 'T23' and h.n > 0
    ),
    ph as (
      select to_char((cast(key || ':00:00+00' as timestamptz) + interval '1 hour') at time zone 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as up_to, before
      from hour_sums where before + n > ${param('offset')} order by key desc limit 1
    )
    select ${sql.raw(USER_LIST_COLUMNS.map((column) => `u.${column}`).join(', '))},
      (select value from counters where name = 'users') as total
    from users u
    where u.created_at < (select up_to from ph)
    order by u.created_at desc, u.id desc
    limit ${sql.lit(size)} offset (select ${param('offset')} - before from ph))`;
    return db.selectFrom(page.as('page')).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  });
/** The statement of a page size (written in it: with the LIMIT bound, PostgreSQL planned each request anew). */
const seekUsersPageOf = compiledPer(String, seekUsersPageRows);

/**
 * PostgreSQL: the page of the users list (newest first) at `offset`, and the number of
 * users on each row, in one statement whatever the offset (seekUsersPageRows).
 */
export function seekUsersPage(db: Executor, offset: number, limit: number): Promise<UserPageRow[]> {
  return seekUsersPageOf(checkedPageSize(limit))(db, { offset });
}

/**
 * The non-empty buckets of `table` whose key (`key`) lies between two values, newest first:
 * the plain reads of the users list's SQLite seek (covering indexes of migration 013).
 */
const bucketsBetween = (table: 'user_days' | 'user_hours', key: 'day' | 'hour') =>
  compiled<{ from: string; to: string }>()((db, param) =>
    db
      .selectFrom(
        sql<{ key: string; n: number }>`(select ${sql.ref(key)} as key, n from ${sql.table(table)}
            where ${sql.ref(key)} >= ${param('from')} and ${sql.ref(key)} <= ${param('to')} and n > 0)`.as('b'),
      )
      .selectAll()
      .orderBy('key', 'desc'),
  );
const userMonthRows = compiled()((db) =>
  db.selectFrom('user_months').select(['month as key', 'n']).where('n', '>', 0).orderBy('month', 'desc'),
);
const userDayRows = bucketsBetween('user_days', 'day');
const userHourRows = bucketsBetween('user_hours', 'hour');

/** The number of users and their revision (user-search.ts), in one statement. */
const usersTotalAndRevision = compiled()((db) =>
  db.selectNoFrom([usersTotal(db).as('total'), usersRevision(db).as('revision')]),
);

/** How many bucket lists each database handle remembers at one revision, for each of everyone's runs and the users list. */
export const REMEMBERED_BUCKET_LISTS = 1000;

type Counted = { key: string; n: number };

/**
 * SQLite: the sign-up hour holding row `offset` of the users list (newest first), or null
 * past the end, and the number of users: whatever the offset, a running sum over the
 * months, then over one month's days, then over one day's hours, each list read once per
 * users' revision (RememberedLists).
 */
export async function seekUserHour(db: Executor, offset: number): Promise<{ seek: UserSeek | null; total: number }> {
  const [row] = await usersTotalAndRevision(db);
  const revision = Number(row?.revision ?? 0);
  return {
    seek: await seekUserHourStepwise(
      db,
      freshRead('users', db, () => revision),
      offset,
    ),
    total: Number(row?.total ?? 0),
  };
}

/**
 * SQLite: a deep page of the users list from the lists remembered at the last users' revision
 * read, without a bucket read (pageFromMemory; see RememberedLists); null otherwise.
 */
export function rememberedUsersPage<Row extends { revision: unknown }>(
  db: Executor,
  offset: number,
  page: (seek: UserSeek) => Promise<Row[]>,
): Promise<Row[] | null> {
  return pageFromMemory('users', db, (read) => seekUserHourStepwise(db, read, offset), page);
}

/**
 * SQLite: the same three running sums over three plain reads of the buckets (its window
 * functions cost more than the reads, and its reads cost no round trip), each through `read`
 * (fresh, or remembered). Fresh reads are not one snapshot: should a write land between them,
 * the seek stops at the top of the month or day it found, which only makes the page skip
 * more rows, never show the wrong ones.
 */
async function seekUserHourStepwise(db: Executor, read: BucketRead, offset: number): Promise<UserSeek | null> {
  const month = seekIn(await read('months', () => userMonthRows(db)), offset);
  if (!month) return null;
  const days = await read(`days:${month.key}`, () =>
    userDayRows(db, { from: `${month.key}-01`, to: `${month.key}-31` }),
  );
  const day = seekIn(days, offset - month.before);
  if (!day) return { upTo: afterMonth(month.key), before: month.before };
  const before = month.before + day.before;
  const hours = await read(`hours:${day.key}`, () => userHourRows(db, { from: `${day.key}T00`, to: `${day.key}T23` }));
  const hour = seekIn(hours, offset - before);
  if (!hour) return { upTo: afterDay(day.key), before };
  return { upTo: afterHour(hour.key), before: before + hour.before };
}

/** The first instant after a UTC hour (`YYYY-MM-DDTHH`), day or month, as created_at strings are written. */
const afterHour = (hour: string) => new Date(Date.parse(`${hour}:00:00.000Z`) + HOUR_MS).toISOString();
const afterDay = (day: string) => `${addDays(day, 1)}T00:00:00.000Z`;
const afterMonth = (month: string) => {
  const [year, monthNumber] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, monthNumber!, 1)).toISOString();
};

/** The values of the admin dashboard's totals (signupTotals): two instants' bounds. */
export type SignupArgs = {
  aDay: string;
  aHour: string;
  aFrom: string;
  aTo: string;
  aFromHour: string;
  bDay: string;
  bHour: string;
  bFrom: string;
  bTo: string;
  bFromHour: string;
};

/**
 * Users and runs in all, and users created since each of two instants, as one row of one
 * statement (`users`, `entries`, and `a_*` / `b_*`: signupsSince adds them up). Users since an
 * instant come from the sign-up buckets (whole days, then the whole hours of the instant's day)
 * and the index (the instant's partial hour, at most one hour of sign-ups).
 */
export function signupTotals(db: Executor, param: ParamOf<SignupArgs>, shape: SignupShape) {
  const wholeDays = (day: RawBuilder<string>) =>
    db
      .selectFrom('user_days')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('day', '>=', day)
      // Bounded on both sides: PostgreSQL's plan for any values guesses an open range at a
      // third of the days, and costed so, the statement was planned on every request.
      .where('day', '<=', LAST_DATE);
  const wholeHours = (hour: RawBuilder<string>, day: RawBuilder<string>) =>
    db
      .selectFrom('user_hours')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('hour', '>=', hour)
      .where('hour', '<', day);
  // The partial hour's users all have its hour (`fromHour`, as user_hours keys it): said
  // again as an equality, it makes PostgreSQL's plan for any values guess a few rows instead
  // of 0.5% of the users, and keep that plan (see SignupShape).
  const partialHour = (from: RawBuilder<string>, to: RawBuilder<string>, fromHour: RawBuilder<string>) =>
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .where(sql<string>`substr(created_at, 1, 13)`, '=', fromHour);
  return db.selectNoFrom([
    counterValue(db, 'users').as('users'),
    counterValue(db, 'entries').as('entries'),
    wholeDays(param('aDay')).as('a_days'),
    wholeHours(param('aHour'), param('aDay')).as('a_hours'),
    (shape.aPartial ? partialHour(param('aFrom'), param('aTo'), param('aFromHour')) : sql<number>`0`).as('a_partial'),
    wholeDays(param('bDay')).as('b_days'),
    wholeHours(param('bHour'), param('bDay')).as('b_hours'),
    (shape.bPartial ? partialHour(param('bFrom'), param('bTo'), param('bFromHour')) : sql<number>`0`).as('b_partial'),
  ]);
}

/**
 * Which of the two instants fall inside an hour (a time zone off the whole hour, such as
 * UTC+05:30), so that their partial hour is counted from the users' index. An instant on the
 * hour has none, and its statement leaves the count out. A partial hour is found by its hour
 * and its range (PostgreSQL: users_created_hour_idx, migration 016): by its range alone,
 * PostgreSQL guessed it at 0.5% of the users (500 rows at 100,000) and, that plan for any
 * values looking costlier than planning each request, planned the dashboard on every request.
 */
export interface SignupShape {
  aPartial: boolean;
  bPartial: boolean;
}
function signupShape(args: SignupArgs): SignupShape {
  return {
    aPartial: Date.parse(args.aFrom) < Date.parse(args.aTo),
    bPartial: Date.parse(args.bFrom) < Date.parse(args.bTo),
  };
}

/**
 * A statement over signupTotals, compiled once per shape of the two instants, run for two
 * instants.
 */
export function signupStatement<Row>(
  build: (db: Executor, param: ParamOf<SignupArgs>, shape: SignupShape) => Compilable<Row>,
): (db: Executor, sinceA: string, sinceB: string) => Promise<Row[]> {
  const statementOf = compiledPer(
    (shape: SignupShape) => `${shape.aPartial}:${shape.bPartial}`,
    (shape: SignupShape) => compiled<SignupArgs>()((db, param) => build(db, param, shape)),
  );
  return (db, sinceA, sinceB) => {
    const args = signupArgs(sinceA, sinceB);
    return statementOf(signupShape(args))(db, args);
  };
}

const totalsSince = signupStatement(signupTotals);

/** The values of signupTotals for two instants. */
function signupArgs(sinceA: string, sinceB: string): SignupArgs {
  const bounds = (since: string) => {
    // The first whole hour from the instant, and the first whole day from that hour.
    const hour = new Date(Math.ceil(Date.parse(since) / HOUR_MS) * HOUR_MS).toISOString();
    const day = hour.slice(11, 13) === '00' ? hour.slice(0, 10) : addDays(hour.slice(0, 10), 1);
    return {
      day,
      hour: hour.slice(0, 13),
      from: since,
      to: hour,
      // The hour of the same text the range compares (user_hours keys: substr(created_at, 1, 13)).
      fromHour: since.slice(0, 13),
    };
  };
  const a = bounds(sinceA);
  const b = bounds(sinceB);
  return {
    aDay: a.day,
    aHour: a.hour,
    aFrom: a.from,
    aTo: a.to,
    aFromHour: a.fromHour,
    bDay: b.day,
    bHour: b.hour,
    bFrom: b.from,
    bTo: b.to,
    bFromHour: b.fromHour,
  };
}

/** What a row of signupTotals says (no row, or nulls: nothing). */
export function signupsSince(row: Record<string, unknown> | undefined): {
  users: number;
  entries: number;
  sinceA: number;
  sinceB: number;
} {
  const since = (days: unknown, hours: unknown, partial: unknown) =>
    Number(days ?? 0) + Number(hours ?? 0) + Number(partial ?? 0);
  return {
    users: Number(row?.users ?? 0),
    entries: Number(row?.entries ?? 0),
    sinceA: since(row?.a_days, row?.a_hours, row?.a_partial),
    sinceB: since(row?.b_days, row?.b_hours, row?.b_partial),
  };
}

/** The admin dashboard's counts: users and runs from the counters, and users created since each instant. */
export async function totalsAndSignupsSince(
  db: Executor,
  sinceA: string,
  sinceB: string,
): Promise<{ users: number; entries: number; sinceA: number; sinceB: number }> {
  const [row] = await totalsSince(db, sinceA, sinceB);
  return signupsSince(row);
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

/** SQL for time entries. Distances are stored in metres and durations in seconds. */
import { sql, type RawBuilder, type Selectable } from 'kysely';
import { formatDuration, paceMinPerKm, round2, roundKm, speedKmh } from '../../../core/time.js';
import type { EntriesSummary, Entry, EntrySort, EntryWithUser, RunKind } from '../../../core/schemas.js';
import {
  NEAR_SKIP,
  checkedPageSize,
  compiled,
  compiledPer,
  pageReach,
  reachKey,
  type PageReach,
} from '../../db/compiled.js';
import { isSqlite, type EntriesTable, type Executor } from '../../db/schema.js';
import {
  FIRST_DATE,
  LAST_DATE,
  ANY_DISTANCE_M,
  RUN_BLOCK_M,
  SEEK_FROM,
  countRunsBetween,
  ownRunMonths,
  readCounter,
  runSeekRelation,
  runsTotal,
  rememberedRunPage,
  runsRevision,
  runsSeekSettled,
  seekIn,
  seekRun,
  signupsSince,
  signupStatement,
  signupTotals,
  type RunSeek,
  type SeekArgs,
} from '../../db/tallies.js';
type EntryRow = Selectable<EntriesTable>;

export interface EntryValues {
  date: string;
  distanceKm: number;
  seconds: number;
  /** §8's optional fields: undefined leaves a stored value unchanged, null clears it. */
  title?: string | null | undefined;
  notes?: string | null | undefined;
  kind?: RunKind | null | undefined;
  effort?: number | null | undefined;
  shoeId?: number | null | undefined;
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
    title: row.title ?? null,
    notes: row.notes ?? null,
    kind: (row.kind as RunKind | null) ?? null,
    effort: row.effort === null || row.effort === undefined ? null : Number(row.effort),
    shoe_id: row.shoe_id === null || row.shoe_id === undefined ? null : Number(row.shoe_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toEntryWithUser(row: EntryRow & { user_name: string }): EntryWithUser {
  // Not `{ ...toEntry(row), user }`: an object spread cost 1.4 us a row, the whole mapping of a page.
  const entry = toEntry(row) as EntryWithUser;
  entry.user = { id: Number(row.user_id), name: row.user_name };
  return entry;
}

function columns(values: EntryValues) {
  const distance_m = Math.round(values.distanceKm * 1000);
  // One division of two exact integers: equal speeds are equal floats, so ties stay ties.
  const speed = (distance_m * 36) / (values.seconds * 10);
  const given = <T>(value: T | undefined) => value !== undefined;
  return {
    date: values.date,
    distance_m,
    seconds: values.seconds,
    speed,
    ...(given(values.title) ? { title: values.title } : {}),
    ...(given(values.notes) ? { notes: values.notes } : {}),
    ...(given(values.kind) ? { kind: values.kind } : {}),
    ...(given(values.effort) ? { effort: values.effort } : {}),
    ...(given(values.shoeId) ? { shoe_id: values.shoeId } : {}),
  };
}

export async function insertEntry(db: Executor, userId: number, values: EntryValues, nowIso: string): Promise<Entry> {
  const row = await db
    .insertInto('entries')
    .values({ user_id: userId, ...columns(values), created_at: nowIso, updated_at: nowIso })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toEntry(row);
}

/** The most rows of one insert statement (13 values each, well under either database's limit). */
const INSERT_BATCH = 256;
const INSERTED_COLUMNS = [
  'user_id',
  'date',
  'distance_m',
  'seconds',
  'speed',
  'title',
  'notes',
  'kind',
  'effort',
  'shoe_id',
  'created_at',
  'updated_at',
] as const;

type BatchArgs = Record<string, string | number | null>;

/** `<column><row>`: the name of each value of a batch. */
const valueNames = Array.from({ length: INSERT_BATCH }, (_, r) => INSERTED_COLUMNS.map((column) => `${column}${r}`));

const batchValues = (n: number, param: (name: string) => unknown) =>
  valueNames
    .slice(0, n)
    .map((names) => Object.fromEntries(INSERTED_COLUMNS.map((column, c) => [column, param(names[c]!)]))) as never;

/** A statement per batch size (a power of two), compiled when first needed. */
function bySize<S>(compile: (n: number) => S): (n: number) => S {
  const made = new Map<number, S>();
  return (n) => {
    let statement = made.get(n);
    if (!statement) made.set(n, (statement = compile(n)));
    return statement;
  };
}

const insertRows = bySize((n) =>
  compiled<BatchArgs>()((db, param) => db.insertInto('entries').values(batchValues(n, param)).returningAll()),
);
const insertIds = bySize((n) =>
  compiled<BatchArgs>()((db, param) => db.insertInto('entries').values(batchValues(n, param)).returning('id')),
);

/**
 * Stores runs of one user in statements of many rows (an import): the same rows as insertEntry
 * would store one by one, each seen by the triggers. `run` executes one statement of n rows
 * with its values; the rows it answers come back in the order given.
 */
async function insertBatches<Row extends { id: unknown }>(
  userId: number,
  runs: EntryValues[],
  nowIso: string,
  run: (n: number, args: BatchArgs) => Promise<Row[]>,
): Promise<Row[]> {
  const stored: Row[] = [];
  let at = 0;
  while (at < runs.length) {
    let n = INSERT_BATCH;
    while (n > runs.length - at) n /= 2;
    const args: BatchArgs = {};
    for (let r = 0; r < n; r++) {
      const row = columns(runs[at + r]!);
      const values = [
        userId,
        row.date,
        row.distance_m,
        row.seconds,
        row.speed,
        row.title ?? null,
        row.notes ?? null,
        row.kind ?? null,
        row.effort ?? null,
        row.shoe_id ?? null,
        nowIso,
        nowIso,
      ];
      valueNames[r]!.forEach((name, c) => (args[name] = values[c]!));
    }
    // Ids are given in the order of the values: sorting by id gives the rows back in input order.
    const rows = (await run(n, args)).sort((a, b) => Number(a.id) - Number(b.id));
    for (const row of rows) stored.push(row);
    at += n;
  }
  return stored;
}

/** Stores runs of one user, many rows a statement; answers them as stored, in the order given. */
export async function insertEntries(db: Executor, userId: number, runs: EntryValues[], nowIso: string) {
  const rows = await insertBatches(userId, runs, nowIso, (n, args) => insertRows(n)(db, args));
  return rows.map(toEntry);
}

/** As insertEntries, answering only the new ids (an import of many runs keeps no more). */
export async function insertEntryIds(db: Executor, userId: number, runs: EntryValues[], nowIso: string) {
  const rows = await insertBatches(userId, runs, nowIso, (n, args) => insertIds(n)(db, args));
  return rows.map((row) => Number(row.id));
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

/** Deletes a run; returns its owner's id, or null when it was already gone. */
export async function deleteEntry(db: Executor, id: number): Promise<{ userId: number } | null> {
  const row = await db.deleteFrom('entries').where('id', '=', id).returning('user_id').executeTakeFirst();
  return row ? { userId: Number(row.user_id) } : null;
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
  /** The order of a runner's own list (CONTRACT.md §18); `-date` when absent. */
  sort?: EntrySort | undefined;
}

/**
 * A runner's own runs, date desc then id desc, from the (user_id, date) index (or in another
 * order of §18, ownPage). The total within a date range comes from their month buckets
 * (plus an exact count of the two months cut by the range), and a deep page of the default
 * order starts at its month, so a page never reads the rows it skips beyond one month's runs.
 */
export async function listEntriesForUser(
  db: Executor,
  userId: number,
  options: ListOptions,
): Promise<{ entries: Entry[]; total: number }> {
  const range = { from: options.dateFrom, to: options.dateTo };
  const sort = options.sort ?? '-date';
  const deep = sort === '-date' && options.offset >= (options.seekFrom ?? SEEK_FROM);
  const months = deep || hasRange(options) ? await ownRunMonths(db, userId, range) : null;
  const total = hasRange(options) ? months!.reduce((sum, m) => sum + m.n, 0) : options.knownTotal;
  const bounds = { userId, from: options.dateFrom ?? FIRST_DATE, to: options.dateTo ?? LAST_DATE };

  if (sort !== '-date') {
    const rows = await ownPage(sort)(db, { ...bounds, limit: options.limit, offset: options.offset });
    return { entries: rows.map(toEntry), total };
  }
  let offset = options.offset;
  let upTo = options.dateTo;
  if (deep) {
    const start = seekIn(months!, offset);
    if (!start) return { entries: [], total };
    offset -= start.before;
    const monthEnd = `${start.key}-31`;
    if (!upTo || monthEnd < upTo) upTo = monthEnd;
  }
  const rows = await ownPage('-date')(db, { ...bounds, to: upTo ?? LAST_DATE, limit: options.limit, offset });
  return { entries: rows.map(toEntry), total };
}

type PageArgs = { from: string; to: string; limit: number; offset: number };

/**
 * The column and direction of each order of a runner's own list. Pace is minutes per km, so its
 * order is speed's reversed (speed is one division of exact integers: equal paces are equal
 * speeds); each reads the runner's own (user_id, date | speed | distance_m | seconds) index.
 */
const ORDERS: Record<EntrySort, { column: 'date' | 'distance_m' | 'seconds' | 'speed'; direction: 'asc' | 'desc' }> = {
  '-date': { column: 'date', direction: 'desc' },
  date: { column: 'date', direction: 'asc' },
  distance: { column: 'distance_m', direction: 'asc' },
  '-distance': { column: 'distance_m', direction: 'desc' },
  time: { column: 'seconds', direction: 'asc' },
  '-time': { column: 'seconds', direction: 'desc' },
  pace: { column: 'speed', direction: 'desc' },
  '-pace': { column: 'speed', direction: 'asc' },
};

/**
 * A page of a runner's runs between two dates in one of §18's orders: by date, ties by id the
 * same way; by distance, time or pace, ties by date desc, then id desc.
 */
const ownPage = compiledPer(String, (sort: EntrySort) =>
  compiled<PageArgs & { userId: number }>()((db, param) => {
    const { column, direction } = ORDERS[sort];
    const ordered = db
      .selectFrom('entries')
      .selectAll()
      .where('user_id', '=', param('userId'))
      .where('date', '>=', param('from'))
      .where('date', '<=', param('to'))
      .orderBy(column, direction);
    const tied =
      column === 'date' ? ordered.orderBy('id', direction) : ordered.orderBy('date', 'desc').orderBy('id', 'desc');
    return tied.limit(param('limit')).offset(param('offset'));
  }),
);

/** The totals of a runner's days between two dates (inclusive), from runner_days: never a read of their runs. */
const daysTotals = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('runner_days')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('runs'), sql<number>`0`).as('runs'),
      eb.fn.coalesce(eb.fn.sum<number>('distance_m'), sql<number>`0`).as('distance_m'),
      eb.fn.coalesce(eb.fn.sum<number>('seconds'), sql<number>`0`).as('seconds'),
    ])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to')),
);

/** The runs, distance, time and average pace of every run of a runner between two dates (CONTRACT.md §18). */
export async function summaryForUser(db: Executor, userId: number, range: DateRange): Promise<EntriesSummary> {
  const [row] = await daysTotals(db, { userId, from: range.dateFrom ?? FIRST_DATE, to: range.dateTo ?? LAST_DATE });
  const runs = Number(row?.runs ?? 0);
  const distance = roundKm(Number(row?.distance_m ?? 0) / 1000);
  const seconds = Number(row?.seconds ?? 0);
  return {
    runs,
    distance,
    seconds,
    avg_pace: runs > 0 && distance > 0 ? round2(paceMinPerKm(distance, seconds)) : null,
  };
}

const shoePage = compiled<{ userId: number; shoeId: number; limit: number; offset: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .selectAll()
    .where('shoe_id', '=', param('shoeId'))
    .where('user_id', '=', param('userId'))
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(param('limit'))
    .offset(param('offset')),
);

/** A page of the runs of one of a runner's shoes, newest first, from the shoe_id index. */
export async function listShoeEntries(
  db: Executor,
  userId: number,
  shoeId: number,
  page: { limit: number; offset: number },
): Promise<Entry[]> {
  return (await shoePage(db, { userId, shoeId, ...page })).map(toEntry);
}

/** Everyone's order: date desc, distance desc, id desc. */
function compareAll(a: EntryRow, b: EntryRow): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  if (a.distance_m !== b.distance_m) return Number(b.distance_m) - Number(a.distance_m);
  return Number(b.id) - Number(a.id);
}

/**
 * Everyone's runs. The page's ids come from the (date, distance_m, id) index alone (rows
 * skipped there cost an index step, not a row and a user); a deep page starts at its block
 * (a day and a kilometre of distance), found from the month, day and block buckets, so it
 * skips at most one block's rows. The total (the runs counter, or within a range a sum of day
 * buckets) comes with the page's rows, in the same statement.
 */
export async function listAllEntries(
  db: Executor,
  options: Omit<ListOptions, 'knownTotal'> & {
    /** PostgreSQL: skips up to here read a capped list of the index's ids (compiled.ts NEAR_SKIP; smaller in tests). */
    nearSkip?: number;
    /** Skips within a block from here on seek within its groups (tallies.ts SUB_BLOCK_ROWS; smaller in tests). */
    groupRows?: number;
  },
): Promise<{ entries: EntryWithUser[]; total: number }> {
  const range = { from: options.dateFrom, to: options.dateTo };
  const totalAlone = async () => (hasRange(options) ? countRunsBetween(db, range) : readCounter(db, 'entries'));
  const offset = options.offset;
  const deep = offset >= (options.seekFrom ?? SEEK_FROM);
  // A deep page: each row carries the runs' revision its statement read.
  const pageFrom = (seek: RunSeek | null) =>
    allPageOf({
      ranged: hasRange(options),
      revised: deep,
      size: checkedPageSize(options.limit),
      reach: pageReach(offset - (seek?.before ?? 0), { sqlite: isSqlite(db), nearSkip: options.nearSkip }),
    })(db, {
      from: options.dateFrom ?? FIRST_DATE,
      to: seek?.date ?? options.dateTo ?? LAST_DATE,
      toDistance: seek?.maxDistanceM ?? ANY_DISTANCE_M,
      rangeTo: options.dateTo ?? LAST_DATE,
      offset: offset - (seek?.before ?? 0),
    });
  if (deep) {
    // First from the bucket lists remembered at the last revision read, without reading a bucket.
    const rows = await rememberedRunPage(db, range, offset, pageFrom, options.groupRows);
    if (rows) return { entries: rows.sort(compareAll).map(toEntryWithUser), total: Number(rows[0]!.total) };
  }
  if (deep && !isSqlite(db)) {
    // PostgreSQL: the seek and the page in one statement (one round trip). Only a seek that
    // leaves more rows to skip than its capped list holds (or a page past the end) reads
    // them apart, below.
    const nearSkip = options.nearSkip ?? NEAR_SKIP;
    const rows = await seekingPageOf({ ranged: hasRange(options), size: checkedPageSize(options.limit), nearSkip })(
      db,
      {
        from: options.dateFrom ?? FIRST_DATE,
        to: options.dateTo ?? LAST_DATE,
        fromMonth: (options.dateFrom ?? FIRST_DATE).slice(0, 7),
        toMonth: (options.dateTo ?? LAST_DATE).slice(0, 7),
        offset,
      },
    );
    if (rows.length > 0) await runsSeekSettled(db, range, offset, Number(rows[0]!.revision), options.groupRows);
    const skipped = rows.length > 0 ? offset - Number(rows[0]!.seek_before) : Infinity;
    if (rows.length === options.limit || skipped <= nearSkip) {
      return { entries: rows.sort(compareAll).map(toEntryWithUser), total: Number(rows[0]!.total) };
    }
  }
  let seek: RunSeek | null = null;
  if (deep) {
    seek = await seekRun(db, range, offset);
    if (!seek) return { entries: [], total: await totalAlone() };
  }
  const rows = await pageFrom(seek);
  // Past the end no row carries the total.
  const total = rows.length > 0 ? Number(rows[0]!.total) : await totalAlone();
  return { entries: rows.sort(compareAll).map(toEntryWithUser), total };
}

type AllPageArgs = Omit<PageArgs, 'limit'> & { toDistance: number; rangeTo: string };

/**
 * The ids of a page of everyone's runs from the bound (date, distance) down, in everyone's
 * order (a row-value bound the index seeks to). The page's size and how far it may skip are
 * constants of the statement (compiled.ts, PageReach): PostgreSQL keeps one plan of it for
 * all values (planned per request with the LIMIT and OFFSET bound: 0.8-1.5 ms a round trip at
 * 1,000,000 runs against 0.3-0.4). A near page's ids come from a list of the index capped at
 * the skip plus the size.
 */
function runsPageIds(
  db: Executor,
  bound: { from: RawBuilder<string>; to: RawBuilder<string>; toDistance: RawBuilder<number> },
  size: number,
  reach: PageReach,
  offset: RawBuilder<number>,
) {
  const ordered = () =>
    db
      .selectFrom('entries')
      .where('entries.date', '>=', bound.from)
      .where((eb) => eb(eb.refTuple('entries.date', 'entries.distance_m'), '<=', eb.tuple(bound.to, bound.toDistance)))
      .orderBy('entries.date', 'desc')
      .orderBy('entries.distance_m', 'desc')
      .orderBy('entries.id', 'desc');
  if (reach.kind === 'first') return ordered().select('entries.id').limit(size);
  if (reach.kind === 'far') return ordered().select('entries.id').limit(size).offset(offset);
  return db
    .selectFrom(
      ordered()
        .select(['entries.id', 'entries.date', 'entries.distance_m'])
        .limit(reach.skip + size)
        .as('capped'),
    )
    .select('capped.id')
    .orderBy('capped.date', 'desc')
    .orderBy('capped.distance_m', 'desc')
    .orderBy('capped.id', 'desc')
    .limit(size)
    .offset(offset);
}

type AllPageShape = {
  ranged: boolean;
  /** Each row also carries the runs' revision (`revision`, tallies.ts runsRevision). */
  revised: boolean;
  size: number;
  reach: PageReach;
};

/** A page of everyone's runs from (to, toDistance) down (runsPageIds), with the total. */
const allPage = ({ ranged, revised, size, reach }: AllPageShape) =>
  compiled<AllPageArgs>()((db, param) => {
    const bound = { from: param('from'), to: param('to'), toDistance: param('toDistance') };
    const page = runsPageIds(db, bound, size, reach, param('offset'));
    const total = runsTotal(db, ranged ? { from: param('from'), to: param('rangeTo') } : null);
    return db
      .selectFrom(page.as('page'))
      .innerJoin('entries', 'entries.id', 'page.id')
      .innerJoin('users', 'users.id', 'entries.user_id')
      .selectAll('entries')
      .select(['users.name as user_name', total.as('total')])
      .select((revised ? runsRevision(db) : sql<number | null>`null`).as('revision'));
  });
/** The page statement of a range or not, with the revision or not, a page size and a reach (made once each). */
const allPageOf = compiledPer(
  (shape: AllPageShape) => `${shape.ranged}:${shape.revised}:${shape.size}:${reachKey(shape.reach)}`,
  allPage,
);

/**
 * PostgreSQL: a deep page of everyone's runs with its seek (tallies.ts runSeekRelation) in the
 * same statement: the page's ids from the seek's block down, a near page of at most
 * `nearSkip` (runsPageIds), skipping the rows of the block before the page; each row carries
 * the total, the rows before the block (`seek_before`) and the runs' revision. Past the end it
 * has no rows.
 */
const seekingPage = (ranged: boolean, size: number, nearSkip: number) =>
  compiled<SeekArgs>()((db, param) => {
    // The seek's bound as subqueries: parameters of the index scan, not a filter of a join.
    const bound = {
      from: param('from'),
      to: sql<string>`(select date from s)`,
      toDistance: sql<number>`(select cast((block + 1) * ${sql.lit(RUN_BLOCK_M)} - 1 as integer) from s)`,
    };
    const skip = sql<number>`(select ${param('offset')} - before from s)`;
    const page = runsPageIds(db, bound, size, { kind: 'near', skip: nearSkip }, skip);
    const total = runsTotal(db, ranged ? { from: param('from'), to: param('to') } : null);
    return db
      .with('s', (w) => w.selectFrom(runSeekRelation(param).as('seek')).selectAll())
      .selectFrom(page.as('page'))
      .innerJoin('entries', 'entries.id', 'page.id')
      .innerJoin('users', 'users.id', 'entries.user_id')
      .selectAll('entries')
      .select(['users.name as user_name', total.as('total'), sql<number>`(select before from s)`.as('seek_before')])
      .select(runsRevision(db).as('revision'));
  });
type SeekingPageShape = { ranged: boolean; size: number; nearSkip: number };
const seekingPageOf = compiledPer(
  (shape: SeekingPageShape) => `${shape.ranged}:${shape.size}:${shape.nearSkip}`,
  (shape: SeekingPageShape) => seekingPage(shape.ranged, shape.size, shape.nearSkip),
);

type RecordKind = 'fastest' | 'longest';

/**
 * The fastest and the longest run of everyone (each row's `record` says which), with its
 * runner's name: both in one statement, each the top of its index.
 */
const recordsOf = (db: Executor) => {
  // The run first, from the top of its index, then its runner: joined before the LIMIT,
  // PostgreSQL plans the join for every runner (4 ms at 100,000 users instead of 0.08). The
  // constant LIMIT is written in the statement (compiled.ts), so one plan serves every run.
  const top = (kind: RecordKind, order: 'speed' | 'distance_m') =>
    db
      .selectFrom(db.selectFrom('entries').selectAll().orderBy(order, 'desc').orderBy('id', 'asc').limit(1).as('e'))
      .innerJoin('users', 'users.id', 'e.user_id')
      .selectAll('e')
      .select(['users.name as user_name', sql<RecordKind>`${sql.lit(kind)}`.as('record')]);
  return db
    .selectFrom(top('fastest', 'speed').as('fastest'))
    .selectAll()
    .unionAll(db.selectFrom(top('longest', 'distance_m').as('longest')).selectAll());
};

type RecordRow = EntryRow & { user_name: string; record: RecordKind };

/** Each record's run, ties to the lowest id (null without runs). */
function recordsIn(rows: Partial<RecordRow>[]): { fastest: EntryWithUser | null; longest: EntryWithUser | null } {
  const of = (kind: RecordKind) => {
    const row = rows.find((r) => r.record === kind);
    return row ? toEntryWithUser(row as RecordRow) : null;
  };
  return { fastest: of('fastest'), longest: of('longest') };
}

/**
 * The admin dashboard's numbers in one statement (on PostgreSQL one round trip instead of
 * two): the totals and sign-ups of signupTotals on every row, beside the record runs (one
 * row of totals alone when there is no run).
 */
const dashboardRows = signupStatement((db, param, shape) =>
  db
    .selectFrom(signupTotals(db, param, shape).as('t'))
    .leftJoin(recordsOf(db).as('r'), (join) => join.onTrue())
    .selectAll(['t', 'r']),
);

export async function totalsAndRecords(
  db: Executor,
  sinceA: string,
  sinceB: string,
): Promise<ReturnType<typeof signupsSince> & { fastest: EntryWithUser | null; longest: EntryWithUser | null }> {
  const rows = await dashboardRows(db, sinceA, sinceB);
  return { ...signupsSince(rows[0]), ...recordsIn(rows as Partial<RecordRow>[]) };
}

const runsAfter = compiled<{ userId: number; date: string; id: number; limit: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .selectAll()
    .where('user_id', '=', param('userId'))
    .where((eb) =>
      eb.or([eb('date', '>', param('date')), eb.and([eb('date', '=', param('date')), eb('id', '>', param('id'))])]),
    )
    .orderBy('date', 'asc')
    .orderBy('id', 'asc')
    .limit(param('limit')),
);

/** A runner's runs after (date, id), oldest first: the export reads them page by page. */
export async function ownRunsAfter(
  db: Executor,
  userId: number,
  after: { date: string; id: number },
  limit: number,
): Promise<Entry[]> {
  return (await runsAfter(db, { userId, date: after.date, id: after.id, limit })).map(toEntry);
}

/** SQL for time entries. Distances are stored in metres and durations in seconds. */
import { sql } from 'kysely';
import { paceMinPerKm, parseDuration, round2, roundKm } from '../../../core/time.js';
import type { EntriesSummary, Entry, EntrySort, EntryWithUser, RunKind } from '../../../core/schemas.js';
import type { EntryTrackFields } from '../../../core/tracks/analyse.js';
import { compiled, compiledPer } from '../../db/compiled.js';
import type { RunFacts } from '../../db/tallies.js';
import { isSqlite, type Executor } from '../../db/schema.js';
import { shown } from '../../db/staged.js';
// The row's mapper lives in server/db so that the webhook outbox writes a run as the API answers it.
import { toEntry, type EntryRow } from '../../db/entry-row.js';
export { toEntry, type EntryRow };

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

export function toEntryWithUser(row: EntryRow & { user_name: string }): EntryWithUser {
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

/** The most rows of one insert statement (19 values each, well under either database's limit). */
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
  'has_track',
  'elevation_gain',
  'elevation_loss',
  'avg_heart_rate',
  'max_heart_rate',
  'avg_cadence',
  'staged',
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
  runs: readonly (EntryValues & { track?: EntryTrackFields | null })[],
  nowIso: string,
  staged: number | null,
  run: (n: number, args: BatchArgs) => Promise<Row[]>,
): Promise<Row[]> {
  const stored: Row[] = [];
  let at = 0;
  while (at < runs.length) {
    let n = INSERT_BATCH;
    while (n > runs.length - at) n /= 2;
    const args: BatchArgs = {};
    for (let r = 0; r < n; r++) {
      const run = runs[at + r]!;
      const row = columns(run);
      const track = run.track ?? null;
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
        track ? 1 : 0,
        track?.elevation_gain ?? null,
        track?.elevation_loss ?? null,
        track?.avg_heart_rate ?? null,
        track?.max_heart_rate ?? null,
        track?.avg_cadence ?? null,
        staged,
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
  const rows = await insertBatches(userId, runs, nowIso, null, (n, args) => insertRows(n)(db, args));
  return rows.map(toEntry);
}

/**
 * As insertEntries, answering only the new ids (an import of many runs keeps no more); a run with
 * `track` is stored with its track's summary (the track itself is the tracks feature's to store).
 * `staged`: the import that stores them, still staged (decision 037), or null.
 */
export async function insertEntryIds(
  db: Executor,
  userId: number,
  runs: readonly (EntryValues & { track?: EntryTrackFields | null })[],
  nowIso: string,
  staged: number | null,
) {
  const rows = await insertBatches(userId, runs, nowIso, staged, (n, args) => insertIds(n)(db, args));
  return rows.map((row) => Number(row.id));
}

/** What a run's tallies depend on (db/tallies.ts). */
export function factsOf(entry: Pick<Entry, 'id' | 'user_id' | 'date' | 'distance' | 'time' | 'effort'>): RunFacts {
  return {
    id: entry.id,
    userId: entry.user_id,
    date: entry.date,
    distanceM: Math.round(entry.distance * 1000),
    seconds: parseDuration(entry.time) ?? 0,
    effort: entry.effort,
  };
}

/** What the tallies of runs just stored from their values depend on. */
export function factsOfValues(id: number, userId: number, values: EntryValues): RunFacts {
  const stored = columns(values);
  return {
    id,
    userId,
    date: stored.date,
    distanceM: stored.distance_m,
    seconds: stored.seconds,
    effort: values.effort ?? null,
  };
}

/** A run; with `lock`, its row stays locked to the end of the transaction (PostgreSQL; SQLite has one writer). */
export async function findEntryById(db: Executor, id: number, options: { lock?: boolean } = {}): Promise<Entry | null> {
  let query = db.selectFrom('entries').selectAll().where('id', '=', id).where(shown('staged'));
  if (options.lock && !isSqlite(db)) query = query.forUpdate();
  const row = await query.executeTakeFirst();
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

/** A run's track summary (CONTRACT.md §13), written with its track; its own numbers and text stay as they are. */
export async function setTrackSummary(db: Executor, id: number, fields: EntryTrackFields): Promise<void> {
  await db
    .updateTable('entries')
    .set({ has_track: 1, ...fields })
    .where('id', '=', id)
    .execute();
}

/** Deletes a run; answers it as it was, or null when it was already gone. */
export async function deleteEntry(db: Executor, id: number): Promise<Entry | null> {
  const row = await db.deleteFrom('entries').where('id', '=', id).returningAll().executeTakeFirst();
  return row ? toEntry(row) : null;
}

export interface PageOptions {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  limit: number;
  offset: number;
  /** The order of a runner's own list (CONTRACT.md §18); `-date` when absent. */
  sort?: EntrySort | undefined;
}

/** Bounds that every date lies within, for statements compiled once with a range. */
export const FIRST_DATE = '0000-00-00';
export const LAST_DATE = '9999-99-99';

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
      .where(shown('staged'))
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
export async function summaryForUser(
  db: Executor,
  userId: number,
  range: Pick<PageOptions, 'dateFrom' | 'dateTo'>,
): Promise<EntriesSummary> {
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

/**
 * A runner's own runs in one of §18's orders (date desc then id desc by default), from their
 * (user_id, ...) indexes with a plain OFFSET: a runner's history is thousands of runs at most.
 * The total is `allRuns` (the runner's entry count) without a range, else `rangeRuns` (the range's
 * summary, when the caller has it) or a sum of their days.
 */
export async function listEntriesForUser(
  db: Executor,
  userId: number,
  options: PageOptions & { allRuns: number; rangeRuns?: number },
): Promise<{ entries: Entry[]; total: number }> {
  const range = { userId, from: options.dateFrom ?? FIRST_DATE, to: options.dateTo ?? LAST_DATE };
  const rows = await ownPage(options.sort ?? '-date')(db, { ...range, limit: options.limit, offset: options.offset });
  const ranged = Boolean(options.dateFrom || options.dateTo);
  const total = !ranged ? options.allRuns : (options.rangeRuns ?? (await summaryForUser(db, userId, options)).runs);
  return { entries: rows.map(toEntry), total };
}

const shoePage = compiled<{ userId: number; shoeId: number; limit: number; offset: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .selectAll()
    .where('shoe_id', '=', param('shoeId'))
    .where('user_id', '=', param('userId'))
    .where(shown('staged'))
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

const runsAfter = compiled<{ userId: number; date: string; id: number; limit: number }>()((db, param) =>
  db
    .selectFrom('entries')
    .selectAll()
    .where('user_id', '=', param('userId'))
    .where(shown('staged'))
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

/** Gives runs a shoe (an import's runs naming a shoe it made), INSERT_BATCH runs a statement. */
export async function setShoe(db: Executor, shoeId: number, ids: readonly number[]): Promise<void> {
  for (let at = 0; at < ids.length; at += INSERT_BATCH) {
    await db
      .updateTable('entries')
      .set({ shoe_id: shoeId })
      .where('id', 'in', ids.slice(at, at + INSERT_BATCH))
      .execute();
  }
}

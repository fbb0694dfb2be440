/** Rules for runs: ownership, the date limit in the owner's zone, and the tallies every write moves. */
import type { Actor } from '../../../core/permissions.js';
import type {
  EntriesSummary,
  Entry,
  EntryBody,
  EntryListQuery,
  EntryWithUser,
  OwnEntryListQuery,
} from '../../../core/schemas.js';
import { dateInZone, parseDuration } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext, type PageWindow } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { adjustCounter } from '../../db/tallies.js';
import { invalid, notFound, requirePermission, unauthenticated } from '../../errors.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { findOwnShoe, INVALID_SHOE, shoeForRun } from '../shoes/shoes.service.js';
import { adjustEntryCount, findUserById } from '../users/users.service.js';
import * as entries from './entries.repository.js';

export type { EntryValues } from './entries.repository.js';

type Owner = Actor & { timezone: string };

/**
 * A valid body as the values of a run of `owner` (a 422 when its date is after the owner's today;
 * a caller with many runs at once passes that today, read once).
 */
export function toValues(
  ctx: AppContext,
  owner: { timezone: string },
  body: EntryBody,
  today: string = dateInZone(ctx.config.now(), owner.timezone),
): entries.EntryValues {
  if (body.date > today) throw invalid('date', 'The date must not be in the future.');
  return {
    date: body.date,
    distanceKm: body.distance,
    seconds: parseDuration(body.time) ?? 0,
    title: body.title,
    notes: body.notes,
    kind: body.kind,
    effort: body.effort,
  };
}

async function findOr404(ctx: AppContext, id: number): Promise<Entry> {
  const entry = await entries.findEntryById(ctx.db, id);
  if (!entry) throw notFound();
  return entry;
}

/**
 * A page of the caller's own runs in the order asked for, and the totals of every run of the
 * filter (CONTRACT.md §18). `ownCount` is the caller's entry count, kept on their user row.
 */
export async function listOwnEntries(
  ctx: AppContext,
  actor: Actor,
  ownCount: number,
  query: OwnEntryListQuery,
  page: PageWindow,
): Promise<{ entries: Entry[]; total: number; summary: EntriesSummary }> {
  const range = { dateFrom: query.dateFrom, dateTo: query.dateTo };
  const [list, summary] = await Promise.all([
    entries.listEntriesForUser(ctx.db, actor.id, {
      ...range,
      sort: query.sort,
      limit: page.limit,
      offset: page.offset,
      knownTotal: ownCount,
    }),
    entries.summaryForUser(ctx.db, actor.id, range),
  ]);
  return { ...list, summary };
}

/** A page of the runs of one of the caller's shoes, newest first (another's shoe is a 404). */
export async function listShoeEntries(
  ctx: AppContext,
  actor: Actor,
  shoeId: number,
  page: PageWindow,
): Promise<{ entries: Entry[]; total: number }> {
  const shoe = await findOwnShoe(ctx, actor.id, shoeId);
  const rows = await entries.listShoeEntries(ctx.db, actor.id, shoe.id, page);
  return { entries: rows, total: shoe.runs };
}

export async function listEveryonesEntries(
  ctx: AppContext,
  actor: Actor,
  query: EntryListQuery,
  page: PageWindow,
): Promise<{ entries: EntryWithUser[]; total: number }> {
  requirePermission(actor, { type: 'entry.listAll' });
  return entries.listAllEntries(ctx.db, {
    dateFrom: query.dateFrom,
    dateTo: query.dateTo,
    limit: page.limit,
    offset: page.offset,
  });
}

export async function showEntry(ctx: AppContext, actor: Actor, id: number): Promise<Entry> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  return entry;
}

/**
 * Stores runs of one user on `db` (the caller's transaction) with the tallies they move:
 * the owner's entry count and the runs counter. (Day and month buckets follow by trigger.)
 */
export function insertRuns(
  db: Executor,
  userId: number,
  runs: entries.EntryValues[],
  createdAt: string,
): Promise<Entry[]> {
  return counted(db, userId, entries.insertEntries(db, userId, runs, createdAt));
}

/**
 * As insertRuns, for many runs at once (an import): answers only the new ids, in the order of
 * `runs` (each stored run is its values with that id, created and updated at `createdAt`).
 */
export function insertManyRuns(
  db: Executor,
  userId: number,
  runs: entries.EntryValues[],
  createdAt: string,
): Promise<number[]> {
  return counted(db, userId, entries.insertEntryIds(db, userId, runs, createdAt));
}

/** Once the runs are stored, the tallies they move, once for all of them. */
async function counted<T>(db: Executor, userId: number, inserting: Promise<T[]>): Promise<T[]> {
  const stored = await inserting;
  if (stored.length > 0) {
    await adjustEntryCount(db, userId, stored.length);
    await adjustCounter(db, 'entries', stored.length);
  }
  return stored;
}

/**
 * A write that a foreign key refused: its owner was deleted meanwhile (the request's session
 * is gone: 401), or else its shoe was (422 on shoe_id).
 */
async function refusedReference(ctx: AppContext, ownerId: number, error: unknown): Promise<never> {
  if (!isForeignKeyViolation(error)) throw error;
  if (!(await findUserById(ctx, ownerId))) throw unauthenticated();
  throw invalid('shoe_id', INVALID_SHOE);
}

export async function createEntry(ctx: AppContext, actor: Owner, body: EntryBody): Promise<Entry> {
  const values = { ...toValues(ctx, actor, body), shoeId: await shoeForRun(ctx, actor.id, body.shoe_id, true) };
  try {
    const [entry] = await inTransaction(ctx, (trx) => insertRuns(trx, actor.id, [values], nowIso(ctx)));
    return entry!;
  } catch (error) {
    return refusedReference(ctx, actor.id, error);
  }
}

export async function updateEntry(ctx: AppContext, actor: Actor, id: number, body: EntryBody): Promise<Entry> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  // "Today" is the owner's today: an admin far from the runner cannot misdate their run.
  const owner = await findUserById(ctx, entry.user_id);
  const values = toValues(ctx, owner ?? { timezone: 'UTC' }, body);
  // A run keeps the shoe it has even once retired; a change must name a shoe of its owner in use.
  if (body.shoe_id !== entry.shoe_id) values.shoeId = await shoeForRun(ctx, entry.user_id, body.shoe_id, false);
  // A transaction of its own, so that a deadlock on the tallies its triggers move runs it again.
  const updated = await inTransaction(ctx, (trx) => entries.updateEntry(trx, id, values, nowIso(ctx))).catch(
    (error: unknown) => refusedReference(ctx, entry.user_id, error),
  );
  if (!updated) throw notFound();
  return updated;
}

export async function deleteEntry(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  await inTransaction(ctx, async (trx) => {
    const deleted = await entries.deleteEntry(trx, entry.id);
    if (!deleted) return;
    await adjustEntryCount(trx, deleted.userId, -1);
    await adjustCounter(trx, 'entries', -1);
  });
}

/**
 * The admin dashboard's numbers: users and runs in all, users created since each of two
 * instants, and the fastest and the longest run of everyone, in one statement.
 */
export function totalsAndRecords(
  ctx: AppContext,
  sinceA: string,
  sinceB: string,
): ReturnType<typeof entries.totalsAndRecords> {
  return entries.totalsAndRecords(ctx.db, sinceA, sinceB);
}

/** One page of a runner's runs in date then id order, after `after` (keyset paging: an export never skips rows). */
export function ownRunsAfter(
  ctx: AppContext,
  userId: number,
  after: { date: string; id: number } | null,
  limit: number,
): Promise<Entry[]> {
  return entries.ownRunsAfter(ctx.db, userId, after ?? { date: '', id: 0 }, limit);
}

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
import type { EntryTrackFields } from '../../../core/tracks/analyse.js';
import { parseDuration } from '../../../core/time.js';
import { inTransaction, nowIso, todayOf, type AppContext, type PageWindow } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import type { RunTally, TrackEffort } from '../../db/tallies.js';
import { countRuns, rebuildTallies as rebuildAllTallies } from '../../db/tallies.js';
import { invalid, notFound, requirePermission, unauthenticated } from '../../errors.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { findOwnShoe, INVALID_SHOE, shoeForRun } from '../shoes/shoes.service.js';
import { findUserById, rebuildSearchIndex } from '../users/users.service.js';
import * as entries from './entries.repository.js';
import * as everyone from './everyone.repository.js';

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
  today: string = todayOf(ctx, owner),
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

/** A run by id, whoever owns it (the caller has checked that the run is the actor's), or null. */
export function findEntry(ctx: AppContext, id: number): Promise<Entry | null> {
  return entries.findEntryById(ctx.db, id);
}

async function findOr404(ctx: AppContext, id: number): Promise<Entry> {
  const entry = await entries.findEntryById(ctx.db, id);
  if (!entry) throw notFound();
  return entry;
}

/**
 * A page of the caller's own runs in the order asked for, and the totals of every run of the
 * filter (CONTRACT.md §18), read first: the page's total is the totals' run count.
 */
export async function listOwnEntries(
  ctx: AppContext,
  actor: Actor,
  query: OwnEntryListQuery,
  page: PageWindow,
): Promise<{ entries: Entry[]; total: number; summary: EntriesSummary }> {
  const range = { dateFrom: query.dateFrom, dateTo: query.dateTo };
  const summary = await entries.summaryForUser(ctx.db, actor.id, range);
  const list = await entries.listEntriesForUser(ctx.db, actor.id, {
    ...range,
    sort: query.sort ?? '-date',
    limit: page.limit,
    offset: page.offset,
    allRuns: summary.runs,
    rangeRuns: summary.runs,
  });
  return { ...list, summary };
}

/**
 * A page of one user's runs, as `GET /entry` answers their own (order, range and totals), for the
 * admin's user page: an admin reads anyone's (§5), a user their own; an unknown user is a 404.
 */
export async function listUserEntries(
  ctx: AppContext,
  actor: Actor,
  userId: number,
  query: OwnEntryListQuery,
  page: PageWindow,
): Promise<{ entries: Entry[]; total: number; summary: EntriesSummary }> {
  const owner = await findUserById(ctx, userId);
  if (!owner) throw notFound();
  requirePermission(actor, { type: 'entry.manage', ownerId: owner.id });
  return listOwnEntries(ctx, { id: owner.id, role: owner.role }, query, page);
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
  return everyone.listAllEntries(ctx.db, {
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

/** Stores runs of one user on `db` (the caller's transaction) with the tallies they move (db/tallies.ts). */
export async function insertRuns(
  db: Executor,
  userId: number,
  runs: entries.EntryValues[],
  createdAt: string,
): Promise<Entry[]> {
  const stored = await entries.insertEntries(db, userId, runs, createdAt);
  // New runs have no track yet.
  await countRuns(
    db,
    stored.map((entry) => ({ ...entries.factsOf(entry), efforts: null })),
    [],
  );
  return stored;
}

/** A run an import stores: its values, and its track's summary and best efforts when it has a track. */
export type ImportedRun = entries.EntryValues & {
  track?: { fields: EntryTrackFields; efforts: readonly TrackEffort[] | null } | null;
};

/**
 * As insertRuns, for many runs at once (an import), each with its track's summary in the same
 * row and counted once with its best efforts: answers only the new ids, in the order of `runs`;
 * the runs are counted in `tally`, which the caller finishes before its commit.
 */
export async function insertManyRuns(
  db: Executor,
  userId: number,
  runs: readonly ImportedRun[],
  createdAt: string,
  tally: RunTally,
  staged: number | null = null,
): Promise<number[]> {
  const ids = await entries.insertEntryIds(
    db,
    userId,
    runs.map((run) => ({ ...run, track: run.track?.fields ?? null })),
    createdAt,
    staged,
  );
  await tally.move(
    runs.map((run, i) => ({ ...entries.factsOfValues(ids[i]!, userId, run), efforts: run.track?.efforts ?? null })),
    [],
  );
  return ids;
}

/** An import's runs given the shoe it made for them, in its last transaction (no tally depends on a run's shoe). */
export const giveShoe = (trx: Executor, shoeId: number, ids: readonly number[]) => entries.setShoe(trx, shoeId, ids);

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
  const updated = await inTransaction(ctx, async (trx) => {
    // Read again under the run's lock: what the tallies take out is what was stored.
    const before = await entries.findEntryById(trx, id, { lock: true });
    const after = before && (await entries.updateEntry(trx, id, values, nowIso(ctx)));
    // Every edit moves the runner's insights revision (a title shows in the year in review).
    if (before && after) await countRuns(trx, [entries.factsOf(after)], [entries.factsOf(before)]);
    return after;
  }).catch((error: unknown) => refusedReference(ctx, entry.user_id, error));
  if (!updated) throw notFound();
  // A tracked run's date or distance may move it to another route (CONTRACT.md §22).
  if (updated.has_track) await ctx.memory.runs?.runsChanged(entry.user_id);
  return updated;
}

export async function deleteEntry(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  await inTransaction(ctx, async (trx) => {
    const deleted = await entries.deleteEntry(trx, entry.id);
    if (deleted) await countRuns(trx, [], [entries.factsOf(deleted)]);
  });
  if (entry.has_track) await ctx.memory.runs?.runsChanged(entry.user_id);
}

/** The admin dashboard's numbers of runs: everyone's runs in all, and the fastest and the longest run. */
export async function everyonesRuns(
  ctx: AppContext,
): Promise<{ entries: number } & Awaited<ReturnType<typeof everyone.recordsOfEveryone>>> {
  const [count, records] = await Promise.all([everyone.countAllRuns(ctx.db), everyone.recordsOfEveryone(ctx.db)]);
  return { entries: count, ...records };
}

/** Every tally of runs, and the users search index, recomputed from the rows (the seed, the repair command). */
export async function rebuildTallies(ctx: AppContext): Promise<void> {
  await inTransaction(ctx, async (trx) => {
    await rebuildAllTallies(trx);
    await rebuildSearchIndex(trx);
  });
}

/**
 * A run's track stored, on `db` (the transaction that stores it): the run gains the track's
 * summary, and counts for records through the track's best efforts when it has distances (§15:
 * `efforts`, null without distances), its runner's insights moving with it.
 */
export async function trackStored(
  db: Executor,
  entryId: number,
  fields: EntryTrackFields,
  efforts: readonly TrackEffort[] | null,
): Promise<void> {
  const entry = await entries.findEntryById(db, entryId, { lock: true });
  if (!entry) return;
  await entries.setTrackSummary(db, entryId, fields);
  const facts = entries.factsOf(entry);
  await countRuns(db, [{ ...facts, efforts }], [facts]);
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

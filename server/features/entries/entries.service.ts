/** Rules for time entries: ownership, the date limit in the user's zone, pagination. */
import type { Actor } from '../../../core/permissions.js';
import type { Entry, EntryBody, EntryListQuery, EntryWithUser } from '../../../core/schemas.js';
import { dateInZone, parseDuration } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { invalid, notFound } from '../../http/errors.js';
import type { PageRequest } from '../../http/pagination.js';
import { requirePermission } from '../../http/policy.js';
import { readCounters } from '../system/counters.repository.js';
import { findUserById } from '../users/users.repository.js';
import * as entries from './entries.repository.js';

type Owner = Actor & { timezone: string };

function toValues(ctx: AppContext, owner: { timezone: string }, body: EntryBody): entries.EntryValues {
  const today = dateInZone(ctx.config.now(), owner.timezone);
  if (body.date > today) throw invalid('date', 'The date must not be in the future.');
  return { date: body.date, distanceKm: body.distance, seconds: parseDuration(body.time) ?? 0 };
}

async function findOr404(ctx: AppContext, id: number): Promise<Entry> {
  const entry = await entries.findEntryById(ctx.db, id);
  if (!entry) throw notFound();
  return entry;
}

/** `ownCount` is the caller's entry count, kept on their user row. */
export async function listOwnEntries(
  ctx: AppContext,
  actor: Actor,
  ownCount: number,
  query: EntryListQuery,
  page: PageRequest,
): Promise<{ entries: Entry[]; total: number }> {
  return entries.listEntriesForUser(ctx.db, actor.id, {
    dateFrom: query.dateFrom,
    dateTo: query.dateTo,
    limit: page.limit,
    offset: page.offset,
    knownTotal: ownCount,
  });
}

export async function listEveryonesEntries(
  ctx: AppContext,
  actor: Actor,
  query: EntryListQuery,
  page: PageRequest,
): Promise<{ entries: EntryWithUser[]; total: number }> {
  requirePermission(actor, { type: 'entry.listAll' });
  return entries.listAllEntries(ctx.db, {
    dateFrom: query.dateFrom,
    dateTo: query.dateTo,
    limit: page.limit,
    offset: page.offset,
    knownTotal: query.dateFrom || query.dateTo ? 0 : (await readCounters(ctx.db)).entries,
  });
}

export async function showEntry(ctx: AppContext, actor: Actor, id: number): Promise<Entry> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  return entry;
}

export async function createEntry(ctx: AppContext, actor: Owner, body: EntryBody): Promise<Entry> {
  const values = toValues(ctx, actor, body);
  return inTransaction(ctx, (trx) => entries.insertEntry(trx, actor.id, values, nowIso(ctx)));
}

export async function updateEntry(ctx: AppContext, actor: Actor, id: number, body: EntryBody): Promise<Entry> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  // "Today" is the owner's today: an admin far from the runner cannot misdate their run.
  const owner = await findUserById(ctx.db, entry.user_id);
  const values = toValues(ctx, owner ?? { timezone: 'UTC' }, body);
  const updated = await entries.updateEntry(ctx.db, id, values, nowIso(ctx));
  if (!updated) throw notFound();
  return updated;
}

export async function deleteEntry(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const entry = await findOr404(ctx, id);
  requirePermission(actor, { type: 'entry.manage', ownerId: entry.user_id });
  await inTransaction(ctx, (trx) => entries.deleteEntry(trx, entry));
}

/**
 * Shoes (CONTRACT.md §11) and the rule of §8's `shoe_id`: one of the owner's shoes, not retired.
 * A runner sees and changes only their own shoes (another's is a 404, whatever the role); at
 * most one is the default, and a retired shoe is never it.
 */
import type { Actor } from '../../../core/permissions.js';
import {
  MAX_SHOES,
  RETIRED_NOT_DEFAULT,
  TOO_MANY_SHOES,
  type Shoe,
  type ShoeBody,
  type ShoeUpdateBody,
} from '../../../core/shoes.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { queueShoeCleared } from '../../db/webhook-outbox.js';
import { lockRunner } from '../../db/locks.js';
import { moveAnswerRevision } from '../../db/tallies.js';
import type { Executor } from '../../db/schema.js';
import { invalid, notFound } from '../../errors.js';
import * as shoes from './shoes.repository.js';

export const INVALID_SHOE = 'The selected shoe is invalid.';

/**
 * The shoe a run of `ownerId` may be given: `requested` when it is the owner's and not
 * retired (else a 422 on shoe_id), null to clear; when absent on a new run, the owner's
 * default shoe.
 */
export async function shoeForRun(
  ctx: AppContext,
  ownerId: number,
  requested: number | null | undefined,
  newRun: boolean,
): Promise<number | null | undefined> {
  if (requested === undefined) return newRun ? shoes.findDefaultShoeId(ctx.db, ownerId) : undefined;
  if (requested === null) return null;
  const shoe = await shoes.findShoeRef(ctx.db, requested);
  if (!shoe || shoe.userId !== ownerId || shoe.retired) throw invalid('shoe_id', INVALID_SHOE);
  return shoe.id;
}

/** A runner's shoes in their API shape, oldest first (also what an export lists). */
export function listShoes(ctx: AppContext, userId: number): Promise<Shoe[]> {
  return shoes.listShoes(ctx.db, userId);
}

/** One of the runner's shoes in its API shape (another's, or none, is a 404). */
export async function findOwnShoe(ctx: AppContext, userId: number, id: number): Promise<Shoe> {
  const shoe = await shoes.findShoe(ctx.db, userId, id);
  if (!shoe) throw notFound();
  return shoe;
}

function valuesOf(body: ShoeUpdateBody): shoes.ShoeValues {
  return {
    name: body.name,
    brand: body.brand,
    limitKm: body.limit_km,
    startKm: body.start_km,
    retired: body.retired,
    // Retiring a shoe unsets its default.
    isDefault: body.retired === true ? false : body.is_default,
  };
}

/** Inserts a shoe of `userId` on `trx` (locked by lockRunner), keeping the count and the one default. */
async function insertOwnShoe(trx: Executor, userId: number, body: ShoeBody, createdAt: string): Promise<Shoe> {
  if ((await shoes.countShoes(trx, userId)) >= MAX_SHOES) throw invalid('shoe', TOO_MANY_SHOES);
  if (body.is_default) await shoes.unsetDefault(trx, userId);
  return shoes.insertShoe(trx, userId, valuesOf(body), createdAt);
}

export function createShoe(ctx: AppContext, actor: Actor, body: ShoeBody): Promise<Shoe> {
  return inTransaction(ctx, async (trx) => {
    await lockRunner(trx, actor.id);
    return insertOwnShoe(trx, actor.id, body, nowIso(ctx));
  });
}

export function updateShoe(ctx: AppContext, actor: Actor, id: number, body: ShoeUpdateBody): Promise<Shoe> {
  return inTransaction(ctx, async (trx) => {
    await lockRunner(trx, actor.id);
    const shoe = await shoes.findShoeRef(trx, id);
    if (!shoe || shoe.userId !== actor.id) throw notFound();
    const values = valuesOf(body);
    if (values.isDefault) {
      if (values.retired ?? shoe.retired) throw invalid('is_default', RETIRED_NOT_DEFAULT);
      await shoes.unsetDefault(trx, actor.id, id);
    }
    const updated = await shoes.updateShoe(trx, actor.id, id, values, nowIso(ctx));
    if (!updated) throw notFound();
    return updated;
  });
}

/** Deletes one of the runner's shoes; its runs stay, without a shoe (so the runner's answer revision moves). */
export async function deleteShoe(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await inTransaction(ctx, async (trx) => {
    await lockRunner(trx, actor.id);
    // Its runs lose their shoe: their webhooks hear `run.updated` (db/webhook-outbox.ts).
    await queueShoeCleared(trx, actor.id, id, nowIso(ctx));
    if (!(await shoes.deleteShoe(trx, actor.id, id))) throw notFound();
    await moveAnswerRevision(trx, [actor.id]);
  });
}

/**
 * Which of an import's shoes become the runner's: each name the runner has no shoe of yet, once,
 * while the runner has fewer than MAX_SHOES; the others past that are left out (§18), and the
 * import's runs still come in. The same rule for the dry run and the import itself.
 */
function planShoes<T extends { body: ShoeBody }>(
  existing: readonly { name: string }[],
  incoming: readonly T[],
): { create: T[]; left: T[] } {
  const names = new Set(existing.map((shoe) => shoe.name));
  const create: T[] = [];
  const left: T[] = [];
  for (const shoe of incoming) {
    if (names.has(shoe.body.name)) continue;
    if (existing.length + create.length >= MAX_SHOES) {
      left.push(shoe);
      continue;
    }
    names.add(shoe.body.name);
    create.push(shoe);
  }
  return { create, left };
}

/** What importShoes would do, without a transaction: the runner's shoes by name, and the shoes it would leave out. */
export async function previewImportedShoes<T extends { body: ShoeBody }>(
  ctx: AppContext,
  userId: number,
  incoming: readonly T[],
): Promise<{ byName: Map<string, number>; left: T[] }> {
  const existing = await shoes.listShoes(ctx.db, userId);
  return { byName: new Map(existing.map((shoe) => [shoe.name, shoe.id])), left: planShoes(existing, incoming).left };
}

/**
 * An import's shoes (the JSON export's `shoes`), on the importer's transaction `trx`: each
 * name the runner has no shoe of yet becomes a new shoe (as active, without the default,
 * which stays the runner's own choice unless they have none), up to MAX_SHOES. Answers every
 * shoe of the runner by name, for matching the runs' `shoe` to an id, and the shoes left out.
 */
export async function importShoes<T extends { body: ShoeBody }>(
  trx: Executor,
  userId: number,
  incoming: readonly T[],
  createdAt: string,
): Promise<{ byName: Map<string, number>; left: T[] }> {
  await lockRunner(trx, userId);
  const existing = await shoes.listShoes(trx, userId);
  const byName = new Map(existing.map((shoe) => [shoe.name, shoe.id]));
  const { create, left } = planShoes(existing, incoming);
  let hasDefault = (await shoes.findDefaultShoeId(trx, userId)) !== null;
  for (const { body } of create) {
    const makeDefault = Boolean(body.is_default) && !body.retired && !hasDefault;
    const shoe = await insertOwnShoe(trx, userId, { ...body, is_default: makeDefault }, createdAt);
    hasDefault ||= makeDefault;
    byName.set(shoe.name, shoe.id);
  }
  return { byName, left };
}

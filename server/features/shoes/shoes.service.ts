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
import { lockRunner } from '../../db/locks.js';
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

/** Deletes one of the runner's shoes; its runs stay, without a shoe. */
export async function deleteShoe(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  if (!(await shoes.deleteShoe(ctx.db, actor.id, id))) throw notFound();
}

/**
 * An import's shoes (the JSON export's `shoes`), on the importer's transaction `trx`: each
 * name the runner has no shoe of yet becomes a new shoe (as active, without the default,
 * which stays the runner's own choice unless they have none). Answers every shoe of the
 * runner by name, for matching the runs' `shoe` to an id.
 */
export async function importShoes(
  trx: Executor,
  userId: number,
  incoming: ShoeBody[],
  createdAt: string,
): Promise<Map<string, number>> {
  await lockRunner(trx, userId);
  const byName = new Map((await shoes.listShoes(trx, userId)).map((shoe) => [shoe.name, shoe.id]));
  let hasDefault = (await shoes.findDefaultShoeId(trx, userId)) !== null;
  for (const body of incoming) {
    if (byName.has(body.name)) continue;
    const makeDefault = Boolean(body.is_default) && !body.retired && !hasDefault;
    const shoe = await insertOwnShoe(trx, userId, { ...body, is_default: makeDefault }, createdAt);
    hasDefault ||= makeDefault;
    byName.set(shoe.name, shoe.id);
  }
  return byName;
}

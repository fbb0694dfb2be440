/** Shoes (CONTRACT.md §11) and the rule of §8's `shoe_id`: one of the owner's shoes, not retired. */
import type { AppContext } from '../../context.js';
import { invalid } from '../../errors.js';
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

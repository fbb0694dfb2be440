import { countSignUp } from '../db/tallies.js';
import type { Executor } from '../db/schema.js';
import * as users from '../features/users/users.repository.js';

/**
 * Deletes an account without runs as the service does, in one transaction: the row (and its
 * search text), then one fewer sign-up on its day. Nothing for an account already gone.
 */
export async function removeAccount(db: Executor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('users').select('created_at').where('id', '=', id).executeTakeFirst();
    if (row && (await users.deleteUser(trx, id))) await countSignUp(trx, row.created_at, -1);
  });
}

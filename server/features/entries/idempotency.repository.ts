/**
 * SQL for the `Idempotency-Key`s of `POST /entry` (migration 028, decision 047): a key is claimed
 * by the transaction that creates its run, which then keeps the answer under it.
 */
import type { Executor } from '../../db/schema.js';

/** An answer as it was sent: its status and its JSON body. */
export interface KeptAnswer {
  status: number;
  body: string;
}

/** The answer kept under a user's key since `since` (ISO), or null. */
export async function findKeptAnswer(
  db: Executor,
  userId: number,
  key: string,
  since: string,
): Promise<KeptAnswer | null> {
  const row = await db
    .selectFrom('entry_idempotency_keys')
    .select(['status', 'body'])
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return row ? { status: Number(row.status), body: row.body } : null;
}

/**
 * Claims a user's key for the calling transaction: true when it was free (an expired use of it is
 * dropped first). A transaction of the same key under way elsewhere makes this wait for its end
 * (PostgreSQL: the conflicting insert waits; SQLite: one writer at a time); false once it took it.
 */
export async function claimKey(
  db: Executor,
  userId: number,
  key: string,
  createdAt: string,
  since: string,
): Promise<boolean> {
  await db
    .deleteFrom('entry_idempotency_keys')
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .where('created_at', '<', since)
    .execute();
  const claimed = await db
    .insertInto('entry_idempotency_keys')
    .values({ user_id: userId, idempotency_key: key, status: 0, body: '', created_at: createdAt })
    .onConflict((conflict) => conflict.columns(['user_id', 'idempotency_key']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Keeps the answer of a claimed key (in the transaction that claimed it). */
export async function keepAnswer(db: Executor, userId: number, key: string, answer: KeptAnswer): Promise<void> {
  await db
    .updateTable('entry_idempotency_keys')
    .set({ status: answer.status, body: answer.body })
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Drops every key used before `before` (ISO): the daily purge. Answers how many went. */
export async function purgeKeysBefore(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('entry_idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Access tokens: random, stored only as a SHA-256 hash. */
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';
import { toUserRecord, type UserRecord } from './users.repository.js';

export async function insertToken(db: Executor, userId: number, tokenHash: string, nowIso: string): Promise<void> {
  await db
    .insertInto('tokens')
    .values({ user_id: userId, token_hash: tokenHash, created_at: nowIso, last_used_at: nowIso })
    .execute();
}

/** Runs on every authenticated request: built and compiled once. */
const tokenOwner = compiled<{ tokenHash: string }>()((db, param) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('users')
    .select(['tokens.id as token_id', 'tokens.last_used_at as token_last_used_at'])
    .where('tokens.token_hash', '=', param('tokenHash')),
);

export async function findTokenOwner(
  db: Executor,
  tokenHash: string,
): Promise<{ tokenId: number; lastUsedAt: string; user: UserRecord } | null> {
  const [row] = await tokenOwner(db, { tokenHash });
  if (!row) return null;
  return { tokenId: Number(row.token_id), lastUsedAt: row.token_last_used_at, user: toUserRecord(row) };
}

export async function touchToken(db: Executor, tokenId: number, nowIso: string): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: nowIso }).where('id', '=', tokenId).execute();
}

export async function deleteToken(db: Executor, tokenId: number): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', tokenId).execute();
}

/** Revokes all of a user's tokens, except one if given. */
export async function deleteUserTokens(db: Executor, userId: number, exceptTokenId?: number): Promise<void> {
  let query = db.deleteFrom('tokens').where('user_id', '=', userId);
  if (exceptTokenId !== undefined) query = query.where('id', '<>', exceptTokenId);
  await query.execute();
}

export async function deleteIdleTokens(db: Executor, idleBeforeIso: string): Promise<void> {
  await db.deleteFrom('tokens').where('last_used_at', '<', idleBeforeIso).execute();
}

/** SQL for the tokens of mailed links (migration 029): only their hash, used once, until they expire. */
import type { Role } from '../../../core/schemas.js';
import type { AccountLinkPurpose, Executor } from '../../db/schema.js';

export type { AccountLinkPurpose };

export interface NewLink {
  tokenHash: string;
  purpose: AccountLinkPurpose;
  userId: number | null;
  email: string;
  role: Role | null;
  createdAt: string;
  expiresAt: string;
}

export interface UsedLink {
  userId: number | null;
  email: string;
  role: Role | null;
}

export async function insertLink(db: Executor, link: NewLink): Promise<void> {
  await db
    .insertInto('account_links')
    .values({
      token_hash: link.tokenHash,
      purpose: link.purpose,
      user_id: link.userId,
      email: link.email,
      role: link.role,
      created_at: link.createdAt,
      expires_at: link.expiresAt,
    })
    .execute();
}

/**
 * Uses a link: marks it used if it is of that purpose, unused and unexpired, in one statement
 * (two requests with one token: one wins). Null for an unknown, used or expired token.
 */
export async function useLink(
  db: Executor,
  tokenHash: string,
  purpose: AccountLinkPurpose,
  nowIso: string,
): Promise<UsedLink | null> {
  const row = await db
    .updateTable('account_links')
    .set({ used_at: nowIso })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .returning(['user_id', 'email', 'role'])
    .executeTakeFirst();
  return row ? { userId: row.user_id === null ? null : Number(row.user_id), email: row.email, role: row.role } : null;
}

/** The link a token would use now, without using it; null when it would be refused. */
export async function peekLink(
  db: Executor,
  tokenHash: string,
  purpose: AccountLinkPurpose,
  nowIso: string,
): Promise<UsedLink | null> {
  const row = await db
    .selectFrom('account_links')
    .select(['user_id', 'email', 'role'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return row ? { userId: row.user_id === null ? null : Number(row.user_id), email: row.email, role: row.role } : null;
}

/** How many links of a purpose a user was sent since an instant (the reset's 3 an hour). */
export async function countLinksSince(
  db: Executor,
  userId: number,
  purpose: AccountLinkPurpose,
  sinceIso: string,
): Promise<number> {
  const row = await db
    .selectFrom('account_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', sinceIso)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ends a user's unused links of a purpose (a newer e-mail change replaces an older one). */
export async function retireLinks(db: Executor, userId: number, purpose: AccountLinkPurpose, nowIso: string) {
  await db
    .updateTable('account_links')
    .set({ used_at: nowIso })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Housekeeping: links that expired before an instant. */
export async function deleteExpiredLinks(db: Executor, beforeIso: string): Promise<void> {
  await db.deleteFrom('account_links').where('expires_at', '<', beforeIso).execute();
}

/**
 * Access tokens: random, stored only as a SHA-256 hash. Sign-in tokens (login, registration)
 * expire when idle; personal API tokens (CONTRACT.md §11) carry a name, a scope and an
 * optional expiry instead.
 */
import { sql, type Selectable } from 'kysely';
import type { PersonalToken, TokenScope } from '../../../core/tokens.js';
import { batchedLookup, type BatchedLookup } from '../../db/batched.js';
import { compiled } from '../../db/compiled.js';
import { isSqlite, type Executor, type TokenKind, type TokensTable } from '../../db/schema.js';
import { toUserRecord, type UserRecord } from './users.repository.js';

export type { TokenKind } from '../../db/schema.js';

export async function insertToken(db: Executor, userId: number, tokenHash: string, nowIso: string): Promise<void> {
  await db
    .insertInto('tokens')
    .values({ user_id: userId, token_hash: tokenHash, created_at: nowIso, last_used_at: nowIso })
    .execute();
}

export interface NewPersonalToken {
  userId: number;
  tokenHash: string;
  name: string;
  scope: TokenScope;
  createdAt: string;
  expiresAt: string | null;
}

function toPersonalToken(
  row: Pick<Selectable<TokensTable>, 'id' | 'name' | 'scope' | 'created_at' | 'last_used_at' | 'expires_at'>,
): PersonalToken {
  return {
    id: Number(row.id),
    name: row.name ?? '',
    scope: row.scope ?? 'read',
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
  };
}

const PERSONAL_COLUMNS = ['id', 'name', 'scope', 'created_at', 'last_used_at', 'expires_at'] as const;

export async function insertPersonalToken(db: Executor, token: NewPersonalToken): Promise<PersonalToken> {
  const row = await db
    .insertInto('tokens')
    .values({
      user_id: token.userId,
      token_hash: token.tokenHash,
      kind: 'personal',
      name: token.name,
      scope: token.scope,
      created_at: token.createdAt,
      last_used_at: null,
      expires_at: token.expiresAt,
    })
    .returning(PERSONAL_COLUMNS)
    .executeTakeFirstOrThrow();
  return toPersonalToken(row);
}

/** A user's personal tokens, newest first (their sign-in tokens are never listed). */
const personalTokensOf = compiled<{ userId: number }>()((db, param) =>
  db
    .selectFrom('tokens')
    .select(PERSONAL_COLUMNS)
    .where('user_id', '=', param('userId'))
    .where('kind', '=', 'personal')
    .orderBy('id', 'desc'),
);

export async function listPersonalTokens(db: Executor, userId: number): Promise<PersonalToken[]> {
  return (await personalTokensOf(db, { userId })).map(toPersonalToken);
}

/** Deletes one of a user's personal tokens; false when they have none of that id. */
export async function deletePersonalToken(db: Executor, userId: number, tokenId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('tokens')
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'personal')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * A token's owner, the token's own columns and the owner's answer revision (none before their
 * first write; the one read of it, which keys the answer cache: decision 034): every authenticated
 * request reads them, before anything else.
 */
const ownerColumns = (db: Executor) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .leftJoin('insight_revisions', 'insight_revisions.user_id', 'users.id')
    .selectAll('users')
    .select('insight_revisions.revision as revision')
    .select([
      'tokens.token_hash as token_hash',
      'tokens.id as token_id',
      'tokens.kind as token_kind',
      'tokens.scope as token_scope',
      'tokens.last_used_at as token_last_used_at',
      'tokens.expires_at as token_expires_at',
    ]);

const tokenOwner = compiled<{ tokenHash: string }>()((db, param) =>
  ownerColumns(db).where('tokens.token_hash', '=', param('tokenHash')),
);

/** Several tokens' owners in one statement (PostgreSQL: an array parameter). */
const tokenOwners = compiled<{ tokenHashes: string[] }>()((db, param) =>
  ownerColumns(db).where(sql<boolean>`${sql.ref('tokens.token_hash')} = any(${param('tokenHashes')})`),
);

type OwnerRow = Awaited<ReturnType<typeof tokenOwner>>[number];

/**
 * PostgreSQL: a lookup of tokens' owners whose simultaneous calls share one statement
 * (db/batched.ts), made once per app (AppContext.memory.tokenOwners).
 */
export function batchedTokenOwners(db: Executor): BatchedLookup<string, OwnerRow> | null {
  if (isSqlite(db)) return null;
  return batchedLookup(async (tokenHashes: string[]) => {
    const rows = await tokenOwners(db, { tokenHashes });
    return new Map(rows.map((row) => [row.token_hash, row]));
  });
}

async function ownerRow(
  db: Executor,
  tokenHash: string,
  batched: BatchedLookup<string, unknown> | null,
): Promise<OwnerRow | undefined> {
  // SQLite answers in the same process: nothing to save. A transaction keeps its own statements.
  if (!batched || db.isTransaction) return (await tokenOwner(db, { tokenHash }))[0];
  return (await batched(tokenHash)) as OwnerRow | undefined;
}

export interface TokenOwner {
  tokenId: number;
  kind: TokenKind;
  /** Personal tokens only. */
  scope: TokenScope | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  user: UserRecord;
  /** The owner's answer revision when the token was read (0 before their first write). */
  revision: number;
}

/** The owner of a token, through the app's batched lookup when it has one. */
export async function findTokenOwner(
  db: Executor,
  tokenHash: string,
  batched: BatchedLookup<string, unknown> | null = null,
): Promise<TokenOwner | null> {
  const row = await ownerRow(db, tokenHash, batched);
  if (!row) return null;
  return {
    tokenId: Number(row.token_id),
    kind: row.token_kind,
    scope: row.token_scope,
    lastUsedAt: row.token_last_used_at,
    expiresAt: row.token_expires_at,
    user: toUserRecord(row),
    revision: Number(row.revision ?? 0),
  };
}

export async function touchToken(db: Executor, tokenId: number, nowIso: string): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: nowIso }).where('id', '=', tokenId).execute();
}

export async function deleteToken(db: Executor, tokenId: number): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', tokenId).execute();
}

/** Revokes all of a user's tokens, sign-in and personal, except one if given. */
export async function deleteUserTokens(db: Executor, userId: number, exceptTokenId?: number): Promise<void> {
  let query = db.deleteFrom('tokens').where('user_id', '=', userId);
  if (exceptTokenId !== undefined) query = query.where('id', '<>', exceptTokenId);
  await query.execute();
}

/** Sign-in tokens idle since before the given instant (personal tokens never idle-expire). */
export async function deleteIdleTokens(db: Executor, idleBeforeIso: string): Promise<void> {
  await db.deleteFrom('tokens').where('last_used_at', '<', idleBeforeIso).where('kind', '=', 'sign-in').execute();
}

/** Personal tokens whose expiry has passed. */
export async function deleteExpiredTokens(db: Executor, nowIso: string): Promise<void> {
  await db.deleteFrom('tokens').where('expires_at', '<=', nowIso).execute();
}

/** SQL for two-factor sign-in (migration 030): each user's secret, recovery codes and challenges. */
import type { Executor } from '../../db/schema.js';

export interface SecretRecord {
  secret: string;
  enabled: boolean;
  lastStep: number;
  blockedUntil: number;
}

export async function findSecret(db: Executor, userId: number): Promise<SecretRecord | null> {
  const row = await db
    .selectFrom('two_factor_secrets')
    .select(['secret', 'enabled', 'last_step', 'blocked_until'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    secret: row.secret,
    enabled: Number(row.enabled) === 1,
    lastStep: Number(row.last_step),
    blockedUntil: Number(row.blocked_until),
  };
}

/** A new secret not yet on, replacing one still being confirmed; the block of wrong codes stays. */
export async function putPendingSecret(db: Executor, userId: number, secret: string, createdAt: string): Promise<void> {
  await db
    .insertInto('two_factor_secrets')
    .values({ user_id: userId, secret, created_at: createdAt })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet((eb) => ({
        secret: eb.ref('excluded.secret'),
        created_at: eb.ref('excluded.created_at'),
        enabled: 0,
        last_step: 0,
      })),
    )
    .execute();
}

/** Turns the pending secret on, with the step of the code that confirmed it; false when it was not pending. */
export async function enable(db: Executor, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_secrets')
    .set({ enabled: 1, last_step: step })
    .where('user_id', '=', userId)
    .where('enabled', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses a time step: true only if it is later than every step used before (each code once, even racing). */
export async function useStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_secrets')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Counts a wrong code in the account's window (a window older than `windowMs` starts again); at
 * `limit` wrong codes the account is blocked until `nowMs + blockMs` and the count starts again.
 * Returns the end of the block (0 when none). Atomic on both databases.
 */
export async function recordFailure(
  db: Executor,
  userId: number,
  nowMs: number,
  rule: { windowMs: number; limit: number; blockMs: number },
): Promise<number> {
  const expired = nowMs - rule.windowMs;
  const counted = await db
    .updateTable('two_factor_secrets')
    .set((eb) => ({
      failures: eb
        .case()
        .when('failures_since', '<=', expired)
        .then(1)
        .else(eb('failures', '+', 1))
        .end(),
      failures_since: eb
        .case()
        .when('failures_since', '<=', expired)
        .then(eb.val(nowMs))
        .else(eb.ref('failures_since'))
        .end(),
    }))
    .where('user_id', '=', userId)
    .returning(['failures'])
    .executeTakeFirst();
  if (!counted || Number(counted.failures) < rule.limit) return 0;
  const blockedUntil = nowMs + rule.blockMs;
  await db
    .updateTable('two_factor_secrets')
    .set({ blocked_until: blockedUntil, failures: 0, failures_since: 0 })
    .where('user_id', '=', userId)
    .where('failures', '>=', rule.limit)
    .execute();
  return blockedUntil;
}

export async function clearFailures(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable('two_factor_secrets')
    .set({ failures: 0, failures_since: 0 })
    .where('user_id', '=', userId)
    .where('failures', '>', 0)
    .execute();
}

/** The secret, the recovery codes and the open challenges of a user: two-factor sign-in off. */
export async function deleteAll(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor_secrets').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
    .execute();
}

/** Uses a recovery code: true only the first time (racing requests included). */
export async function useRecoveryCode(db: Executor, userId: number, hash: string, usedAt: string): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: usedAt })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertChallenge(db: Executor, hash: string, userId: number, expiresAt: number): Promise<void> {
  await db
    .insertInto('two_factor_challenges')
    .values({ challenge_hash: hash, user_id: userId, expires_at: expiresAt })
    .execute();
}

export interface ChallengeRecord {
  userId: number;
  expiresAt: number;
}

export async function findChallenge(db: Executor, hash: string): Promise<ChallengeRecord | null> {
  const row = await db
    .selectFrom('two_factor_challenges')
    .select(['user_id', 'expires_at'])
    .where('challenge_hash', '=', hash)
    .executeTakeFirst();
  return row ? { userId: Number(row.user_id), expiresAt: Number(row.expires_at) } : null;
}

/** Counts a wrong code against a challenge; at `limit` the challenge is gone. */
export async function failChallenge(db: Executor, hash: string, limit: number): Promise<void> {
  const row = await db
    .updateTable('two_factor_challenges')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('challenge_hash', '=', hash)
    .returning(['failures'])
    .executeTakeFirst();
  if (row && Number(row.failures) >= limit) await deleteChallenge(db, hash);
}

/** Ends a challenge: true for the one request that ended it. */
export async function deleteChallenge(db: Executor, hash: string): Promise<boolean> {
  const result = await db.deleteFrom('two_factor_challenges').where('challenge_hash', '=', hash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteExpiredChallenges(db: Executor, nowMs: number): Promise<void> {
  await db.deleteFrom('two_factor_challenges').where('expires_at', '<=', nowMs).execute();
}

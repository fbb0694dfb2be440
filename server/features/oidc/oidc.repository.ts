/** Single sign-on's rows (migration 031): linked identities, sign-ins under way, callback codes. */
import type { Executor } from '../../db/schema.js';

export interface SignIn {
  browserHash: string;
  nonce: string;
  codeVerifier: string;
  expiresAt: number;
}

export async function insertSignIn(db: Executor, stateHash: string, signIn: SignIn): Promise<void> {
  await db
    .insertInto('oidc_sign_ins')
    .values({
      state_hash: stateHash,
      browser_hash: signIn.browserHash,
      nonce: signIn.nonce,
      code_verifier: signIn.codeVerifier,
      expires_at: signIn.expiresAt,
    })
    .execute();
}

/** Takes a sign-in by its state's hash, once: the delete that finds the row is the one use. */
export async function takeSignIn(db: Executor, stateHash: string): Promise<SignIn | null> {
  const row = await db
    .deleteFrom('oidc_sign_ins')
    .where('state_hash', '=', stateHash)
    .returning(['browser_hash', 'nonce', 'code_verifier', 'expires_at'])
    .executeTakeFirst();
  return row
    ? {
        browserHash: row.browser_hash,
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
        expiresAt: Number(row.expires_at),
      }
    : null;
}

export async function userOfIdentity(db: Executor, issuer: string, subject: string): Promise<number | null> {
  const row = await db
    .selectFrom('oidc_identities')
    .select('user_id')
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row ? Number(row.user_id) : null;
}

/** Links an identity to an account; an identity already linked stays with its account. */
export async function linkIdentity(
  db: Executor,
  identity: { issuer: string; subject: string; userId: number; createdAt: string },
): Promise<void> {
  await db
    .insertInto('oidc_identities')
    .values({
      issuer: identity.issuer,
      subject: identity.subject,
      user_id: identity.userId,
      created_at: identity.createdAt,
    })
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
    .execute();
}

export interface Code {
  purpose: 'login' | 'link';
  userId: number;
  issuer: string;
  subject: string;
  expiresAt: number;
}

export async function insertCode(db: Executor, codeHash: string, code: Code): Promise<void> {
  await db
    .insertInto('oidc_codes')
    .values({
      code_hash: codeHash,
      purpose: code.purpose,
      user_id: code.userId,
      issuer: code.issuer,
      subject: code.subject,
      expires_at: code.expiresAt,
    })
    .execute();
}

/** Takes a code of that purpose once (and, for a link, only by its own account). */
export async function takeCode(
  db: Executor,
  codeHash: string,
  purpose: Code['purpose'],
  userId?: number,
): Promise<Code | null> {
  let query = db.deleteFrom('oidc_codes').where('code_hash', '=', codeHash).where('purpose', '=', purpose);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const row = await query.returning(['purpose', 'user_id', 'issuer', 'subject', 'expires_at']).executeTakeFirst();
  return row
    ? {
        purpose: row.purpose,
        userId: Number(row.user_id),
        issuer: row.issuer,
        subject: row.subject,
        expiresAt: Number(row.expires_at),
      }
    : null;
}

export async function deleteExpired(db: Executor, nowMs: number): Promise<void> {
  await db.deleteFrom('oidc_sign_ins').where('expires_at', '<=', nowMs).execute();
  await db.deleteFrom('oidc_codes').where('expires_at', '<=', nowMs).execute();
}

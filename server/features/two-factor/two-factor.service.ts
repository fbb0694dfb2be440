/**
 * Two-factor sign-in (CONTRACT.md §21, decision 049): a TOTP secret turned on by a first code,
 * ten recovery codes, and the second step of a login. TOTP is RFC 6238 through otplib (SHA-1,
 * 30 s, 6 digits, steps -1 to +1); each code works once: a code's time step must be later than
 * the last one used, a recovery code is marked used. Wrong codes end a challenge after 5 and
 * block the account's second step for 15 minutes after 10 in an hour, from every address.
 */
import { createHash, randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Actor } from '../../../core/permissions.js';
import type { AuthResponse } from '../../../core/schemas.js';
import {
  isTotpShaped,
  normalizeCode,
  RECOVERY_CODE_COUNT,
  TOTP_PERIOD_SECONDS,
  type RecoveryCodes,
  type TwoFactorDisableBody,
  type TwoFactorRequired,
  type TwoFactorSetup,
  type TwoFactorSignInBody,
} from '../../../core/two-factor.js';
import { inTransaction, nowIso, type AppContext, type Session } from '../../context.js';
import { AppError, forbidden, invalid, notFound, tooManyAttempts } from '../../errors.js';
import * as accounts from '../users/users.service.js';
import * as store from './two-factor.repository.js';

export const ISSUER = 'Running Times';
export const TWO_FACTOR_SIGN_IN_ONLY = 'Personal API tokens cannot manage two-factor sign-in: sign in to do so.';
export const TWO_FACTOR_NOT_FOR_DEMO = 'Demo accounts cannot turn on two-factor sign-in.';
export const TWO_FACTOR_ALREADY_ON = 'Two-factor sign-in is already on.';
export const TWO_FACTOR_NOT_STARTED = 'Start turning on two-factor sign-in first.';
export const TWO_FACTOR_OFF = 'Two-factor sign-in is off.';
export const WRONG_CODE = 'The code is not valid.';
export const WRONG_PASSWORD = 'The password is not correct.';
export const PASSWORD_OR_CODE = 'Give your password or a code from your authenticator app.';
export const CHALLENGE_GONE = 'This sign-in has expired: sign in again with your password.';

export const CHALLENGE_MS = 5 * 60_000;
export const CHALLENGE_FAILURES = 5;
/** The account's rule: 10 wrong codes within an hour block its second step for 15 minutes. */
export const ACCOUNT_RULE = { windowMs: 3_600_000, limit: 10, blockMs: 15 * 60_000 };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `xxxxx-xxxxx` of [a-z0-9] from crypto randomness; bytes of 252 and above are drawn again (no modulo bias). */
export function newRecoveryCode(): string {
  let code = '';
  while (code.length < 10) {
    for (const byte of randomBytes(16)) {
      if (byte >= 252) continue;
      code += ALPHABET[byte % 36];
      if (code.length === 10) break;
    }
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

async function requireSignIn(ctx: AppContext, session: Session): Promise<void> {
  if (session.scope !== 'full') throw forbidden(TWO_FACTOR_SIGN_IN_ONLY);
}

/** The time step of a TOTP code valid now (steps -1 to +1), or null. */
export async function matchingStep(ctx: AppContext, secret: string, code: string): Promise<number | null> {
  if (!isTotpShaped(code)) return null;
  const epoch = Math.floor(ctx.config.now().getTime() / 1000);
  // A tolerance of one period either side of now covers exactly the steps -1, 0 and +1.
  const result = await verify({ secret, token: code, epoch, epochTolerance: TOTP_PERIOD_SECONDS });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** `POST /user/me/two-factor`: a new secret, not on until a code confirms it. */
export async function beginSetup(ctx: AppContext, session: Session): Promise<TwoFactorSetup> {
  await requireSignIn(ctx, session);
  const user = await accounts.findUserById(ctx, session.user.id);
  if (!user) throw notFound();
  if (user.isDemo) throw forbidden(TWO_FACTOR_NOT_FOR_DEMO);
  const current = await store.findSecret(ctx.db, user.id);
  if (current?.enabled) throw new AppError(409, TWO_FACTOR_ALREADY_ON);
  const secret = generateSecret();
  await store.putPendingSecret(ctx.db, user.id, secret, nowIso(ctx));
  return { secret, otpauth_url: generateURI({ issuer: ISSUER, label: user.email, secret }) };
}

/** `POST /user/me/two-factor/confirm`: a code of the new secret turns it on; ten recovery codes, shown once. */
export async function confirmSetup(ctx: AppContext, session: Session, code: string): Promise<RecoveryCodes> {
  await requireSignIn(ctx, session);
  const userId = session.user.id;
  const pending = await store.findSecret(ctx.db, userId);
  if (!pending) throw new AppError(409, TWO_FACTOR_NOT_STARTED);
  if (pending.enabled) throw new AppError(409, TWO_FACTOR_ALREADY_ON);
  const step = await matchingStep(ctx, pending.secret, normalizeCode(code));
  if (step === null) throw invalid('code', WRONG_CODE);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await inTransaction(ctx, async (trx) => {
    if (!(await store.enable(trx, userId, step))) throw new AppError(409, TWO_FACTOR_ALREADY_ON);
    await store.replaceRecoveryCodes(
      trx,
      userId,
      codes.map((c) => sha256(normalizeCode(c))),
    );
    await accounts.setTwoFactorFlag(trx, userId, true);
  });
  return { recovery_codes: codes };
}

/**
 * Checks a code (TOTP or recovery) of a user whose two-factor sign-in is on, and uses it. A
 * blocked account is a 429 whatever the code; a wrong code counts towards the block.
 */
async function useCode(ctx: AppContext, userId: number, secret: store.SecretRecord, code: string): Promise<boolean> {
  const nowMs = ctx.config.now().getTime();
  if (secret.blockedUntil > nowMs) throw tooManyAttempts(Math.ceil((secret.blockedUntil - nowMs) / 1000));
  const normalized = normalizeCode(code);
  let ok = false;
  if (isTotpShaped(normalized)) {
    const step = await matchingStep(ctx, secret.secret, normalized);
    ok = step !== null && (await store.useStep(ctx.db, userId, step));
  } else if (normalized.length === 10) {
    ok = await store.useRecoveryCode(ctx.db, userId, sha256(normalized), nowIso(ctx));
  }
  if (ok) await store.clearFailures(ctx.db, userId);
  else await store.recordFailure(ctx.db, userId, nowMs, ACCOUNT_RULE);
  return ok;
}

async function turnOff(ctx: AppContext, userId: number): Promise<void> {
  await inTransaction(ctx, async (trx) => {
    await store.deleteAll(trx, userId);
    await accounts.setTwoFactorFlag(trx, userId, false);
  });
}

/** `DELETE /user/me/two-factor {password | code}`: off, after the password or a current code. */
export async function disable(ctx: AppContext, session: Session, body: TwoFactorDisableBody): Promise<void> {
  await requireSignIn(ctx, session);
  const userId = session.user.id;
  const secret = await store.findSecret(ctx.db, userId);
  if (secret?.enabled) {
    const password = typeof body?.password === 'string' && body.password !== '' ? body.password : null;
    const code = typeof body?.code === 'string' && body.code.trim() !== '' ? body.code : null;
    if (password !== null) {
      if (!(await accounts.verifyCredentials(ctx, session.user.email, password))) {
        throw invalid('password', WRONG_PASSWORD);
      }
    } else if (code !== null) {
      if (!(await useCode(ctx, userId, secret, code))) throw invalid('code', WRONG_CODE);
    } else {
      throw invalid('password', PASSWORD_OR_CODE);
    }
  }
  await turnOff(ctx, userId);
}

/** `DELETE /user/{id}/two-factor`: an admin turns it off for someone who lost their device. */
export async function adminReset(ctx: AppContext, actor: Actor, session: Session, id: number): Promise<void> {
  await requireSignIn(ctx, session);
  if (actor.role !== 'admin') throw forbidden();
  if (!(await accounts.findUserById(ctx, id))) throw notFound();
  await turnOff(ctx, id);
}

/** The login's answer for a user with two-factor sign-in on: a challenge, not yet a token. */
export async function startChallenge(ctx: AppContext, userId: number): Promise<TwoFactorRequired> {
  const challenge = randomBytes(32).toString('base64url');
  await store.insertChallenge(ctx.db, sha256(challenge), userId, ctx.config.now().getTime() + CHALLENGE_MS);
  return { two_factor_required: true, challenge };
}

/** `POST /auth/two-factor {challenge, code}`: the login's second step; answers like a login. */
export async function completeChallenge(ctx: AppContext, body: TwoFactorSignInBody): Promise<AuthResponse> {
  const hash = sha256(body.challenge);
  const challenge = await store.findChallenge(ctx.db, hash);
  const nowMs = ctx.config.now().getTime();
  if (!challenge || challenge.expiresAt <= nowMs) throw invalid('challenge', CHALLENGE_GONE);
  const secret = await store.findSecret(ctx.db, challenge.userId);
  if (!secret?.enabled) {
    await store.deleteChallenge(ctx.db, hash);
    throw invalid('challenge', CHALLENGE_GONE);
  }
  if (!(await useCode(ctx, challenge.userId, secret, body.code))) {
    await store.failChallenge(ctx.db, hash, CHALLENGE_FAILURES);
    throw invalid('code', WRONG_CODE);
  }
  if (!(await store.deleteChallenge(ctx.db, hash))) throw invalid('challenge', CHALLENGE_GONE);
  const user = await accounts.findUserById(ctx, challenge.userId);
  if (!user) throw invalid('challenge', CHALLENGE_GONE);
  return accounts.issueToken(ctx, user);
}

/** Housekeeping: forget expired challenges. */
export async function purgeExpiredChallenges(ctx: AppContext): Promise<void> {
  await store.deleteExpiredChallenges(ctx.db, ctx.config.now().getTime());
}

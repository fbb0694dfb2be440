/** Registration, login, logout and resolving a bearer token to a user (CONTRACT.md §6). */
import { createHash, randomBytes } from 'node:crypto';
import type { AuthResponse, LoginBody, RegisterBody } from '../../../core/schemas.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { AppError, invalid, tooManyAttempts } from '../../http/errors.js';
import { emailTakenByOther, findUserByEmail, insertUser, toUser, type UserRecord } from '../users/users.repository.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import * as throttle from './throttle.repository.js';
import * as tokens from './tokens.repository.js';

export const TOKEN_IDLE_DAYS = 30;
const TOKEN_IDLE_MS = TOKEN_IDLE_DAYS * 86_400_000;
/** last_used_at is refreshed at most this often, so reads need no write. */
const TOKEN_TOUCH_MS = 60_000;
const WINDOW_MS = 60_000;
const LOGIN_LIMIT = 5;
const REGISTER_LIMIT = 10;
const BAD_CREDENTIALS = 'These credentials do not match our records.';

export const EMAIL_TAKEN = 'The email has already been taken.';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function issueToken(ctx: AppContext, user: UserRecord): Promise<AuthResponse> {
  const token = randomBytes(32).toString('base64url');
  await tokens.insertToken(ctx.db, user.id, hashToken(token), nowIso(ctx));
  return { user: toUser(user), access_token: token, token_type: 'Bearer' };
}

function retryAfterSeconds(window: throttle.Window, nowMs: number): number {
  return Math.max(1, Math.ceil((window.windowStart + WINDOW_MS - nowMs) / 1000));
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || (e?.code ?? '').startsWith('SQLITE_CONSTRAINT_UNIQUE');
}

export async function register(ctx: AppContext, body: RegisterBody, ip: string): Promise<AuthResponse> {
  const nowMs = ctx.config.now().getTime();
  const attempts = await throttle.hit(ctx.db, `register:${ip}`, nowMs, WINDOW_MS);
  if (attempts.hits > REGISTER_LIMIT) throw tooManyAttempts(retryAfterSeconds(attempts, nowMs));

  if (await emailTakenByOther(ctx.db, body.email, null)) throw invalid('email', EMAIL_TAKEN);
  const passwordHash = await hashPassword(body.password);
  try {
    const user = await inTransaction(ctx, (trx) =>
      insertUser(trx, {
        name: body.name,
        email: body.email,
        passwordHash,
        role: 'user',
        timezone: body.timezone ?? 'UTC',
        createdAt: nowIso(ctx),
      }),
    );
    return await issueToken(ctx, user);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid('email', EMAIL_TAKEN);
    throw error;
  }
}

export async function login(ctx: AppContext, body: LoginBody, ip: string): Promise<AuthResponse> {
  const email = body.email.toLowerCase();
  const key = `login:${email}|${ip}`;
  const nowMs = ctx.config.now().getTime();
  // Counted before the password is checked, so simultaneous attempts see each other.
  const attempts = await throttle.hit(ctx.db, key, nowMs, WINDOW_MS);
  if (attempts.hits > LOGIN_LIMIT) throw tooManyAttempts(retryAfterSeconds(attempts, nowMs));

  const user = await findUserByEmail(ctx.db, email);
  const valid = user ? await verifyPassword(user.passwordHash, body.password) : await verifyAgainstDummy(body.password);
  if (!user || !valid) throw new AppError(401, BAD_CREDENTIALS, { email: [BAD_CREDENTIALS] });
  await throttle.clear(ctx.db, key);
  return issueToken(ctx, user);
}

export async function logout(ctx: AppContext, tokenId: number): Promise<void> {
  await tokens.deleteToken(ctx.db, tokenId);
}

export interface Session {
  tokenId: number;
  user: UserRecord;
}

/** The session behind a bearer token, or null when it is unknown, revoked or idle too long. */
export async function authenticate(ctx: AppContext, token: string): Promise<Session | null> {
  if (token.length < 20 || token.length > 200) return null;
  const found = await tokens.findTokenOwner(ctx.db, hashToken(token));
  if (!found) return null;
  const nowMs = ctx.config.now().getTime();
  const lastUsedMs = Date.parse(found.lastUsedAt);
  if (nowMs - lastUsedMs > TOKEN_IDLE_MS) {
    await tokens.deleteToken(ctx.db, found.tokenId);
    return null;
  }
  if (nowMs - lastUsedMs > TOKEN_TOUCH_MS) await tokens.touchToken(ctx.db, found.tokenId, nowIso(ctx));
  return { tokenId: found.tokenId, user: found.user };
}

/** Housekeeping: forget idle tokens and finished throttle windows. */
export async function purgeExpired(ctx: AppContext): Promise<void> {
  const nowMs = ctx.config.now().getTime();
  await tokens.deleteIdleTokens(ctx.db, new Date(nowMs - TOKEN_IDLE_MS).toISOString());
  await throttle.deleteExpired(ctx.db, nowMs - WINDOW_MS);
}

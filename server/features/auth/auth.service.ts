/** Registration, login and logout, with attempts throttled per address (CONTRACT.md §6). */
import type { Language } from '../../../core/i18n/languages.js';
import type { LoginBody, RegisterBody, RegisterResponse } from '../../../core/schemas.js';
import type { LoginAnswer } from '../../../core/two-factor.js';
import type { AppContext, Session } from '../../context.js';
import { AppError, tooManyAttempts } from '../../errors.js';
import * as oidc from '../oidc/oidc.service.js';
import * as twoFactor from '../two-factor/two-factor.service.js';
import * as accounts from '../users/users.service.js';
import { refuseInactive, registerUnderPolicy } from './sign-up-policy.js';
import * as throttle from './throttle.repository.js';

const WINDOW_MS = 60_000;
const LOGIN_LIMIT = 5;
const REGISTER_LIMIT = 10;
const BAD_CREDENTIALS = 'These credentials do not match our records.';

function retryAfterSeconds(window: throttle.Window, nowMs: number): number {
  return Math.max(1, Math.ceil((window.windowStart + WINDOW_MS - nowMs) / 1000));
}

export async function register(
  ctx: AppContext,
  body: RegisterBody,
  ip: string,
  lang: Language = 'en',
): Promise<RegisterResponse> {
  const nowMs = ctx.config.now().getTime();
  const attempts = await throttle.hit(ctx.db, `register:${ip}`, nowMs, WINDOW_MS);
  if (attempts.hits > REGISTER_LIMIT) throw tooManyAttempts(retryAfterSeconds(attempts, nowMs));
  // SIGNUP (CONTRACT.md §21): every policy but `open` is sign-up-policy.ts's.
  if (ctx.config.signup !== 'open') return registerUnderPolicy(ctx, body, lang);
  const user = await accounts.createAccount(ctx, {
    name: body.name,
    email: body.email,
    password: body.password,
    role: 'user',
    timezone: body.timezone ?? 'UTC',
    locale: body.locale,
  });
  return accounts.issueToken(ctx, user);
}

export async function login(ctx: AppContext, body: LoginBody, ip: string): Promise<LoginAnswer> {
  const email = body.email.toLowerCase();
  const key = `login:${email}|${ip}`;
  const nowMs = ctx.config.now().getTime();
  // Counted before the password is checked, so simultaneous attempts see each other.
  const attempts = await throttle.hit(ctx.db, key, nowMs, WINDOW_MS);
  if (attempts.hits > LOGIN_LIMIT) throw tooManyAttempts(retryAfterSeconds(attempts, nowMs));
  const user = await accounts.verifyCredentials(ctx, email, body.password);
  if (!user) throw new AppError(401, BAD_CREDENTIALS, { email: [BAD_CREDENTIALS] });
  await throttle.clear(ctx.db, key);
  refuseInactive(user.status);
  // Single sign-on (§21): a waiting link is made now; OIDC_ONLY refuses all but admins.
  await oidc.checkPasswordLogin(ctx, user, body.oidc_link);
  // Two-factor sign-in (§21): the password is right; a code, not a token, comes next.
  if (user.two_factor) return twoFactor.startChallenge(ctx, user.id);
  return accounts.issueToken(ctx, user);
}

/**
 * Counts one attempt of `action` under `key` in a window; past `limit` in it, a 429 with the
 * seconds left (the mailed links' requests, CONTRACT.md §21).
 */
export async function limitAttempts(ctx: AppContext, key: string, limit: number, windowMs: number): Promise<void> {
  const nowMs = ctx.config.now().getTime();
  const attempts = await throttle.hit(ctx.db, key, nowMs, windowMs);
  if (attempts.hits > limit) {
    throw tooManyAttempts(Math.max(1, Math.ceil((attempts.windowStart + windowMs - nowMs) / 1000)));
  }
}

/** Revokes the request's sign-in token; personal API tokens survive a logout (CONTRACT.md §11). */
export function logout(ctx: AppContext, session: Session): Promise<void> {
  return accounts.revokeToken(ctx, session);
}

/** The session of a bearer token, for the requireAuth hook of http/authenticate.ts. */
export function authenticate(ctx: AppContext, token: string): Promise<Session | null> {
  return accounts.sessionOfToken(ctx, token);
}

/** Housekeeping: forget idle sign-in tokens, expired personal tokens and finished throttle windows. */
export async function purgeExpired(ctx: AppContext): Promise<void> {
  await accounts.purgeIdleTokens(ctx);
  await throttle.deleteExpired(ctx.db, ctx.config.now().getTime() - WINDOW_MS);
  await twoFactor.purgeExpiredChallenges(ctx);
  await oidc.purgeExpired(ctx);
}

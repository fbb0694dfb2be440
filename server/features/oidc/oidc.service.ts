/**
 * Single sign-on with an OpenID provider (CONTRACT.md §21, decision 051), through openid-client:
 * the authorization code flow with PKCE (S256), `state` and `nonce`; the callback's checks (state,
 * nonce, the ID token's issuer, audience, signature and expiry: openid-client's); the account of
 * the identity (linked, else linked by a verified e-mail, else new under the sign-up policy); and
 * the one-use code the web app exchanges for a login answer. Everything a sign-in keeps between
 * its requests is in the database (migration 031), so any instance may take any step.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import {
  OIDC_CODE_MS,
  OIDC_LINK_MS,
  OIDC_SIGN_IN_MS,
  type OidcError,
  type OidcExchangeBody,
} from '../../../core/oidc.js';
import type { UserStatus } from '../../../core/schemas.js';
import type { LoginAnswer } from '../../../core/two-factor.js';
import type { OidcConfig } from '../../config.js';
import { nowIso, type AppContext } from '../../context.js';
import { AppError, forbidden, invalid, notFound } from '../../errors.js';
import * as twoFactor from '../two-factor/two-factor.service.js';
import * as accounts from '../users/users.service.js';
import * as store from './oidc.repository.js';

export const OIDC_CODE_GONE = 'This sign-in code is not valid or has expired: sign in again.';
export const OIDC_ONLY_REFUSED = 'Password sign-in is off on this server: use single sign-on.';
export const OIDC_NOT_FOR_DEMO = 'Demo accounts cannot be linked to single sign-on.';
const LOGIN_UNVERIFIED = 'Please confirm your e-mail address first.';
const LOGIN_PENDING = 'Your account is waiting for approval.';

export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';
/** The cookie that ties a callback to the browser that started the sign-in. */
export const BROWSER_COOKIE = 'rt_oidc';
const SCOPE = 'openid email profile';
const DISCOVERY_TIMEOUT_S = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const randomToken = () => randomBytes(32).toString('base64url');

function settings(ctx: AppContext): OidcConfig {
  if (!ctx.config.oidc || !ctx.config.publicUrl) throw notFound();
  return ctx.config.oidc;
}

export function redirectUri(ctx: AppContext): string {
  return `${ctx.config.publicUrl ?? ''}${CALLBACK_PATH}`;
}

/**
 * The provider's configuration, discovered once it answers: a failed discovery is not kept, so
 * the next sign-in tries again (the server starts and serves while the provider is down).
 */
export function discover(ctx: AppContext): Promise<client.Configuration> {
  const oidc = settings(ctx);
  const kept = ctx.memory.oidcDiscovery;
  if (kept) return kept;
  const insecure = new URL(oidc.issuer).protocol === 'http:';
  const pending = client.discovery(
    new URL(oidc.issuer),
    oidc.clientId,
    undefined,
    client.ClientSecretBasic(oidc.clientSecret),
    {
      timeout: DISCOVERY_TIMEOUT_S,
      // The ID token's signature is checked against the provider's keys as well (§21), not only TLS.
      execute: insecure
        ? [client.allowInsecureRequests, client.enableNonRepudiationChecks]
        : [client.enableNonRepudiationChecks],
    },
  );
  ctx.memory.oidcDiscovery = pending;
  pending.catch(() => {
    if (ctx.memory.oidcDiscovery === pending) ctx.memory.oidcDiscovery = undefined;
  });
  return pending;
}

/** Where the browser goes next, and the cookie to set (start) or clear (callback). */
export interface Redirect {
  location: string;
  browser: string | null;
}

const toLogin = (ctx: AppContext, fragment: string): Redirect => ({
  location: `${ctx.config.publicUrl ?? ''}/login#${fragment}`,
  browser: null,
});
const failure = (ctx: AppContext, reason: OidcError, extra = ''): Redirect =>
  toLogin(ctx, `oidc_error=${reason}${extra}`);

/** `GET /auth/oidc/start`: a new sign-in, kept under its state's hash, and the provider's address. */
export async function start(ctx: AppContext, log: (error: unknown) => void = () => undefined): Promise<Redirect> {
  settings(ctx);
  let configuration: client.Configuration;
  try {
    configuration = await discover(ctx);
  } catch (error) {
    log(error);
    return failure(ctx, 'unavailable');
  }
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browser = randomToken();
  await store.insertSignIn(ctx.db, sha256(state), {
    browserHash: sha256(browser),
    nonce,
    codeVerifier,
    expiresAt: ctx.config.now().getTime() + OIDC_SIGN_IN_MS,
  });
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(ctx),
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { location: url.href, browser };
}

/** What the provider says of the person, once its answer passed every check. */
interface Identity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

async function identityOf(
  ctx: AppContext,
  query: string,
  signIn: store.SignIn,
  state: string,
  log: (error: unknown) => void,
): Promise<Identity | OidcError> {
  let configuration: client.Configuration;
  try {
    configuration = await discover(ctx);
  } catch {
    return 'unavailable';
  }
  try {
    const tokens = await client.authorizationCodeGrant(configuration, new URL(`${redirectUri(ctx)}?${query}`), {
      pkceCodeVerifier: signIn.codeVerifier,
      expectedState: state,
      expectedNonce: signIn.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return 'failed';
    let details: Record<string, unknown> = claims;
    if (text(claims.email) === null) {
      details = { ...(await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)), ...claims };
    }
    const email = text(details.email);
    return {
      issuer: claims.iss,
      subject: claims.sub,
      email: email && email.length <= 255 && email.includes('@') ? email.toLowerCase() : null,
      // Some providers write it as a string.
      emailVerified: details.email_verified === true || details.email_verified === 'true',
      name: text(details.name) ?? text(details.preferred_username) ?? text(details.nickname),
    };
  } catch (error) {
    log(error);
    if (error instanceof client.ClientError && error.cause instanceof TypeError) return 'unavailable';
    return 'failed';
  }
}

async function issueCode(ctx: AppContext, identity: Identity, userId: number, purpose: 'login' | 'link') {
  const code = randomToken();
  await store.insertCode(ctx.db, sha256(code), {
    purpose,
    userId,
    issuer: identity.issuer,
    subject: identity.subject,
    expiresAt: ctx.config.now().getTime() + (purpose === 'login' ? OIDC_CODE_MS : OIDC_LINK_MS),
  });
  return code;
}

/** A new account for an identity no account has, under SIGNUP (§21). */
async function newAccount(ctx: AppContext, identity: Identity & { email: string }): Promise<Redirect> {
  const policy = ctx.config.signup;
  if (policy === 'closed') return failure(ctx, 'closed');
  if (policy === 'verify' && !identity.emailVerified) return failure(ctx, 'email_unverified');
  // Under `verify` the provider has verified the address: that is the confirmation the policy asks for.
  const status: UserStatus = policy === 'approval' ? 'pending' : 'active';
  const name = (identity.name ?? identity.email.split('@')[0] ?? identity.email).slice(0, 255);
  let user: accounts.UserRecord;
  try {
    user = await accounts.createAccount(
      ctx,
      {
        name,
        email: identity.email,
        // Never typed: a password is set through a reset (with mail) or by an admin.
        password: randomToken(),
        role: 'user',
        timezone: 'UTC',
        status,
      },
      (trx, record) =>
        store.linkIdentity(trx, {
          issuer: identity.issuer,
          subject: identity.subject,
          userId: record.id,
          createdAt: nowIso(ctx),
        }),
    );
  } catch (error) {
    // The address was taken meanwhile: its account is linked only by a password; sign in again.
    if (error instanceof AppError && error.status === 422) return failure(ctx, 'expired');
    throw error;
  }
  if (status === 'pending') return failure(ctx, 'pending');
  return toLogin(ctx, `oidc=${await issueCode(ctx, identity, user.id, 'login')}`);
}

/**
 * `GET /auth/oidc/callback`: the sign-in of `state`, taken once, from the browser that started it;
 * the provider's answer checked; the account found, linked or made; the browser sent to the login
 * page with a one-use code, or with the reason it was refused.
 */
export async function callback(
  ctx: AppContext,
  query: Record<string, unknown>,
  rawQuery: string,
  browser: string | undefined,
  /** Told why a provider's answer was refused (the operator's log; the browser gets only the reason). */
  log: (error: unknown) => void = () => undefined,
): Promise<Redirect> {
  settings(ctx);
  const state = typeof query.state === 'string' ? query.state : '';
  const signIn = state ? await store.takeSignIn(ctx.db, sha256(state)) : null;
  if (!signIn || signIn.expiresAt <= ctx.config.now().getTime()) return failure(ctx, 'expired');
  if (!browser || sha256(browser) !== signIn.browserHash) return failure(ctx, 'expired');
  if (typeof query.error === 'string') return failure(ctx, 'denied');
  const identity = await identityOf(ctx, rawQuery, signIn, state, log);
  if (typeof identity === 'string') return failure(ctx, identity);

  const linked = await store.userOfIdentity(ctx.db, identity.issuer, identity.subject);
  if (linked !== null) {
    const user = await accounts.findUserById(ctx, linked);
    if (!user) return failure(ctx, 'expired');
    if (user.status === 'pending') return failure(ctx, 'pending');
    return toLogin(ctx, `oidc=${await issueCode(ctx, identity, user.id, 'login')}`);
  }
  if (!identity.email) return failure(ctx, 'no_email');
  const email = identity.email;
  const existing = await accounts.findUserByEmail(ctx, email);
  if (!existing) return newAccount(ctx, { ...identity, email });
  if (existing.isDemo) return failure(ctx, 'demo');
  const byEmail =
    identity.emailVerified && existing.status === 'active' && existing.role !== 'admin' && !existing.two_factor;
  if (!byEmail) {
    // Only the account's password may link it: the code waits for it in this browser.
    return failure(ctx, 'link', `&oidc_link=${await issueCode(ctx, identity, existing.id, 'link')}`);
  }
  await store.linkIdentity(ctx.db, { ...identity, userId: existing.id, createdAt: nowIso(ctx) });
  return toLogin(ctx, `oidc=${await issueCode(ctx, identity, existing.id, 'login')}`);
}

/**
 * `POST /auth/oidc/exchange`: a callback's code, once, within 60 s, for a login answer. A user with
 * two-factor sign-in on still gives a code: the answer is the challenge, as a password login's.
 */
export async function exchange(ctx: AppContext, body: OidcExchangeBody): Promise<LoginAnswer> {
  settings(ctx);
  const code = await store.takeCode(ctx.db, sha256(body.code), 'login');
  if (!code || code.expiresAt <= ctx.config.now().getTime()) throw invalid('code', OIDC_CODE_GONE);
  const user = await accounts.findUserById(ctx, code.userId);
  if (!user) throw invalid('code', OIDC_CODE_GONE);
  if (user.status === 'unverified') throw forbidden(LOGIN_UNVERIFIED);
  if (user.status === 'pending') throw forbidden(LOGIN_PENDING);
  if (user.two_factor) return twoFactor.startChallenge(ctx, user.id);
  return accounts.issueToken(ctx, user);
}

/**
 * A password login's part (auth.service), after the password was found right: with the code of a
 * callback that waits for this account's password, links the identity; under OIDC_ONLY, refuses
 * everyone else but admins. A code that is not this account's, spent or expired links nothing and
 * fails nothing: the browser may still hold it from an earlier sign-in.
 */
export async function checkPasswordLogin(
  ctx: AppContext,
  user: accounts.UserRecord,
  linkCode: string | undefined,
): Promise<void> {
  if (linkCode && ctx.config.oidc && ctx.config.publicUrl) {
    const code = await store.takeCode(ctx.db, sha256(linkCode), 'link', user.id);
    if (code && code.expiresAt > ctx.config.now().getTime()) {
      if (user.isDemo) throw forbidden(OIDC_NOT_FOR_DEMO);
      await store.linkIdentity(ctx.db, {
        issuer: code.issuer,
        subject: code.subject,
        userId: user.id,
        createdAt: nowIso(ctx),
      });
      return;
    }
  }
  if (ctx.config.oidc?.only && user.role !== 'admin') throw forbidden(OIDC_ONLY_REFUSED);
}

/** Housekeeping: sign-ins and codes past their time. */
export function purgeExpired(ctx: AppContext): Promise<void> {
  return store.deleteExpired(ctx.db, ctx.config.now().getTime());
}

/**
 * Single sign-on (CONTRACT.md §21): against a real oidc-provider, a new account, a link by a
 * verified e-mail, a returning user by subject, a link by password, two-factor after the provider,
 * OIDC_ONLY and the sign-up policies; against a provider that lies (issuer, audience, nonce,
 * expiry, signature), replayed states and codes, a callback from another browser, a provider
 * that is down. Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { AuthResponseSchema } from '../../../core/schemas.js';
import { TwoFactorRequiredSchema, TwoFactorSetupSchema } from '../../../core/two-factor.js';
import type { Config } from '../../config.js';
import { DEMO_LOGIN } from '../../features/demo/demo.service.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  call,
  createTestApp,
  expectError,
  expectValidation,
  nextIp,
  registerUser,
  type TestApp,
} from '../helpers.js';
import { totp } from '../two-factor/totp.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  PUBLIC_URL,
  REDIRECT_URI,
  startCertifiedProvider,
  startLyingProvider,
  throughProvider,
  type LyingProvider,
  type TestProvider,
} from './providers.js';

const CODE_GONE = 'This sign-in code is not valid or has expired: sign in again.';

let certified: Awaited<ReturnType<typeof startCertifiedProvider>>;
let liar: LyingProvider;
const apps: TestApp[] = [];

beforeAll(async () => {
  certified = await startCertifiedProvider();
  liar = await startLyingProvider();
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await certified.close();
  await liar.close();
});

async function appOf(provider: Pick<TestProvider, 'issuer'>, overrides: Partial<Config> = {}): Promise<TestApp> {
  const t = await createTestApp({
    publicUrl: PUBLIC_URL,
    oidc: { issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, name: 'Pocket ID', only: false },
    ...overrides,
  });
  apps.push(t);
  return t;
}

interface Started {
  location: string;
  cookie: string;
}

async function start(t: TestApp): Promise<Started> {
  const res = await call(t.app, 'GET', '/api/v1/auth/oidc/start');
  expect(res.statusCode).toBe(302);
  const cookie = /^(rt_oidc=[^;]+);/.exec(String(res.headers['set-cookie']))?.[1] ?? '';
  return { location: String(res.headers.location), cookie };
}

/** The callback as the browser brings it back; the login page's fragment, parsed. */
async function back(t: TestApp, callbackUrl: string, cookie: string): Promise<URLSearchParams> {
  const res = await call(t.app, 'GET', callbackUrl.slice(PUBLIC_URL.length), { headers: { cookie } });
  expect(res.statusCode).toBe(302);
  const location = String(res.headers.location);
  expect(location.startsWith(`${PUBLIC_URL}/login#`)).toBe(true);
  return new URLSearchParams(location.slice(location.indexOf('#') + 1));
}

/** A whole sign-in at the certified provider as `accountId`: the login page's fragment. */
async function signIn(t: TestApp, accountId: string): Promise<URLSearchParams> {
  certified.nextLogin = accountId;
  const started = await start(t);
  return back(t, await throughProvider(started.location), started.cookie);
}

function exchange(t: TestApp, code: string): Promise<LightMyRequestResponse> {
  return call(t.app, 'POST', '/api/v1/auth/oidc/exchange', { body: { code }, ip: nextIp() });
}

async function signedIn(t: TestApp, fragment: URLSearchParams) {
  expect(fragment.get('oidc_error')).toBeNull();
  const res = await exchange(t, fragment.get('oidc') ?? '');
  expect(res.statusCode).toBe(200);
  return AuthResponseSchema.parse(res.json());
}

describe('single sign-on against a certified provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appOf(certified);
  });

  it('shows its button in /app-config', async () => {
    const res = await call(t.app, 'GET', '/api/v1/app-config');
    expect(res.json().oidc).toEqual({ name: 'Pocket ID' });
  });

  it('starts an authorization code flow with PKCE S256, state, nonce and the PUBLIC_URL redirect URI', async () => {
    const { location, cookie } = await start(t);
    const url = new URL(location);
    expect(url.origin).toBe(certified.issuer);
    const params = url.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(CLIENT_ID);
    expect(params.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(cookie).toMatch(/^rt_oidc=[\w-]{43}$/);
  });

  it('makes a new account, then knows the returning user by subject even under a new e-mail', async () => {
    certified.people.set('new-1', { email: 'New.Runner@Example.org', email_verified: true, name: 'New Runner' });
    const first = await signedIn(t, await signIn(t, 'new-1'));
    expect(first.user).toMatchObject({ email: 'new.runner@example.org', name: 'New Runner', role: 'user' });
    const me = await call(t.app, 'GET', '/api/v1/user/me', { token: first.access_token });
    expect(me.json().id).toBe(first.user.id);

    certified.people.set('new-1', { email: 'moved@example.org', email_verified: true, name: 'New Runner' });
    const again = await signedIn(t, await signIn(t, 'new-1'));
    expect(again.user.id).toBe(first.user.id);
    expect(again.access_token).not.toBe(first.access_token);
  });

  it('links the account of a verified e-mail', async () => {
    const runner = await registerUser(t.app, { email: 'linked@example.org' });
    certified.people.set('link-1', { email: 'linked@example.org', email_verified: true });
    const answer = await signedIn(t, await signIn(t, 'link-1'));
    expect(answer.user.id).toBe(runner.user.id);
  });

  it('never takes over an account by an unverified e-mail: its password links it once', async () => {
    const runner = await registerUser(t.app, { email: 'careful@example.org' });
    const other = await registerUser(t.app);
    certified.people.set('unverified-1', { email: 'careful@example.org', email_verified: false });
    const fragment = await signIn(t, 'unverified-1');
    expect(fragment.get('oidc_error')).toBe('link');
    expect(fragment.get('oidc')).toBeNull();
    const link = fragment.get('oidc_link') ?? '';
    expect(link).toMatch(/^[\w-]{43}$/);
    // Not a login code.
    expectValidation(await exchange(t, link), 'code', CODE_GONE);
    // Another account's password neither takes it nor fails for it.
    const wrong = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: other.user.email, password: other.password, oidc_link: link },
      ip: nextIp(),
    });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json().user.id).toBe(other.user.id);
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'careful@example.org', password: runner.password, oidc_link: link },
      ip: nextIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.id).toBe(runner.user.id);
    // Once linked, the provider signs the runner in.
    expect((await signedIn(t, await signIn(t, 'unverified-1'))).user.id).toBe(runner.user.id);
    // The link code was used once: sent again (the browser still holds it), it links nothing more.
    const replay = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'careful@example.org', password: runner.password, oidc_link: link },
      ip: nextIp(),
    });
    expect(replay.statusCode).toBe(200);
    // The other account was never linked: the identity still signs in the runner.
    expect((await signedIn(t, await signIn(t, 'unverified-1'))).user.id).toBe(runner.user.id);
  });

  it('never links an admin by e-mail, even a verified one', async () => {
    certified.people.set('admin-like', { email: ADMIN_EMAIL, email_verified: true });
    const fragment = await signIn(t, 'admin-like');
    expect(fragment.get('oidc_error')).toBe('link');
  });

  it('asks a runner with two-factor sign-in for a code after the provider', async () => {
    const runner = await registerUser(t.app, { email: 'second-step@example.org' });
    const setup = TwoFactorSetupSchema.parse(
      (await call(t.app, 'POST', '/api/v1/user/me/two-factor', { token: runner.token })).json(),
    );
    const now = () => Math.floor(t.clock.now().getTime() / 1000);
    const confirm = await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', {
      token: runner.token,
      body: { code: totp(setup.secret, now(), 0) },
    });
    expect(confirm.statusCode).toBe(200);
    certified.people.set('two-factor-1', { email: 'second-step@example.org', email_verified: true });
    // Two-factor on: not linked by e-mail; the password links it.
    const fragment = await signIn(t, 'two-factor-1');
    expect(fragment.get('oidc_error')).toBe('link');
    const linked = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'second-step@example.org', password: runner.password, oidc_link: fragment.get('oidc_link') },
      ip: nextIp(),
    });
    expect(TwoFactorRequiredSchema.parse(linked.json()).two_factor_required).toBe(true);
    const res = await exchange(t, (await signIn(t, 'two-factor-1')).get('oidc') ?? '');
    expect(res.statusCode).toBe(200);
    const challenge = TwoFactorRequiredSchema.parse(res.json()).challenge;
    t.clock.advance({ seconds: 30 });
    const second = await call(t.app, 'POST', '/api/v1/auth/two-factor', {
      body: { challenge, code: totp(setup.secret, now(), 0) },
      ip: nextIp(),
    });
    expect(second.statusCode).toBe(200);
    expect(AuthResponseSchema.parse(second.json()).user.id).toBe(runner.user.id);
  });

  it('takes each state once, and only from the browser that started it', async () => {
    certified.people.set('replay-1', { email: 'replay@example.org', email_verified: true });
    certified.nextLogin = 'replay-1';
    const started = await start(t);
    const callbackUrl = await throughProvider(started.location);
    // Another browser (no cookie, or another one) is refused, and the state is spent.
    expect((await back(t, callbackUrl, 'rt_oidc=someone-else')).get('oidc_error')).toBe('expired');
    expect((await back(t, callbackUrl, started.cookie)).get('oidc_error')).toBe('expired');

    const again = await start(t);
    const url = await throughProvider(again.location);
    expect((await back(t, url, again.cookie)).get('oidc')).toMatch(/^[\w-]{43}$/);
    expect((await back(t, url, again.cookie)).get('oidc_error')).toBe('expired');
    // An unknown state, or none.
    expect((await back(t, `${REDIRECT_URI}?code=x&state=made-up`, again.cookie)).get('oidc_error')).toBe('expired');
    expect((await back(t, `${REDIRECT_URI}?code=x`, again.cookie)).get('oidc_error')).toBe('expired');
  });

  it('refuses a state older than 10 minutes', async () => {
    certified.nextLogin = 'replay-1';
    const started = await start(t);
    const url = await throughProvider(started.location);
    t.clock.advance({ minutes: 10, seconds: 1 });
    expect((await back(t, url, started.cookie)).get('oidc_error')).toBe('expired');
  });

  it('says when the runner refused at the provider', async () => {
    const started = await start(t);
    const state = new URL(started.location).searchParams.get('state') ?? '';
    const fragment = await back(t, `${REDIRECT_URI}?error=access_denied&state=${state}`, started.cookie);
    expect(fragment.get('oidc_error')).toBe('denied');
  });

  it('takes each exchange code once, within 60 seconds', async () => {
    certified.people.set('code-1', { email: 'code@example.org', email_verified: true });
    const code = (await signIn(t, 'code-1')).get('oidc') ?? '';
    expect((await exchange(t, code)).statusCode).toBe(200);
    expectValidation(await exchange(t, code), 'code', CODE_GONE);

    const late = (await signIn(t, 'code-1')).get('oidc') ?? '';
    t.clock.advance({ seconds: 61 });
    expectValidation(await exchange(t, late), 'code', CODE_GONE);
    expectValidation(await exchange(t, 'guessed'), 'code', CODE_GONE);
    const missing = await call(t.app, 'POST', '/api/v1/auth/oidc/exchange', { body: {}, ip: nextIp() });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['code']);
  });

  it('answers in the request’s language', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/oidc/exchange', {
      body: { code: 'guessed' },
      headers: { 'accept-language': 'de' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Dieser Anmeldecode ist ungültig oder abgelaufen: Melde dich erneut an.',
      errors: { code: ['Dieser Anmeldecode ist ungültig oder abgelaufen: Melde dich erneut an.'] },
    });
  });
});

describe('a provider that lies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appOf(liar);
  });

  async function lie(
    lie: LyingProvider['next']['lie'],
    person = { email: 'liar@example.org', email_verified: true },
    subject = 'liar-1',
  ) {
    liar.next = { subject, person, lie };
    const started = await start(t);
    return back(t, await throughProvider(started.location), started.cookie);
  }

  it('is believed when it tells the truth', async () => {
    expect((await lie({})).get('oidc')).toMatch(/^[\w-]{43}$/);
  });

  it.each([
    ['a wrong issuer', { iss: 'https://evil.example.org' }],
    ['a wrong audience', { aud: 'another-client' }],
    ['a wrong nonce', { nonce: 'not-the-nonce' }],
    ['an expired ID token', { expiresIn: -120 }],
    ['a signature by another key', { foreignKey: true }],
  ])('is refused for %s', async (_what, told) => {
    const fragment = await lie(told);
    expect(fragment.get('oidc_error')).toBe('failed');
    expect(fragment.get('oidc')).toBeNull();
  });

  it('never takes over an account with email_verified false', async () => {
    const runner = await registerUser(t.app, { email: 'victim@example.org' });
    const fragment = await lie({}, { email: 'victim@example.org', email_verified: false }, 'liar-3');
    expect(fragment.get('oidc_error')).toBe('link');
    // Still the runner's own account, not linked: the password alone signs in.
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'victim@example.org', password: runner.password },
      ip: nextIp(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('whose discovery names another issuer is not used', async () => {
    const other = await appOf(liar);
    liar.next = { subject: 'liar-2', person: {}, lie: { discoveryIssuer: 'https://evil.example.org' } };
    const started = await start(other);
    expect(started.location).toBe(`${PUBLIC_URL}/login#oidc_error=unavailable`);
    // Nothing failed is kept: once the provider answers right, the next sign-in uses it.
    liar.next = { subject: 'liar-2', person: {}, lie: {} };
    expect((await start(other)).location.startsWith(`${liar.issuer}/authorize?`)).toBe(true);
  });
});

describe('single sign-on settings', () => {
  it('is off without its settings: every call is a 404', async () => {
    const t = await createTestApp({ publicUrl: PUBLIC_URL });
    apps.push(t);
    expect((await call(t.app, 'GET', '/api/v1/app-config')).json().oidc).toBeNull();
    expectError(await call(t.app, 'GET', '/api/v1/auth/oidc/start'), 404);
    expectError(await call(t.app, 'GET', '/api/v1/auth/oidc/callback?state=x'), 404);
    expectError(await exchange(t, 'x'), 404);
  });

  it('starts while the provider is down, and tries again on the next sign-in', async () => {
    const t = await appOf({ issuer: 'http://127.0.0.1:9' });
    expect((await start(t)).location).toBe(`${PUBLIC_URL}/login#oidc_error=unavailable`);
    expect((await call(t.app, 'GET', '/api/health')).statusCode).toBe(200);
  });

  it('OIDC_ONLY refuses password logins after the password check, except for admins', async () => {
    const t = await appOf(certified, {
      oidc: {
        issuer: certified.issuer,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        name: 'Authelia',
        only: true,
      },
    });
    expect((await call(t.app, 'GET', '/api/v1/app-config')).json().oidc).toEqual({ name: 'Authelia', only: true });
    const runner = await registerUser(t.app);
    const refused = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: runner.password },
      ip: nextIp(),
    });
    expectError(refused, 403, 'Password sign-in is off on this server: use single sign-on.');
    const wrong = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: 'not-the-password' },
      ip: nextIp(),
    });
    expect(wrong.statusCode).toBe(401);
    const admin = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: nextIp(),
    });
    expect(admin.statusCode).toBe(200);
    // The one password login a runner still makes: the one that links the account.
    certified.people.set('only-1', { email: runner.user.email, email_verified: false });
    const link = (await signIn(t, 'only-1')).get('oidc_link');
    const linking = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: runner.password, oidc_link: link },
      ip: nextIp(),
    });
    expect(linking.statusCode).toBe(200);
    expect((await signedIn(t, await signIn(t, 'only-1'))).user.id).toBe(runner.user.id);
  });

  it('makes new accounts under the sign-up policy', async () => {
    certified.people.set('policy-1', { email: 'policy@example.org', email_verified: false });
    const closed = await appOf(certified, { signup: 'closed' });
    expect((await signIn(closed, 'policy-1')).get('oidc_error')).toBe('closed');

    const approval = await appOf(certified, { signup: 'approval' });
    expect((await signIn(approval, 'policy-1')).get('oidc_error')).toBe('pending');
    expect((await signIn(approval, 'policy-1')).get('oidc_error')).toBe('pending');
    const admin = await call(approval.app, 'POST', '/api/v1/auth/login', {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      ip: nextIp(),
    });
    const pending = await call(approval.app, 'GET', '/api/v1/user/pending', { token: admin.json().access_token });
    expect(JSON.stringify(pending.json())).toContain('policy@example.org');

    const verify = await appOf(certified, {
      signup: 'verify',
      mail: { smtpUrl: 'smtp://127.0.0.1:9', from: 'runs@example.org' },
    });
    expect((await signIn(verify, 'policy-1')).get('oidc_error')).toBe('email_unverified');
    certified.people.set('policy-2', { email: 'verified@example.org', email_verified: true });
    expect((await signedIn(verify, await signIn(verify, 'policy-2'))).user.status).toBe('active');
  });

  it('never links a demo account', async () => {
    const t = await appOf(certified, { demoMode: true });
    certified.people.set('demo-1', { email: DEMO_LOGIN.email, email_verified: true });
    expect((await signIn(t, 'demo-1')).get('oidc_error')).toBe('demo');
  });
});

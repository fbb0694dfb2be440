/**
 * Two-factor sign-in (CONTRACT.md §21): turning it on, the login's second step with a TOTP or a
 * recovery code, each code once, the challenge's and the account's limits, turning it off, the
 * admin's reset. Codes are computed by an independent TOTP (totp.ts, node:crypto), itself checked
 * against RFC 6238's SHA-1 test vectors, as is the server's verifier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCreatedSchema } from '../../../core/tokens.js';
import { AuthResponseSchema, UserSchema } from '../../../core/schemas.js';
import { RecoveryCodesSchema, TwoFactorRequiredSchema, TwoFactorSetupSchema } from '../../../core/two-factor.js';
import type { AppContext } from '../../context.js';
import { DEMO_PASSWORD } from '../../features/demo/demo.service.js';
import { matchingStep } from '../../features/two-factor/two-factor.service.js';
import {
  call,
  createTestApp,
  expectError,
  expectValidation,
  loginAdmin,
  login,
  makeManager,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { base32Decode, hotp, totp } from './totp.js';

const WRONG_CODE = 'The code is not valid.';
const CHALLENGE_GONE = 'This sign-in has expired: sign in again with your password.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
/** A code of the app's clock, `steps` steps away. */
const codeOf = (secret: string, steps = 0) => totp(secret, nowSeconds(), steps);

// RFC 6238 Appendix B, SHA-1 rows: the seed is the ASCII of "12345678901234567890".
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('the TOTP', () => {
  it('of the tests gives RFC 6238’s SHA-1 test vectors', () => {
    expect(base32Decode(RFC_SECRET)).toEqual(RFC_SEED);
    for (const [time, code] of RFC_VECTORS) {
      expect(hotp(RFC_SEED, Math.floor(time / 30), 8)).toBe(code);
      expect(totp(RFC_SECRET, time)).toBe(code.slice(2));
    }
  });

  it('of the server accepts the vectors’ 6-digit codes at their time, steps -1 to +1, and nothing else', async () => {
    for (const [time, code] of RFC_VECTORS) {
      const at = (seconds: number) => ({ config: { now: () => new Date(seconds * 1000) } }) as unknown as AppContext;
      const step = Math.floor(time / 30);
      expect(await matchingStep(at(time), RFC_SECRET, code.slice(2))).toBe(step);
      expect(await matchingStep(at(time - 30), RFC_SECRET, code.slice(2))).toBe(step);
      expect(await matchingStep(at(time + 30), RFC_SECRET, code.slice(2))).toBe(step);
      expect(await matchingStep(at(time + 60), RFC_SECRET, code.slice(2))).toBeNull();
      if (time >= 60) expect(await matchingStep(at(time - 60), RFC_SECRET, code.slice(2))).toBeNull();
    }
  });
});

interface TwoFactorAccount extends Account {
  secret: string;
  recoveryCodes: string[];
}

/** A runner with two-factor sign-in on; the clock moves a step on, so that a fresh code is unused. */
async function runnerWithTwoFactor(): Promise<TwoFactorAccount> {
  const runner = await registerUser(t.app);
  const begun = await call(t.app, 'POST', '/api/v1/user/me/two-factor', { token: runner.token });
  expect(begun.statusCode, begun.body).toBe(200);
  const { secret } = TwoFactorSetupSchema.parse(begun.json());
  const confirmed = await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', {
    token: runner.token,
    body: { code: codeOf(secret) },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  t.clock.advance({ seconds: 30 });
  return { ...runner, secret, recoveryCodes: RecoveryCodesSchema.parse(confirmed.json()).recovery_codes };
}

/** The first step of a login: the challenge. */
async function challengeOf(runner: Account, ip = nextIp()): Promise<string> {
  const res = await call(t.app, 'POST', '/api/v1/auth/login', {
    body: { email: runner.user.email, password: runner.password },
    ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<Record<string, unknown>>();
  expect(Object.keys(body).sort()).toEqual(['challenge', 'two_factor_required']);
  return TwoFactorRequiredSchema.parse(body).challenge;
}

const secondStep = (challenge: string, code: string, ip = nextIp()) =>
  call(t.app, 'POST', '/api/v1/auth/two-factor', { body: { challenge, code }, ip });

describe('turning it on', () => {
  it('gives a secret and its otpauth URL, is on only after a right code, and shows ten recovery codes once', async () => {
    const runner = await registerUser(t.app);
    expect(runner.user.two_factor).toBe(false);
    const begun = await call(t.app, 'POST', '/api/v1/user/me/two-factor', { token: runner.token });
    expect(begun.statusCode, begun.body).toBe(200);
    const setup = TwoFactorSetupSchema.parse(begun.json());
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(setup.secret).length).toBeGreaterThanOrEqual(16);
    const url = new URL(setup.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Running Times:${runner.user.email}`);
    expect(url.searchParams.get('secret')).toBe(setup.secret);
    expect(url.searchParams.get('issuer')).toBe('Running Times');

    // Not on yet: the login still gives a token.
    expect(AuthResponseSchema.safeParse((await loginRaw(runner)).json()).success).toBe(true);

    const wrong = String((Number(codeOf(setup.secret)) + 1) % 1_000_000).padStart(6, '0');
    expectValidation(
      await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', { token: runner.token, body: { code: wrong } }),
      'code',
      WRONG_CODE,
    );
    expectValidation(
      await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', { token: runner.token, body: {} }),
      'code',
      'The code field is required.',
    );
    const confirmed = await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', {
      token: runner.token,
      body: { code: codeOf(setup.secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = RecoveryCodesSchema.parse(confirmed.json()).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    const me = UserSchema.parse((await call(t.app, 'GET', '/api/v1/user/me', { token: runner.token })).json());
    expect(me.two_factor).toBe(true);
    // Neither the secret nor the codes are in any answer again.
    const again = await call(t.app, 'POST', '/api/v1/user/me/two-factor', { token: runner.token });
    expectError(again, 409, 'Two-factor sign-in is already on.');
    const dump = (await t.dumpDatabase()) ?? '';
    for (const code of codes) expect(dump).not.toContain(code);
  });

  it('is refused to personal API tokens and to demo accounts (403)', async () => {
    const runner = await registerUser(t.app);
    const created = await call(t.app, 'POST', '/api/v1/tokens', {
      token: runner.token,
      body: { name: 'script', scope: 'write' },
    });
    const personal = TokenCreatedSchema.parse(created.json()).plain_text_token;
    const sign = 'Personal API tokens cannot manage two-factor sign-in: sign in to do so.';
    expectError(await call(t.app, 'POST', '/api/v1/user/me/two-factor', { token: personal }), 403, sign);
    expectError(
      await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', { token: personal, body: { code: '123456' } }),
      403,
      sign,
    );
    expectError(await call(t.app, 'DELETE', '/api/v1/user/me/two-factor', { token: personal, body: {} }), 403, sign);

    const demo = await createTestApp({ demoMode: true });
    try {
      const demoRunner = await login(demo.app, 'demo.user@example.com', DEMO_PASSWORD);
      expectError(
        await call(demo.app, 'POST', '/api/v1/user/me/two-factor', { token: demoRunner.token }),
        403,
        'Demo accounts cannot turn on two-factor sign-in.',
      );
    } finally {
      await demo.close();
    }
  });

  it('speaks the request’s language', async () => {
    const runner = await registerUser(t.app);
    await call(t.app, 'POST', '/api/v1/user/me/two-factor', { token: runner.token });
    const res = await call(t.app, 'POST', '/api/v1/user/me/two-factor/confirm', {
      token: runner.token,
      body: { code: 'nope' },
      headers: { 'accept-language': 'de-CH,de;q=0.9' },
    });
    expectValidation(res, 'code', 'Der Code ist nicht gültig.');
  });
});

function loginRaw(runner: Account) {
  return call(t.app, 'POST', '/api/v1/auth/login', {
    body: { email: runner.user.email, password: runner.password },
    ip: nextIp(),
  });
}

describe('signing in', () => {
  it('answers the password with a challenge and no token; the challenge and a code answer like a login', async () => {
    const runner = await runnerWithTwoFactor();
    const wrongPassword = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: 'not-the-password' },
      ip: nextIp(),
    });
    expectError(wrongPassword, 401, 'These credentials do not match our records.');

    const challenge = await challengeOf(runner);
    expect(challenge.length).toBeGreaterThanOrEqual(43);
    const res = await secondStep(challenge, codeOf(runner.secret));
    expect(res.statusCode, res.body).toBe(200);
    const signedIn = AuthResponseSchema.parse(res.json());
    expect(signedIn.user.id).toBe(runner.user.id);
    expect(signedIn.user.two_factor).toBe(true);
    const me = await call(t.app, 'GET', '/api/v1/user/me', { token: signedIn.access_token });
    expect(me.statusCode).toBe(200);
    // The challenge is spent.
    t.clock.advance({ seconds: 30 });
    expectValidation(await secondStep(challenge, codeOf(runner.secret)), 'challenge', CHALLENGE_GONE);
  });

  it('accepts a code of the step before or after, not two steps away', async () => {
    const runner = await runnerWithTwoFactor();
    t.clock.advance({ seconds: 30 }); // the step before is then not the confirming code's
    expectValidation(await secondStep(await challengeOf(runner), codeOf(runner.secret, -2)), 'code', WRONG_CODE);
    expectValidation(await secondStep(await challengeOf(runner), codeOf(runner.secret, 2)), 'code', WRONG_CODE);
    expect((await secondStep(await challengeOf(runner), codeOf(runner.secret, -1))).statusCode).toBe(200);
    expect((await secondStep(await challengeOf(runner), codeOf(runner.secret, 1))).statusCode).toBe(200);
  });

  it('takes each code once: a replayed code, or an earlier step’s, is refused', async () => {
    const runner = await runnerWithTwoFactor();
    const code = codeOf(runner.secret);
    expect((await secondStep(await challengeOf(runner), code)).statusCode).toBe(200);
    expectValidation(await secondStep(await challengeOf(runner), code), 'code', WRONG_CODE);
    expectValidation(await secondStep(await challengeOf(runner), codeOf(runner.secret, -1)), 'code', WRONG_CODE);
    // Two requests racing with the same fresh code: one signs in.
    t.clock.advance({ seconds: 30 });
    const fresh = codeOf(runner.secret);
    const [a, b] = [await challengeOf(runner), await challengeOf(runner)];
    const answers = await Promise.all([secondStep(a, fresh), secondStep(b, fresh)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('takes a recovery code once, in any case, with or without its dash', async () => {
    const runner = await runnerWithTwoFactor();
    const [first, second] = runner.recoveryCodes as [string, string];
    expect((await secondStep(await challengeOf(runner), first)).statusCode).toBe(200);
    expectValidation(await secondStep(await challengeOf(runner), first), 'code', WRONG_CODE);
    const res = await secondStep(await challengeOf(runner), ` ${second.replace('-', '').toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('ends a challenge after 5 minutes, and after 5 wrong codes', async () => {
    const runner = await runnerWithTwoFactor();
    const late = await challengeOf(runner);
    t.clock.advance({ minutes: 5 });
    expectValidation(await secondStep(late, codeOf(runner.secret)), 'challenge', CHALLENGE_GONE);

    const tried = await challengeOf(runner);
    for (let i = 0; i < 5; i += 1) expectValidation(await secondStep(tried, '000000'), 'code', WRONG_CODE);
    expectValidation(await secondStep(tried, codeOf(runner.secret)), 'challenge', CHALLENGE_GONE);
    expect((await secondStep(await challengeOf(runner), codeOf(runner.secret))).statusCode).toBe(200);

    expectValidation(await secondStep('not-a-challenge', '123456'), 'challenge', CHALLENGE_GONE);
    expectValidation(await secondStep('', '123456'), 'challenge', 'The challenge field is required.');
  });

  it('blocks the account’s second step for 15 minutes, from every address, after 10 wrong codes in an hour', async () => {
    const runner = await runnerWithTwoFactor();
    const other = await runnerWithTwoFactor();
    for (let round = 0; round < 2; round += 1) {
      const challenge = await challengeOf(runner);
      for (let i = 0; i < 5; i += 1) {
        expectValidation(await secondStep(challenge, i % 2 ? '000000' : 'aaaaa-aaaaa'), 'code', WRONG_CODE);
        t.clock.advance({ seconds: 50 });
      }
    }
    const blocked = await secondStep(await challengeOf(runner), codeOf(runner.secret), nextIp());
    expectError(blocked, 429);
    const retry = Number(blocked.headers['retry-after']);
    expect(retry).toBeGreaterThan(14 * 60 - 1);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json<{ message: string }>().message).toBe(`Too many attempts. Try again in ${retry} seconds.`);
    // A recovery code is refused too, and the other runner is not blocked.
    expectError(await secondStep(await challengeOf(runner), runner.recoveryCodes[0]!), 429);
    expect((await secondStep(await challengeOf(other), codeOf(other.secret))).statusCode).toBe(200);

    t.clock.advance({ minutes: 14 });
    expectError(await secondStep(await challengeOf(runner), codeOf(runner.secret)), 429);
    t.clock.advance({ minutes: 1, seconds: 1 });
    const after = await secondStep(await challengeOf(runner), codeOf(runner.secret));
    expect(after.statusCode, after.body).toBe(200);
  });

  it('counts wrong codes in an hour’s window: 9 wrong codes an hour apart block nothing', async () => {
    const runner = await runnerWithTwoFactor();
    for (let round = 0; round < 3; round += 1) {
      for (let challenge = 0; challenge < 3; challenge += 1) {
        const open = await challengeOf(runner);
        for (let i = 0; i < 3; i += 1) expectValidation(await secondStep(open, '000000'), 'code', WRONG_CODE);
      }
      t.clock.advance({ minutes: 61 });
    }
    expect((await secondStep(await challengeOf(runner), codeOf(runner.secret))).statusCode).toBe(200);
  });
});

describe('turning it off', () => {
  it('needs the password or a code; afterwards the login gives a token again', async () => {
    const runner = await runnerWithTwoFactor();
    const off = (body: unknown) => call(t.app, 'DELETE', '/api/v1/user/me/two-factor', { token: runner.token, body });
    expectValidation(await off({}), 'password', 'Give your password or a code from your authenticator app.');
    expectValidation(await off({ password: 'wrong-password-1' }), 'password', 'The password is not correct.');
    expectValidation(await off({ code: '000000' }), 'code', WRONG_CODE);
    const res = await off({ password: runner.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Two-factor sign-in is off.' });
    const me = UserSchema.parse((await call(t.app, 'GET', '/api/v1/user/me', { token: runner.token })).json());
    expect(me.two_factor).toBe(false);
    expect(AuthResponseSchema.safeParse((await loginRaw(runner)).json()).success).toBe(true);
  });

  it('takes a current code, sent as the web app sends deletes (POST with _method)', async () => {
    const runner = await runnerWithTwoFactor();
    const res = await call(t.app, 'POST', '/api/v1/user/me/two-factor', {
      token: runner.token,
      body: { _method: 'DELETE', code: codeOf(runner.secret) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(AuthResponseSchema.safeParse((await loginRaw(runner)).json()).success).toBe(true);
  });

  it('is an admin’s reset for anyone; users and managers get 403', async () => {
    const runner = await runnerWithTwoFactor();
    const admin = await loginAdmin(t.app);
    const bystander = await registerUser(t.app);
    const manager = await registerUser(t.app);
    await makeManager(t.app, manager.user, admin.token);
    const url = `/api/v1/user/${runner.user.id}/two-factor`;
    expectError(await call(t.app, 'DELETE', url, { token: bystander.token }), 403);
    expectError(await call(t.app, 'DELETE', url, { token: manager.token }), 403);
    expectError(await call(t.app, 'DELETE', '/api/v1/user/999999/two-factor', { token: admin.token }), 404);

    const shown = await call(t.app, 'GET', `/api/v1/user/${runner.user.id}`, { token: admin.token });
    expect(UserSchema.parse(shown.json<{ user: unknown }>().user).two_factor).toBe(true);
    const listed = await call(t.app, 'GET', '/api/v1/user', {
      token: admin.token,
      query: { query: runner.user.email },
    });
    expect(listed.json<{ users: { data: { two_factor: boolean }[] } }>().users.data[0]?.two_factor).toBe(true);

    const res = await call(t.app, 'POST', url, { token: admin.token, body: { _method: 'DELETE' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(AuthResponseSchema.safeParse((await loginRaw(runner)).json()).success).toBe(true);
    // An open challenge dies with it.
    const again = await call(t.app, 'GET', `/api/v1/user/${runner.user.id}`, { token: admin.token });
    expect(UserSchema.parse(again.json<{ user: unknown }>().user).two_factor).toBe(false);
  });
});

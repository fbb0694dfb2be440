/**
 * E-mail change with mail on (CONTRACT.md §21): one's own new e-mail waits as pending_email until
 * the link mailed to it is followed; the answer keeps the old e-mail; the link works once, and an
 * older link stops working when a newer change is asked for. Demo accounts: 403 on reset and change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../features/demo/demo.service.js';
import {
  call,
  canLogin,
  createTestApp,
  expectError,
  expectValidation,
  login,
  loginAdmin,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';

const PUBLIC_URL = 'https://runs.example.org';
const BAD_LINK = 'This link is invalid or has expired.';

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: 'runs@example.org' } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const changeEmail = (who: Account, email: string, token = who.token) =>
  call(t.app, 'PUT', `/api/v1/user/${who.user.id}`, { token, body: { name: who.user.name, email } });
const confirm = (token: string | null) =>
  call(t.app, 'POST', '/api/v1/auth/confirm-email', { body: { token }, ip: nextIp() });

describe('e-mail change with mail on', () => {
  it('keeps the old e-mail until the link mailed to the new one is followed, once', async () => {
    const runner = await registerUser(t.app);
    const newEmail = `moved-${runner.user.id}@example.com`;
    const res = await changeEmail(runner, newEmail.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe(runner.user.email);
    expect(await canLogin(t.app, runner.user.email, runner.password)).toBe(true);
    expect(await canLogin(t.app, newEmail, runner.password)).toBe(false);

    const mail = await smtp.next(newEmail);
    expect(mail.subject).toBe('Confirm your new e-mail address for Running Times');
    expect(mail.link).toMatch(/^https:\/\/runs\.example\.org\/confirm-email#token=[A-Za-z0-9_-]{43}$/);
    expect(smtp.to(runner.user.email)).toEqual([]);

    const done = await confirm(mail.token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user.email).toBe(newEmail);
    expect(await canLogin(t.app, newEmail, runner.password)).toBe(true);
    expect(await canLogin(t.app, runner.user.email, runner.password)).toBe(false);
    expectValidation(await confirm(mail.token), 'token', BAD_LINK);
  });

  it('a newer change retires the older link; guessed and expired links are refused', async () => {
    const runner = await registerUser(t.app);
    await changeEmail(runner, `first-${runner.user.id}@example.com`);
    const first = await smtp.next(`first-${runner.user.id}@example.com`);
    await changeEmail(runner, `second-${runner.user.id}@example.com`);
    const second = await smtp.next(`second-${runner.user.id}@example.com`);
    expectValidation(await confirm(first.token), 'token', BAD_LINK);
    expectValidation(await confirm('guessed'), 'token', BAD_LINK);
    t.clock.advance({ hours: 25 });
    expectValidation(await confirm(second.token), 'token', BAD_LINK);
    const me = await call(t.app, 'GET', '/api/v1/user/me', {
      token: (await login(t.app, runner.user.email, runner.password)).token,
    });
    expect(me.json().email).toBe(runner.user.email);
  });

  it('an address another account took meanwhile is a 422 on email', async () => {
    const runner = await registerUser(t.app);
    const wanted = `wanted-${runner.user.id}@example.com`;
    await changeEmail(runner, wanted);
    const mail = await smtp.next(wanted);
    await registerUser(t.app, { email: wanted });
    expectValidation(await confirm(mail.token), 'email', 'The email has already been taken.');
  });

  it('an admin changing another user’s e-mail changes it at once', async () => {
    const runner = await registerUser(t.app);
    const admin = await loginAdmin(t.app);
    const email = `by-admin-${runner.user.id}@example.com`;
    const res = await changeEmail(runner, email, admin.token);
    expect(res.json().user.email).toBe(email);
  });
});

describe('demo accounts', () => {
  it('get 403 on password reset and e-mail change', async () => {
    const demo = await createTestApp({
      demoMode: true,
      publicUrl: PUBLIC_URL,
      mail: { smtpUrl: smtp.url, from: 'runs@example.org' },
    });
    try {
      const account = DEMO_ACCOUNTS[2]!;
      const signedIn = await login(demo.app, account.email, DEMO_PASSWORD);
      expectError(
        await call(demo.app, 'PUT', `/api/v1/user/${signedIn.user.id}`, {
          token: signedIn.token,
          body: { name: account.name, email: 'elsewhere@example.com' },
        }),
        403,
      );
      const forgot = await call(demo.app, 'POST', '/api/v1/auth/forgot', {
        body: { email: account.email },
        ip: nextIp(),
      });
      expectError(forgot, 403, "Demo accounts' password cannot be reset.");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.to(account.email)).toEqual([]);
      expect(smtp.to('elsewhere@example.com')).toEqual([]);
    } finally {
      await demo.close();
    }
  });
});

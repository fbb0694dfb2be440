/**
 * Password reset by mail (CONTRACT.md §21): a real SMTP server takes the mail, the test follows
 * its link; the answer is the same for known and unknown e-mails; the link works once, for an
 * hour, only as sent; a reset signs the user out everywhere; the limits per account and per
 * address; without mail, a 409.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashLinkToken } from '../../features/mail/mail.service.js';
import {
  call,
  canLogin,
  createTestApp,
  expectError,
  expectValidation,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';

const PUBLIC_URL = 'https://runs.example.org';
const SENT = 'If an account uses this e-mail address, a link to reset its password is on its way.';
const BAD_LINK = 'This link is invalid or has expired.';

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    publicUrl: PUBLIC_URL,
    mail: { smtpUrl: smtp.url, from: 'Running Times <runs@example.org>' },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const forgot = (email: string, ip = nextIp(), headers: Record<string, string> = {}) =>
  call(t.app, 'POST', '/api/v1/auth/forgot', { body: { email }, ip, headers });
const reset = (token: string, password: string, confirmation = password) =>
  call(t.app, 'POST', '/api/v1/auth/reset', {
    body: { token, password, password_confirmation: confirmation },
    ip: nextIp(),
  });

async function resetMail(account: Account) {
  const res = await forgot(account.user.email);
  expect(res.statusCode, res.body).toBe(202);
  return smtp.next(account.user.email);
}

describe('POST /auth/forgot and /auth/reset', () => {
  it('mails a link in the fragment of PUBLIC_URL/reset-password, plain text and HTML, that resets the password once', async () => {
    const runner = await registerUser(t.app);
    const res = await forgot(runner.user.email.toUpperCase(), nextIp(), { host: 'evil.example.com' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ message: SENT });
    const mail = await smtp.next(runner.user.email);
    expect(mail.from).toContain('runs@example.org');
    expect(mail.subject).toBe('Reset your Running Times password');
    expect(mail.link).toMatch(/^https:\/\/runs\.example\.org\/reset-password#token=[A-Za-z0-9_-]{43,}$/);
    expect(mail.html).toContain(`href="${mail.link}"`);
    expect(mail.text).not.toContain('evil.example.com');
    expect(mail.token).not.toBeNull();
    // Only a hash of the token is stored.
    const dump = await t.dumpDatabase();
    if (dump) {
      expect(dump).not.toContain(mail.token);
      expect(dump).toContain(hashLinkToken(mail.token!));
    }

    const other = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: runner.password },
      ip: nextIp(),
    });
    const personal = await call(t.app, 'POST', '/api/v1/tokens', {
      token: runner.token,
      body: { name: 'script', scope: 'read' },
    });
    expect(personal.statusCode, personal.body).toBe(201);

    const done = await reset(mail.token!, 'a-new-password-9');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ message: 'Your password was reset: sign in with your new password.' });
    expect(await canLogin(t.app, runner.user.email, runner.password)).toBe(false);
    expect(await canLogin(t.app, runner.user.email, 'a-new-password-9')).toBe(true);
    // Every token of the user stopped working: sign-in and personal ones.
    for (const token of [
      runner.token,
      other.json<{ access_token: string }>().access_token,
      personal.json<{ plain_text_token: string }>().plain_text_token,
    ]) {
      expectError(await call(t.app, 'GET', '/api/v1/user/me', { token }), 401, 'Unauthenticated.');
    }
    // Replayed: the link worked once.
    expectValidation(await reset(mail.token!, 'another-password-9'), 'token', BAD_LINK);
    expect(await canLogin(t.app, runner.user.email, 'a-new-password-9')).toBe(true);
  });

  it('answers an unknown e-mail the same and sends nothing', async () => {
    const res = await forgot('nobody-here@example.com');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: SENT });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to('nobody-here@example.com')).toEqual([]);
  });

  it('refuses guessed, expired and malformed tokens with a 422 on token', async () => {
    const runner = await registerUser(t.app);
    expectValidation(await reset('A'.repeat(43), 'a-new-password-9'), 'token', BAD_LINK);
    expectValidation(await reset('', 'a-new-password-9'), 'token');
    const mail = await resetMail(runner);
    // A wrong confirmation is a 422 on password, and the link still works after it.
    expectValidation(await reset(mail.token!, 'a-new-password-9', 'different-9'), 'password');
    t.clock.advance({ minutes: 61 });
    expectValidation(await reset(mail.token!, 'a-new-password-9'), 'token', BAD_LINK);
    expect(await canLogin(t.app, runner.user.email, runner.password)).toBe(true);
  });

  it('a link is good for one hour: just before its end it works', async () => {
    const runner = await registerUser(t.app);
    const mail = await resetMail(runner);
    t.clock.advance({ minutes: 59 });
    expect((await reset(mail.token!, 'in-time-password-9')).statusCode).toBe(200);
  });

  it('sends at most 3 mails to one account an hour; later requests still answer 202', async () => {
    const runner = await registerUser(t.app);
    for (let i = 0; i < 3; i++) await resetMail(runner);
    const fourth = await forgot(runner.user.email);
    expect(fourth.statusCode).toBe(202);
    expect(fourth.json()).toEqual({ message: SENT });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(runner.user.email)).toHaveLength(3);
    t.clock.advance({ minutes: 61 });
    await resetMail(runner);
    expect(smtp.to(runner.user.email)).toHaveLength(4);
  });

  it('takes at most 5 requests a minute from one address, then a 429 with Retry-After', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await forgot(`x${i}@example.com`, ip)).statusCode).toBe(202);
    const sixth = await forgot('x6@example.com', ip);
    expectError(sixth, 429);
    expect(sixth.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await forgot('x7@example.com')).statusCode).toBe(202);
    t.clock.advance({ seconds: 61 });
    expect((await forgot('x8@example.com', ip)).statusCode).toBe(202);
  });

  it('writes the mail in the recipient’s language, else the request’s', async () => {
    const runner = await registerUser(t.app);
    const set = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, locale: 'de' },
    });
    expect(set.statusCode, set.body).toBe(200);
    await forgot(runner.user.email, nextIp(), { 'accept-language': 'fr' });
    const german = await smtp.next(runner.user.email);
    expect(german.subject).toBe('Setze dein Passwort für Running Times zurück');
    expect(german.text).toContain(`Hallo ${runner.user.name},`);

    const auto = await registerUser(t.app);
    const res = await forgot(auto.user.email, nextIp(), { 'accept-language': 'fr-CH, en;q=0.5' });
    expect(res.json()).toEqual({
      message: 'Si un compte utilise cette adresse e-mail, un lien pour réinitialiser son mot de passe est en route.',
    });
    const french = await smtp.next(auto.user.email);
    expect(french.subject).toBe('Réinitialisez votre mot de passe Running Times');
  });

  it('a mail the SMTP server refuses is sent again later, and only once', async () => {
    const runner = await registerUser(t.app);
    smtp.refuse = true;
    await forgot(runner.user.email);
    await new Promise((resolve) => setTimeout(resolve, 400));
    smtp.refuse = false;
    expect(smtp.to(runner.user.email)).toHaveLength(0);
    t.clock.advance({ seconds: 31 });
    t.app.appContext.memory.mailer?.kick();
    const mail = await smtp.next(runner.user.email);
    expect(mail.token).not.toBeNull();
    t.app.appContext.memory.mailer?.kick();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(runner.user.email)).toHaveLength(1);
  });
});

describe('without mail', () => {
  it('forgot is a 409 and app-config says mail is off', async () => {
    const plain = await createTestApp();
    try {
      expectError(
        await call(plain.app, 'POST', '/api/v1/auth/forgot', { body: { email: 'a@example.com' }, ip: nextIp() }),
        409,
        'Ask an admin to reset your password.',
      );
      const config = await call(plain.app, 'GET', '/api/v1/app-config');
      expect(config.json()).toMatchObject({ mail: false, signup: 'open', oidc: null });
    } finally {
      await plain.close();
    }
  });

  it('app-config says mail is on with it', async () => {
    expect((await call(t.app, 'GET', '/api/v1/app-config')).json()).toMatchObject({
      mail: true,
      signup: 'open',
      oidc: null,
    });
  });
});

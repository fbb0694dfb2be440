/**
 * The sign-up policy (SIGNUP, CONTRACT.md §21): verify (a mailed link makes the account active),
 * approval (an admin or manager approves), closed (only invitations); the login answers of an
 * account that is not active; e-mail tokens used once; verify without mail refuses to start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthResponseSchema, RegisteredSchema, UserEnvelopeSchema } from '../../../core/schemas.js';
import { ConfigError, loadConfig } from '../../config.js';
import {
  BAD_CREDENTIALS,
  call,
  createTestApp,
  expectError,
  expectValidation,
  loginAdmin,
  makeManager,
  nextIp,
  registerUser,
  type TestApp,
} from '../helpers.js';
import { keysOf, USER_KEYS } from '../wire-keys.js';
import { startSmtp, type TestSmtp } from './smtp.js';

const PUBLIC_URL = 'https://runs.example.org';
const BAD_LINK = 'This link is invalid or has expired.';
const UNVERIFIED = 'Please confirm your e-mail address first.';
const PENDING = 'Your account is waiting for approval.';

let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

const mailConfig = () => ({ publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, from: 'runs@example.org' } });

let counter = 0;
function newcomer() {
  counter += 1;
  const email = `newcomer-${counter}-${Date.now()}@example.com`;
  return { name: `Newcomer ${counter}`, email, password: 'newcomer-pass-1', password_confirmation: 'newcomer-pass-1' };
}

const register = (t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(t.app, 'POST', '/api/v1/auth/register', { body, ip: nextIp(), headers });
const loginAs = (t: TestApp, email: string, password: string) =>
  call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password }, ip: nextIp() });
const post = (t: TestApp, url: string, body: Record<string, unknown>, token?: string) =>
  call(t.app, 'POST', `/api/v1/${url}`, { body, ip: nextIp(), ...(token ? { token } : {}) });

describe('SIGNUP=verify', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...mailConfig(), signup: 'verify' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers without a token, mails a link, and the link makes the account active and signs in once', async () => {
    const body = newcomer();
    const res = await register(t, body);
    expect(res.statusCode, res.body).toBe(201);
    const registered = RegisteredSchema.strict().parse(res.json());
    expect(keysOf(registered.user)).toEqual(USER_KEYS);
    expect(registered.user.status).toBe('unverified');
    expect(registered.message).toBe('Check your mailbox: follow the link we sent you to confirm your e-mail address.');
    expect(res.json()).not.toHaveProperty('access_token');

    // Right password: the 403; wrong password: the usual 401.
    expectError(await loginAs(t, body.email, body.password), 403, UNVERIFIED);
    expectError(await loginAs(t, body.email, 'wrong-password-1'), 401, BAD_CREDENTIALS);

    const mail = await smtp.next(body.email);
    expect(mail.subject).toBe('Confirm your e-mail address for Running Times');
    expect(mail.link).toMatch(/^https:\/\/runs\.example\.org\/verify-email#token=[A-Za-z0-9_-]{43}$/);
    const verified = await post(t, 'auth/verify', { token: mail.token });
    expect(verified.statusCode, verified.body).toBe(200);
    const auth = AuthResponseSchema.parse(verified.json());
    expect(auth.user.status).toBe('active');
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: auth.access_token })).statusCode).toBe(200);
    expect((await loginAs(t, body.email, body.password)).statusCode).toBe(200);
    // Replayed.
    expectValidation(await post(t, 'auth/verify', { token: mail.token }), 'token', BAD_LINK);
  });

  it('refuses guessed and expired verification tokens; resend always answers 202 and mails only an unverified account', async () => {
    expectValidation(await post(t, 'auth/verify', { token: 'guess' }), 'token', BAD_LINK);
    expectValidation(await post(t, 'auth/verify', {}), 'token');
    const body = newcomer();
    await register(t, body);
    const first = await smtp.next(body.email);
    t.clock.advance({ days: 8 });
    expectValidation(await post(t, 'auth/verify', { token: first.token }), 'token', BAD_LINK);

    const resent = await post(t, 'auth/verify/resend', { email: body.email });
    expect(resent.statusCode).toBe(202);
    const unknown = await post(t, 'auth/verify/resend', { email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual(resent.json());
    const second = await smtp.next(body.email);
    expect(second.token).not.toBe(first.token);
    expect((await post(t, 'auth/verify', { token: second.token })).statusCode).toBe(200);
    // Active now: a resend sends nothing.
    await post(t, 'auth/verify/resend', { email: body.email });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(body.email)).toHaveLength(2);
  });

  it('writes the verification mail in the language of the registration', async () => {
    const body = { ...newcomer(), locale: 'nl' };
    await register(t, body, { 'accept-language': 'de' });
    const mail = await smtp.next(body.email);
    expect(mail.subject).toBe('Bevestig je e-mailadres voor Running Times');
    const other = newcomer();
    const res = await register(t, other, { 'accept-language': 'it' });
    expect(res.json().message).toBe(
      'Controlla la tua casella: segui il link che ti abbiamo inviato per confermare il tuo indirizzo e-mail.',
    );
    expect((await smtp.next(other.email)).subject).toBe('Conferma il tuo indirizzo e-mail per Running Times');
  });

  it('refuses to start without mail, saying what to set', async () => {
    expect(() => loadConfig({ SIGNUP: 'verify' })).toThrow(ConfigError);
    expect(() => loadConfig({ SIGNUP: 'verify' })).toThrow(/SMTP_URL, MAIL_FROM and PUBLIC_URL/);
    await expect(createTestApp({ signup: 'verify' })).rejects.toThrow(/SIGNUP=verify needs mail/);
    expect(() => loadConfig({ SIGNUP: 'sometimes' })).toThrow(/SIGNUP must be one of open, verify, approval, closed/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail', MAIL_FROM: 'a@b.c', PUBLIC_URL: PUBLIC_URL })).toThrow(
      /smtp:\/\/ or smtps:\/\//,
    );
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail', MAIL_FROM: 'a@b.c' })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ SMTP_URL: 'smtp://mail:25', MAIL_FROM: 'a@b.c', PUBLIC_URL, SIGNUP: 'verify' })).toMatchObject({
      signup: 'verify',
      mail: { smtpUrl: 'smtp://mail:25', from: 'a@b.c' },
    });
  });
});

describe('SIGNUP=approval', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...mailConfig(), signup: 'approval' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the account pending until an admin or a manager approves it, then mails its owner', async () => {
    const body = newcomer();
    const res = await register(t, body);
    expect(res.statusCode, res.body).toBe(201);
    const registered = RegisteredSchema.strict().parse(res.json());
    expect(registered.user.status).toBe('pending');
    expect(registered.message).toBe('Your account was created and is waiting for an admin to approve it.');
    expectError(await loginAs(t, body.email, body.password), 403, PENDING);
    expectError(await loginAs(t, body.email, 'wrong-password-1'), 401, BAD_CREDENTIALS);

    const admin = await loginAdmin(t.app);
    const pending = await call(t.app, 'GET', '/api/v1/user/pending', { token: admin.token });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().users.map((u: { email: string }) => u.email)).toContain(body.email);

    // A manager: an account the admin approved, then made a manager.
    const managerBody = newcomer();
    const managerId = RegisteredSchema.parse((await register(t, managerBody)).json()).user.id;
    const approvedByAdmin = await post(t, `user/${managerId}/approve`, {}, admin.token);
    expect(approvedByAdmin.statusCode, approvedByAdmin.body).toBe(200);
    expect(UserEnvelopeSchema.parse(approvedByAdmin.json()).user.status).toBe('active');
    await makeManager(t.app, { id: managerId }, admin.token);
    const manager = AuthResponseSchema.parse((await loginAs(t, managerBody.email, managerBody.password)).json());

    // A runner neither lists nor approves.
    const runnerBody = newcomer();
    const runnerId = RegisteredSchema.parse((await register(t, runnerBody)).json()).user.id;
    await post(t, `user/${runnerId}/approve`, {}, admin.token);
    const runner = AuthResponseSchema.parse((await loginAs(t, runnerBody.email, runnerBody.password)).json());
    expectError(await call(t.app, 'GET', '/api/v1/user/pending', { token: runner.access_token }), 403);
    expectError(await post(t, `user/${registered.user.id}/approve`, {}, runner.access_token), 403);
    expectError(await post(t, `user/${registered.user.id}/approve`, {}), 401);
    expectError(await post(t, 'user/999999/approve', {}, admin.token), 404);

    const approved = await post(t, `user/${registered.user.id}/approve`, {}, manager.access_token);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().user.status).toBe('active');
    expect((await loginAs(t, body.email, body.password)).statusCode).toBe(200);
    const told = await smtp.next(body.email);
    expect(told.subject).toBe('Your Running Times account is ready');
    expect(told.link).toBe(`${PUBLIC_URL}/login`);
    const after = await call(t.app, 'GET', '/api/v1/user/pending', { token: admin.token });
    expect(after.json().users.map((u: { email: string }) => u.email)).not.toContain(body.email);
  });

  it('a pending account can be deleted from the list', async () => {
    const body = newcomer();
    const id = RegisteredSchema.parse((await register(t, body)).json()).user.id;
    const admin = await loginAdmin(t.app);
    expect((await call(t.app, 'DELETE', `/api/v1/user/${id}`, { token: admin.token })).statusCode).toBe(200);
    expectError(await loginAs(t, body.email, body.password), 401, BAD_CREDENTIALS);
  });
});

describe('SIGNUP=closed and invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...mailConfig(), signup: 'closed' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses registration; an admin invites, and the invitee makes an active account once', async () => {
    expectError(await register(t, newcomer()), 403, 'Registration is closed: ask an admin for an invitation.');
    const admin = await loginAdmin(t.app);
    const email = newcomer().email;
    const invited = await post(t, 'invitations', { email: email.toUpperCase(), role: 'manager' }, admin.token);
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().invitation).toMatchObject({ email, role: 'manager' });
    const mail = await smtp.next(email);
    expect(mail.subject).toBe('You are invited to Running Times');
    expect(mail.link).toMatch(/^https:\/\/runs\.example\.org\/accept-invitation#token=[A-Za-z0-9_-]{43}$/);

    const accept = (token: string | null) =>
      post(t, 'auth/accept-invitation', {
        token,
        name: 'Invited Runner',
        password: 'invited-pass-1',
        password_confirmation: 'invited-pass-1',
      });
    expectValidation(await accept('guessed-token'), 'token', BAD_LINK);
    const res = await accept(mail.token);
    expect(res.statusCode, res.body).toBe(201);
    const auth = AuthResponseSchema.parse(res.json());
    expect(auth.user).toMatchObject({ email, role: 'manager', status: 'active', name: 'Invited Runner' });
    expectValidation(await accept(mail.token), 'token', BAD_LINK);
    // The account exists now: inviting it again is a 422 on email.
    expectValidation(await post(t, 'invitations', { email }, admin.token), 'email');
  });

  it('only admins invite; an invitation expires after 7 days', async () => {
    const admin = await loginAdmin(t.app);
    expectValidation(await post(t, 'invitations', { email: 'not-an-email' }, admin.token), 'email');
    expectError(await post(t, 'invitations', { email: 'x@example.com' }), 401);
    const email = newcomer().email;
    expect((await post(t, 'invitations', { email }, admin.token)).statusCode).toBe(201);
    const mail = await smtp.next(email);
    // The invitee makes an account, becomes a runner, and cannot invite.
    t.clock.advance({ days: 7, minutes: 1 });
    expectValidation(
      await post(t, 'auth/accept-invitation', {
        token: mail.token,
        name: 'Late',
        password: 'invited-pass-1',
        password_confirmation: 'invited-pass-1',
      }),
      'token',
      BAD_LINK,
    );
  });
});

describe('without SIGNUP nothing changes', () => {
  it('registration signs in at once and the account is active', async () => {
    const t = await createTestApp();
    try {
      const runner = await registerUser(t.app);
      expect(runner.user.status).toBe('active');
      expectError(
        await post(t, 'invitations', { email: 'x@example.com' }, (await loginAdmin(t.app)).token),
        409,
        'Invitations are sent by mail: set SMTP_URL, MAIL_FROM and PUBLIC_URL to send them.',
      );
    } finally {
      await t.close();
    }
  });
});

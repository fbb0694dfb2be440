/**
 * The outbox survives a restart (decision 048): a reset mail queued by a process that stops before
 * sending it is sent by the next process on the database, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import type { Mailer } from '../../features/mail/mail.service.js';
import { call, createTestApp, nextIp, registerUser, type TestApp } from '../helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';

let smtp: TestSmtp;
let t: TestApp;
let next: FastifyInstance | null = null;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp(
    { publicUrl: 'https://runs.example.org', mail: { smtpUrl: smtp.url, from: 'runs@example.org' } },
    { sqliteFile: true },
  );
});
afterAll(async () => {
  await next?.close();
  await t?.close();
  await smtp?.close();
});

describe('the mail outbox', () => {
  it('keeps a mail its process never sent, and the next process sends it once', async () => {
    const runner = await registerUser(t.app);
    // The first process stops sending (as if it died right after its answer).
    await (t.app.appContext.memory.mailer as Mailer).stop();
    const res = await call(t.app, 'POST', '/api/v1/auth/forgot', { body: { email: runner.user.email }, ip: nextIp() });
    expect(res.statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(runner.user.email)).toEqual([]);

    // The next process on the same database sends what is waiting, as soon as it starts.
    next = await buildApp(t.config);
    const mail = await smtp.next(runner.user.email);
    expect(mail.link).toMatch(/^https:\/\/runs\.example\.org\/reset-password#token=/);
    next.appContext.memory.mailer?.kick();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(runner.user.email)).toHaveLength(1);
    const reset = await call(next, 'POST', '/api/v1/auth/reset', {
      body: { token: mail.token, password: 'after-restart-1', password_confirmation: 'after-restart-1' },
      ip: nextIp(),
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });
});

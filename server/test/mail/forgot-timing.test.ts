/**
 * `POST /auth/forgot` takes as long for an e-mail with an account as for one without (CONTRACT.md
 * §21): the medians of 50 calls each, from addresses of their own, interleaved, compared as a
 * ratio with a generous bound (the work that differs happens after the answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, nextIp, registerUser, type TestApp } from '../helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    publicUrl: 'https://runs.example.org',
    mail: { smtpUrl: smtp.url, from: 'runs@example.org' },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;
};

async function timed(email: string): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await call(t.app, 'POST', '/api/v1/auth/forgot', { body: { email }, ip: nextIp() });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  expect(res.statusCode).toBe(202);
  return ms;
}

describe('POST /auth/forgot timing', () => {
  it('answers known and unknown e-mails in the same time, within noise', async () => {
    const runners = await Promise.all(Array.from({ length: 5 }, () => registerUser(t.app)));
    // Warm up both paths.
    for (let i = 0; i < 5; i++) {
      await timed(runners[i]!.user.email);
      await timed(`warm-${i}@example.com`);
    }
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 50; i++) {
      known.push(await timed(runners[i % runners.length]!.user.email));
      unknown.push(await timed(`nobody-${i}@example.com`));
      // Let the work after each answer finish, so it weighs on neither side.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ratio = median(known) / median(unknown);
    expect(ratio, `medians ${median(known).toFixed(2)} ms and ${median(unknown).toFixed(2)} ms`).toBeGreaterThan(0.5);
    expect(ratio, `medians ${median(known).toFixed(2)} ms and ${median(unknown).toFixed(2)} ms`).toBeLessThan(2);
    console.log(
      `forgot medians: known ${median(known).toFixed(2)} ms, unknown ${median(unknown).toFixed(2)} ms, ratio ${ratio.toFixed(2)}`,
    );
  }, 60_000);
});

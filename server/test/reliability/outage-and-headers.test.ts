/**
 * What every answer carries whatever happens: security headers on successes and errors alike,
 * and a 503 with the contract's body while the database is unreachable (PostgreSQL), with
 * recovery after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, nextIp, registerUser, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('database outage (PostgreSQL)', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'answers 503 "Service unavailable." while the database is unreachable, and recovers after',
    async () => {
      const cuttable = await createTestApp({}, { cuttable: true });
      try {
        const link = cuttable.databaseLink;
        expect(link).not.toBeNull();
        const account = await registerUser(cuttable.app);
        expect((await call(cuttable.app, 'GET', '/api/health')).statusCode).toBe(200);

        await link?.cut();
        const health = await call(cuttable.app, 'GET', '/api/health');
        expect(health.statusCode).toBe(503);
        expect(health.headers['content-type']).toMatch(/^application\/json/);
        for (const res of [
          await call(cuttable.app, 'GET', '/api/v1/user/me', { token: account.token }),
          await call(cuttable.app, 'POST', '/api/v1/auth/login', {
            body: { email: account.user.email, password: account.password },
            ip: nextIp(),
          }),
        ]) {
          expect(res.statusCode, res.body).toBe(503);
          expect(res.json()).toEqual({ message: 'Service unavailable.' });
        }

        await link?.restore();
        let healthy = 0;
        for (let i = 0; i < 5 && healthy !== 200; i++)
          healthy = (await call(cuttable.app, 'GET', '/api/health')).statusCode;
        expect(healthy).toBe(200);
        expect((await call(cuttable.app, 'GET', '/api/v1/user/me', { token: account.token })).statusCode).toBe(200);
      } finally {
        await cuttable.close();
      }
    },
  );
});

describe('security headers', () => {
  it.each([
    ['GET /api/health', () => call(t.app, 'GET', '/api/health')],
    ['GET /api/v1/app-config', () => call(t.app, 'GET', '/api/v1/app-config')],
    ['a 401', () => call(t.app, 'GET', '/api/v1/user/me')],
    ['a 404', () => call(t.app, 'GET', '/api/v1/nope')],
    ['a 422', () => call(t.app, 'POST', '/api/v1/auth/login', { body: {}, ip: nextIp() })],
  ])('are sent on %s', async (_label, request) => {
    const res = await request();
    const csp = String(res.headers['content-security-policy'] ?? '');
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/frame-ancestors/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['referrer-policy'] ?? '')).not.toBe('');
  });
});

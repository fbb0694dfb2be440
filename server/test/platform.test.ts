import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppConfigSchema } from '../../core/schemas.js';
import { call, createTestApp, keysOf, login, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers 200 {status: "ok"} without authentication', async () => {
    const res = await call(t.app, 'GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/openapi.json', () => {
  it('describes the API, every endpoint of the contract included', async () => {
    const res = await call(t.app, 'GET', '/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(String(doc.openapi)).toMatch(/^3\./);
    const paths = Object.keys(doc.paths ?? {});
    for (const path of [
      '/api/v1/auth/register',
      '/api/v1/auth/login',
      '/api/v1/auth/logout',
      '/api/v1/user/me',
      '/api/v1/user',
      '/api/v1/user/{id}',
      '/api/v1/entry',
      '/api/v1/entry/all',
      '/api/v1/entry/{id}',
      '/api/v1/dashboard/data',
      '/api/v1/dashboard/admin-data',
      '/api/v1/report/weekly',
    ]) {
      expect(paths).toContain(path);
    }
    expect(JSON.stringify(doc)).not.toMatch(/argon|password_hash|token_hash/i);
  });
});

describe('GET /api/v1/app-config', () => {
  it('names where the source code is when one is configured', async () => {
    const withSource = await createTestApp({ sourceUrl: 'https://example.org/running-times' });
    try {
      const res = await call(withSource.app, 'GET', '/api/v1/app-config');
      expect(res.json()).toMatchObject({ source_url: 'https://example.org/running-times' });
      AppConfigSchema.parse(res.json());
    } finally {
      await withSource.close();
    }
  });

  it('says demo mode is off and offers no demo login', async () => {
    const res = await call(t.app, 'GET', '/api/v1/app-config');
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.json())).toEqual(['demo_login', 'demo_mode', 'source_url']);
    expect(res.json()).toEqual({ demo_mode: false, demo_login: null, source_url: null });
  });

  it("in demo mode offers the demo admin's credentials, which log in as an admin", async () => {
    const demo = await createTestApp({ demoMode: true });
    try {
      const res = await call(demo.app, 'GET', '/api/v1/app-config');
      expect(res.statusCode).toBe(200);
      const config = AppConfigSchema.strict().parse(res.json());
      expect(config.demo_mode).toBe(true);
      expect(config.demo_login).not.toBeNull();
      const account = await login(demo.app, config.demo_login?.email ?? '', config.demo_login?.password ?? '');
      expect(account.user.role).toBe('admin');
    } finally {
      await demo.close();
    }
  });
});

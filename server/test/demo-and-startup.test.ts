import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { ensureFirstAdmin } from '../features/users/users.service.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, dueResetDay, runDailyResetIfDue } from '../features/demo/demo.service.js';
import { call, createTestApp, login, registerUser, type TestApp } from './helpers.js';

const open: TestApp[] = [];
async function start(...args: Parameters<typeof createTestApp>): Promise<TestApp> {
  const testApp = await createTestApp(...args);
  open.push(testApp);
  return testApp;
}
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

describe('first start', () => {
  it('creates the admin from ADMIN_EMAIL and ADMIN_PASSWORD, once', async () => {
    const { app } = await start({ adminEmail: 'Boss@Example.com', adminPassword: 'boss-password-1' });
    const boss = await login(app, 'boss@example.com', 'boss-password-1');
    expect(boss.user.role).toBe('admin');
    // A second start on a database with users creates nobody.
    expect(await ensureFirstAdmin(app.appContext)).toBeNull();
  });

  it('reports the generated credentials, which work', async () => {
    const base = await start({}, { sqliteFile: true });
    // Empty the users table, then bootstrap again without a configured password.
    await base.app.appContext.db.deleteFrom('users').execute();
    const ctx = { ...base.app.appContext, config: { ...base.config, adminEmail: undefined, adminPassword: undefined } };
    const created = await ensureFirstAdmin(ctx);
    expect(created?.email).toBe('admin@example.com');
    expect(created?.generatedPassword).toMatch(/^[\w-]{16}$/);
    const admin = await login(base.app, 'admin@example.com', created!.generatedPassword!);
    expect(admin.user.role).toBe('admin');
  });

  it('names an unreachable PostgreSQL server in one sentence', async () => {
    const { config } = await start();
    await expect(buildApp({ ...config, databaseUrl: 'postgres://postgres@127.0.0.1:1/running' })).rejects.toThrow(
      /^Cannot reach the database \(connect ECONNREFUSED 127\.0\.0\.1:1\); check DATABASE_URL/,
    );
  });

  it('refuses a too-short ADMIN_PASSWORD with a clear message', async () => {
    await expect(start({ adminEmail: 'x@example.com', adminPassword: 'short' })).rejects.toThrow(
      'ADMIN_PASSWORD must be 8 to 128 characters long.',
    );
  });
});

describe('demo mode', () => {
  it('creates demo accounts with months of runs and tells the web app how to prefill the login', async () => {
    const { app } = await start({ demoMode: true }, { now: '2026-05-10T12:00:00.000Z' });
    const config = await call(app, 'GET', '/api/v1/app-config');
    expect(config.json()).toMatchObject({
      demo_mode: true,
      demo_login: { email: 'demo.admin@example.com', password: DEMO_PASSWORD },
      source_url: null,
    });
    for (const account of DEMO_ACCOUNTS) {
      const session = await login(app, account.email, DEMO_PASSWORD);
      expect(session.user.role).toBe(account.role);
      const entries = await call(app, 'GET', '/api/v1/entry', { token: session.token });
      expect(entries.json().entries.total).toBeGreaterThan(20);
    }
  });

  it('outside demo mode the web app gets no demo login', async () => {
    const { app } = await start();
    expect((await call(app, 'GET', '/api/v1/app-config')).json()).toMatchObject({
      demo_mode: false,
      demo_login: null,
      source_url: null,
    });
  });

  it("keeps demo accounts' e-mail and password fixed but lets the name change", async () => {
    const { app } = await start({ demoMode: true });
    const demo = await login(app, DEMO_ACCOUNTS[2]!.email, DEMO_PASSWORD);
    const url = `/api/v1/user/${demo.user.id}`;
    const changeEmail = await call(app, 'PUT', url, {
      token: demo.token,
      body: { name: 'X', email: 'new@example.com' },
    });
    expect(changeEmail.statusCode).toBe(403);
    const changePassword = await call(app, 'PUT', url, {
      token: demo.token,
      body: { name: 'X', email: demo.user.email, password: 'another-pass-1', password_confirmation: 'another-pass-1' },
    });
    expect(changePassword.statusCode).toBe(403);
    const rename = await call(app, 'PUT', url, {
      token: demo.token,
      body: { name: 'Renamed', email: demo.user.email },
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().user.name).toBe('Renamed');
  });

  it('resets at 04:00 UTC exactly once per day, even with two instances on one database', async () => {
    const first = await start({ demoMode: true }, { now: '2026-05-10T03:00:00.000Z', sqliteFile: true });
    const second = await buildApp({ ...first.config });
    try {
      const stranger = await registerUser(first.app, { email: 'stranger@example.com' });
      expect(stranger.user.id).toBeGreaterThan(0);

      // Before 04:00 nothing is due: the start already counted as the reset of 05-09.
      expect(await runDailyResetIfDue(first.app.appContext)).toBe(false);
      expect(await runDailyResetIfDue(second.appContext)).toBe(false);

      first.clock.set('2026-05-10T04:00:30.000Z');
      // On PostgreSQL both race for real. SQLite connections in one process would block
      // each other's thread, so there the instances claim one after the other.
      const results = process.env.TEST_DATABASE_URL
        ? await Promise.all([runDailyResetIfDue(first.app.appContext), runDailyResetIfDue(second.appContext)])
        : [await runDailyResetIfDue(first.app.appContext), await runDailyResetIfDue(second.appContext)];
      expect(results.filter(Boolean)).toHaveLength(1);

      // Every account is gone, the demo ones are back, and the counters agree.
      const gone = await call(first.app, 'POST', '/api/v1/auth/login', {
        body: { email: 'stranger@example.com', password: 'correct-horse-1' },
      });
      expect(gone.statusCode).toBe(401);
      const admin = await login(first.app, DEMO_ACCOUNTS[0]!.email, DEMO_PASSWORD);
      const stats = (await call(first.app, 'GET', '/api/v1/dashboard/admin-data', { token: admin.token })).json();
      expect(stats.total_users).toBe(DEMO_ACCOUNTS.length);
      const all = (await call(first.app, 'GET', '/api/v1/entry/all', { token: admin.token })).json();
      expect(stats.total_entries).toBe(all.entries.total);

      // Later the same day: nothing more. The next day after 04:00: once again.
      first.clock.set('2026-05-10T23:59:00.000Z');
      expect(await runDailyResetIfDue(first.app.appContext)).toBe(false);
      expect(await runDailyResetIfDue(second.appContext)).toBe(false);
      first.clock.set('2026-05-11T04:01:00.000Z'); // both instances read this clock
      expect(await runDailyResetIfDue(second.appContext)).toBe(true);
      expect(await runDailyResetIfDue(first.app.appContext)).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('names the reset day by the 04:00 UTC boundary', () => {
    expect(dueResetDay(new Date('2026-01-01T03:59:59Z'))).toBe('2025-12-31');
    expect(dueResetDay(new Date('2026-01-01T04:00:00Z'))).toBe('2026-01-01');
  });
});

/**
 * Requests that arrive together: totals stay exact, unique rules and limits hold, and
 * nothing turns into a 500. The app answers requests concurrently on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createEntry,
  createTestApp,
  loginAdmin,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

async function adminTotals(): Promise<{ users: number; entries: number }> {
  const res = await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: admin.token });
  expect(res.statusCode).toBe(200);
  return { users: res.json().total_users, entries: res.json().total_entries };
}

async function ownTotal(token: string): Promise<{ total: number; listed: number }> {
  const res = await call(t.app, 'GET', '/api/v1/entry', { token, query: { per_page: 100 } });
  return { total: res.json().entries.total, listed: res.json().entries.data.length };
}

async function allTotal(): Promise<{ total: number; listed: number }> {
  const res = await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token, query: { per_page: 100 } });
  return { total: res.json().entries.total, listed: res.json().entries.data.length };
}

describe('totals under concurrent writes', () => {
  it('25 runs created at once are all stored and counted', async () => {
    const runner = await registerUser(t.app);
    const before = await adminTotals();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call(t.app, 'POST', '/api/v1/entry', {
          token: runner.token,
          body: { date: '2026-03-10', distance: 1 + i, time: '02:00:00' },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(25).fill(201));
    expect(new Set(results.map((r) => r.json().entry.id)).size).toBe(25);
    expect(await ownTotal(runner.token)).toEqual({ total: 25, listed: 25 });
    expect((await adminTotals()).entries).toBe(before.entries + 25);
  });

  it('the same run deleted five times at once is counted out once', async () => {
    const runner = await registerUser(t.app);
    const keep = await createEntry(t.app, runner.token, { date: '2026-03-10', distance: 5, time: '00:30:00' });
    const doomed = await createEntry(t.app, runner.token, { date: '2026-03-11', distance: 5, time: '00:30:00' });
    const before = await adminTotals();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => call(t.app, 'DELETE', `/api/v1/entry/${doomed.id}`, { token: runner.token })),
    );
    // Which of the racing requests see it gone first is up to the server; the totals are not.
    const statuses = results.map((r) => r.statusCode);
    expect(statuses).toContain(200);
    expect(
      statuses.every((s) => s === 200 || s === 404),
      statuses.join(','),
    ).toBe(true);
    expect(await ownTotal(runner.token)).toEqual({ total: 1, listed: 1 });
    expect((await adminTotals()).entries).toBe(before.entries - 1);
    expect((await call(t.app, 'GET', `/api/v1/entry/${keep.id}`, { token: runner.token })).statusCode).toBe(200);
  });

  it('deleting a user takes their runs out of every total', async () => {
    const runner = await registerUser(t.app);
    for (const date of ['2026-03-01', '2026-03-02', '2026-03-03']) {
      await createEntry(t.app, runner.token, { date, distance: 5, time: '00:30:00' });
    }
    const before = await adminTotals();
    const results = await Promise.all(
      Array.from({ length: 3 }, () => call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses).toContain(200);
    expect(
      statuses.every((s) => s === 200 || s === 404),
      statuses.join(','),
    ).toBe(true);
    expect(await adminTotals()).toEqual({ users: before.users - 1, entries: before.entries - 3 });
    const all = await allTotal();
    expect(all.total).toBe(before.entries - 3);
    expect(all.listed).toBe(Math.min(all.total, 100));
  });
});

describe('unique e-mail under concurrent registrations', () => {
  it('five registrations of one e-mail at once create exactly one account; the rest are 422', async () => {
    const before = await adminTotals();
    const body = {
      name: 'Racer',
      email: 'racer@example.com',
      password: 'racer-pass-1',
      password_confirmation: 'racer-pass-1',
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(t.app, 'POST', '/api/v1/auth/register', {
          body: { ...body, email: i % 2 ? 'RACER@example.com' : body.email },
          ip: nextIp(),
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422]);
    for (const res of results.filter((r) => r.statusCode === 422)) {
      expect(Object.keys(res.json().errors)).toEqual(['email']);
    }
    expect((await adminTotals()).users).toBe(before.users + 1);
  });
});

describe('login throttle under a burst', () => {
  it('twelve wrong passwords at once from one address get at most five answers; the rest are 429', async () => {
    const victim = await registerUser(t.app);
    const ip = nextIp();
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(t.app, 'POST', '/api/v1/auth/login', { body: { email: victim.user.email, password: 'guess-guess' }, ip }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(
      statuses.every((s) => s === 401 || s === 429),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.filter((s) => s === 401).length, statuses.join(',')).toBeLessThanOrEqual(5);
    const next = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: victim.user.email, password: victim.password },
      ip,
    });
    expect(next.statusCode).toBe(429);
  });
});

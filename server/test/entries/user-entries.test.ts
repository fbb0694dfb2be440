/**
 * GET /user/{id}/entries: one user's runs for the admin's user page, answered as GET /entry answers
 * one's own (order, range, paging, summary); anyone else's runs are for an admin only (§5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOT_FOUND,
  UNAUTHENTICATED,
  UNAUTHORIZED,
  call,
  createEntry,
  createTestApp,
  expectError,
  loginAdmin,
  makeManager,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
let admin: Account;
let runner: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
  runner = await registerUser(t.app);
  await createEntry(t.app, runner.token, { date: '2026-02-01', distance: 10, time: '00:50:00' });
  await createEntry(t.app, runner.token, { date: '2026-03-05', distance: 5.5, time: '00:30:00' });
  await createEntry(t.app, runner.token, { date: '2026-01-15', distance: 21.1, time: '01:50:00' });
});
afterAll(async () => t?.close());

const runsOf = (id: number, token: string | undefined, query: Record<string, string | number> = {}) =>
  call(t.app, 'GET', `/api/v1/user/${id}/entries`, { token, query });

describe('GET /api/v1/user/{id}/entries', () => {
  it("gives an admin a user's runs, newest first, with their totals, as GET /entry gives the runner", async () => {
    const res = await runsOf(runner.user.id, admin.token, { per_page: 1 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.entries.data.map((e: { date: string }) => e.date)).toEqual(['2026-03-05']);
    expect(body.entries.total).toBe(3);
    expect(body.summary).toEqual({ runs: 3, distance: 36.6, seconds: 3 * 3600 + 10 * 60, avg_pace: 5.19 });
    const own = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token, query: { per_page: 1 } });
    expect({ ...body, entries: { ...body.entries, next_page_url: null } }).toEqual({
      ...own.json(),
      entries: { ...own.json().entries, next_page_url: null },
    });
  });

  it('follows the range and the order', async () => {
    const body = (
      await runsOf(runner.user.id, admin.token, { dateFrom: '2026-01-01', dateTo: '2026-02-28', sort: 'distance' })
    ).json();
    expect(body.entries.data.map((e: { distance: number }) => e.distance)).toEqual([10, 21.1]);
    expect(body.summary.runs).toBe(2);
  });

  it('answers a user without runs with none, and an unknown user with 404', async () => {
    const quiet = await registerUser(t.app);
    const body = (await runsOf(quiet.user.id, admin.token)).json();
    expect(body.entries.data).toEqual([]);
    expect(body.summary).toEqual({ runs: 0, distance: 0, seconds: 0, avg_pace: null });
    const unknown = await runsOf(999_999, admin.token);
    expectError(unknown, 404);
    expect(unknown.json()).toEqual(NOT_FOUND);
  });

  it("refuses another user's runs to a manager and a user, and a guest", async () => {
    const manager = await registerUser(t.app);
    await makeManager(t.app, manager.user, admin.token);
    const other = await registerUser(t.app);
    for (const token of [manager.token, other.token]) {
      const res = await runsOf(runner.user.id, token);
      expectError(res, 403);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    expect((await runsOf(runner.user.id, undefined)).json()).toEqual(UNAUTHENTICATED);
    // One's own: as GET /entry.
    expect((await runsOf(runner.user.id, runner.token)).json().summary.runs).toBe(3);
  });
});

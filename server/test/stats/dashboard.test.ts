import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
import { ENTRY_KEYS, keysOf } from '../wire-keys.js';

const DASHBOARD_KEYS = [
  'max_distance',
  'max_speed',
  'max_time',
  'week_chart',
  'weekly_avg_pace',
  'weekly_avg_speed',
  'weekly_count',
];
const ADMIN_KEYS = [
  'avg_entries_per_user',
  'fastest_run',
  'longest_run',
  'new_users_this_month',
  'new_users_this_week',
  'total_entries',
  'total_users',
];

type ChartRow = [string, number, number];

/** Chart rows: labels exactly, numbers to two decimals. */
function expectChart(actual: unknown, expected: ChartRow[]) {
  expect(Array.isArray(actual)).toBe(true);
  const rows = actual as unknown[];
  expect(rows.map((row) => (row as unknown[])[0])).toEqual(expected.map((row) => row[0]));
  rows.forEach((row, i) => {
    const [, speed, distance] = row as ChartRow;
    const [, wantSpeed, wantDistance] = expected[i] as ChartRow;
    expect((row as unknown[]).length).toBe(3);
    expect(speed).toBeCloseTo(wantSpeed, 2);
    expect(distance).toBeCloseTo(wantDistance, 2);
  });
}

async function dashboard(app: TestApp['app'], token: string) {
  const res = await call(app, 'GET', '/api/v1/dashboard/data', { token });
  expect(res.statusCode, res.body).toBe(200);
  expect(keysOf(res.json())).toEqual(DASHBOARD_KEYS);
  return res.json();
}

describe('GET /api/v1/dashboard/data', () => {
  // Clock: Wednesday 2026-03-18 12:00 UTC; this ISO week is Mon 03-16 .. Sun 03-22;
  // the chart's 14 days including today are 03-05 .. 03-18.
  let t: TestApp;
  let runner: Account;
  beforeAll(async () => {
    t = await createTestApp();
    runner = await registerUser(t.app);
    const runs: [string, number, string][] = [
      ['2026-03-16', 10, '01:00:00'], // this week, 10 km/h
      ['2026-03-18', 5, '00:20:00'], // this week (today), 15 km/h
      ['2026-03-18', 3, '00:15:00'], // this week (today), 12 km/h
      ['2026-03-15', 21.1, '02:00:00'], // last Sunday: not this week, in the chart
      ['2026-03-05', 8, '00:48:00'], // first day of the chart window
      ['2026-03-04', 42.195, '04:10:00'], // one day before the window: longest distance and time
      ['2025-06-01', 1, '00:03:30'], // long ago: fastest (17.14 km/h)
    ];
    for (const [date, distance, time] of runs) await createEntry(t.app, runner.token, { date, distance, time });
    // Someone else's faster, longer runs this week must not count.
    const other = await registerUser(t.app);
    await createEntry(t.app, other.token, { date: '2026-03-17', distance: 50, time: '05:00:00' });
    await createEntry(t.app, other.token, { date: '2026-03-18', distance: 1, time: '00:02:00' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is empty with nulls for a runner with no runs', async () => {
    const fresh = await registerUser(t.app);
    expect(await dashboard(t.app, fresh.token)).toEqual({
      weekly_count: 0,
      weekly_avg_speed: null,
      weekly_avg_pace: null,
      max_speed: null,
      max_distance: null,
      max_time: null,
      week_chart: [],
    });
  });

  it("counts this week's runs and averages them as total distance over total time", async () => {
    const data = await dashboard(t.app, runner.token);
    expect(data.weekly_count).toBe(3);
    // 18 km in 95 minutes: 11.368 km/h and 5.278 min/km (not the mean of 10, 15 and 12).
    expect(data.weekly_avg_speed).toBeCloseTo(11.37, 2);
    expect(data.weekly_avg_pace).toBeCloseTo(5.28, 2);
  });

  it("gives the best speed, distance and time over all of the runner's runs", async () => {
    const data = await dashboard(t.app, runner.token);
    expect(data.max_speed).toBeCloseTo(17.14, 2);
    expect(data.max_distance).toBe(42.195);
    expect(data.max_time).toBe('04:10:00');
  });

  it('charts each day with runs in the last 14 days including today, oldest first', async () => {
    const data = await dashboard(t.app, runner.token);
    expectChart(data.week_chart, [
      ['03/05', 10, 8],
      ['03/15', 10.55, 21.1],
      ['03/16', 10, 10],
      // Two runs today: 8 km in 35 minutes is 13.71 km/h (time-weighted, not the mean 13.5).
      ['03/18', 13.71, 8],
    ]);
  });

  it('moves "this week" and the chart window with the clock', async () => {
    const saved = t.clock.now().toISOString();
    try {
      t.clock.set('2026-03-23T00:00:01Z'); // Monday: a new week with no runs yet
      const monday = await dashboard(t.app, runner.token);
      expect(monday.weekly_count).toBe(0);
      expect(monday.weekly_avg_speed).toBeNull();
      expect(monday.weekly_avg_pace).toBeNull();
      expect(monday.max_distance).toBe(42.195);
      // Window 03-10 .. 03-23.
      expectChart(monday.week_chart, [
        ['03/15', 10.55, 21.1],
        ['03/16', 10, 10],
        ['03/18', 13.71, 8],
      ]);
      t.clock.set('2026-03-22T23:59:59Z'); // still Sunday: the week's three runs count
      expect((await dashboard(t.app, runner.token)).weekly_count).toBe(3);
    } finally {
      t.clock.set(saved);
    }
  });

  describe("in the runner's time zone", () => {
    // Sunday 2026-03-22 12:00 UTC is Monday 02:00 (a new week) in Kiritimati
    // and Sunday 01:00 in Pago Pago.
    let z: TestApp;
    let east: Account;
    let west: Account;
    beforeAll(async () => {
      z = await createTestApp({}, { now: '2026-03-22T12:00:00Z' });
      east = await registerUser(z.app, { timezone: 'Pacific/Kiritimati' });
      west = await registerUser(z.app, { timezone: 'Pacific/Pago_Pago' });
      const add = (who: Account, date: string, distance: number, time: string) =>
        createEntry(z.app, who.token, { date, distance, time });
      await add(east, '2026-03-09', 5, '00:30:00');
      await add(east, '2026-03-10', 6, '00:30:00');
      await add(east, '2026-03-22', 5, '00:30:00');
      await add(east, '2026-03-23', 10, '01:00:00');
      await add(west, '2026-03-09', 5, '00:30:00');
      await add(west, '2026-03-10', 6, '00:30:00');
      await add(west, '2026-03-16', 10, '01:00:00');
      await add(west, '2026-03-22', 5, '00:20:00');
    });
    afterAll(async () => {
      await z.close();
    });

    it('Kiritimati: the week has just begun; the chart runs 03-10 .. 03-23', async () => {
      const data = await dashboard(z.app, east.token);
      expect(data.weekly_count).toBe(1);
      expect(data.weekly_avg_speed).toBeCloseTo(10, 2);
      expect(data.weekly_avg_pace).toBeCloseTo(6, 2);
      expectChart(data.week_chart, [
        ['03/10', 12, 6],
        ['03/22', 10, 5],
        ['03/23', 10, 10],
      ]);
    });

    it('Pago Pago: it is still Sunday; the chart runs 03-09 .. 03-22', async () => {
      const data = await dashboard(z.app, west.token);
      expect(data.weekly_count).toBe(2);
      // 15 km in 80 minutes.
      expect(data.weekly_avg_speed).toBeCloseTo(11.25, 2);
      expect(data.weekly_avg_pace).toBeCloseTo(5.33, 2);
      expectChart(data.week_chart, [
        ['03/09', 10, 5],
        ['03/10', 12, 6],
        ['03/16', 10, 10],
        ['03/22', 15, 5],
      ]);
    });
  });
});

describe('GET /api/v1/dashboard/admin-data', () => {
  describe('user statistics', () => {
    // The admin is created on 2026-01-10; the others at the instants below; now is
    // Wednesday 2026-03-18 12:00 UTC.
    let t: TestApp;
    let adminToken: string;
    let adminId: number;
    beforeAll(async () => {
      t = await createTestApp({}, { now: '2026-01-10T12:00:00Z' });
      for (const at of [
        '2026-02-20T12:00:00Z', // last month everywhere
        '2026-02-28T12:00:00Z', // last month in UTC, already March 1st in Kiritimati
        '2026-03-02T12:00:00Z', // this month, an earlier week
        '2026-03-15T23:30:00Z', // Sunday in UTC, already Monday (this week) in Kiritimati
        '2026-03-16T00:30:00Z', // Monday in UTC, still Sunday (last week) in Pago Pago
      ]) {
        t.clock.set(at);
        await registerUser(t.app);
      }
      t.clock.set('2026-03-18T12:00:00Z');
      const admin = await loginAdmin(t.app);
      adminToken = admin.token;
      adminId = admin.user.id;
    });
    afterAll(async () => {
      await t.close();
    });

    async function adminData() {
      const res = await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: adminToken });
      expect(res.statusCode, res.body).toBe(200);
      expect(keysOf(res.json())).toEqual(ADMIN_KEYS);
      return res.json();
    }

    async function setAdminZone(timezone: string) {
      const res = await call(t.app, 'PUT', `/api/v1/user/${adminId}`, {
        token: adminToken,
        body: { name: 'Admin', email: 'admin@example.com', timezone },
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    it('counts all users and the new ones of this week and month (UTC admin)', async () => {
      await setAdminZone('UTC');
      const data = await adminData();
      expect(data.total_users).toBe(6);
      expect(data.new_users_this_week).toBe(1);
      expect(data.new_users_this_month).toBe(3);
    });

    it("counts this week and month in the admin's zone: Kiritimati", async () => {
      await setAdminZone('Pacific/Kiritimati');
      const data = await adminData();
      expect(data.total_users).toBe(6);
      expect(data.new_users_this_week).toBe(2);
      expect(data.new_users_this_month).toBe(4);
    });

    it("counts this week and month in the admin's zone: Pago Pago", async () => {
      await setAdminZone('Pacific/Pago_Pago');
      const data = await adminData();
      expect(data.new_users_this_week).toBe(0);
      expect(data.new_users_this_month).toBe(3);
    });

    it('has no runs to show', async () => {
      const data = await adminData();
      expect(data.total_entries).toBe(0);
      expect(data.avg_entries_per_user).toBe(0);
      expect(data.fastest_run).toBeNull();
      expect(data.longest_run).toBeNull();
    });
  });

  describe('run statistics', () => {
    let t: TestApp;
    let adminToken: string;
    let alice: Account;
    let bob: Account;
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      t = await createTestApp();
      adminToken = (await loginAdmin(t.app)).token;
      alice = await registerUser(t.app, { name: 'Alice Stats' });
      bob = await registerUser(t.app, { name: 'Bob Stats' });
      const runs: [string, Account, number, string][] = [
        ['a10', alice, 10, '01:00:00'], // 10 km/h
        ['a20', alice, 20, '02:30:00'], // 8 km/h, 20 km: longest, lowest id
        ['b20', bob, 20, '02:00:00'], // 10 km/h, 20 km: tie on distance, later id
        ['b3', bob, 3, '00:15:00'], // 12 km/h: fastest, lowest id
        ['a6', alice, 6, '00:30:00'], // 12 km/h: tie on speed, later id
      ];
      for (const [key, who, distance, time] of runs) {
        ids[key] = (await createEntry(t.app, who.token, { date: '2026-03-10', distance, time })).id;
      }
    });
    afterAll(async () => {
      await t.close();
    });

    it('counts entries and averages them per user to 2 decimals', async () => {
      const res = await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: adminToken });
      expect(res.statusCode).toBe(200);
      const data = res.json();
      expect(data.total_users).toBe(3);
      expect(data.total_entries).toBe(5);
      expect(data.avg_entries_per_user).toBe(1.67);
    });

    it('gives the fastest and the longest run with their user; ties go to the lowest id', async () => {
      const data = (await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: adminToken })).json();
      expect(keysOf(data.fastest_run)).toEqual([...ENTRY_KEYS, 'user'].sort());
      expect(data.fastest_run).toMatchObject({
        id: ids.b3,
        user_id: bob.user.id,
        distance: 3,
        time: '00:15:00',
        speed: 12,
        pace: 5,
      });
      expect(data.fastest_run.user).toEqual({ id: bob.user.id, name: 'Bob Stats' });
      expect(keysOf(data.longest_run)).toEqual([...ENTRY_KEYS, 'user'].sort());
      expect(data.longest_run).toMatchObject({
        id: ids.a20,
        user_id: alice.user.id,
        distance: 20,
        time: '02:30:00',
        speed: 8,
        pace: 7.5,
      });
      expect(data.longest_run.user).toEqual({ id: alice.user.id, name: 'Alice Stats' });
    });

    it('is open to a manager', async () => {
      const manager = await registerUser(t.app);
      await makeManager(t.app, manager.user, adminToken);
      const res = await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: manager.token });
      expect(res.statusCode).toBe(200);
      expect(res.json().total_users).toBe(4);
      expect(res.json().avg_entries_per_user).toBe(1.25);
    });

    it('is closed to a plain user (403) and a guest (401)', async () => {
      expectError(
        await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: alice.token }),
        403,
        'This action is unauthorized.',
      );
      expectError(await call(t.app, 'GET', '/api/v1/dashboard/admin-data'), 401, 'Unauthenticated.');
    });
  });
});

// The dashboard is kept in the answer cache under the runner's revision and today (decision 034):
// every write of the runner's runs, and a new day, must show on the next read.
describe('GET /api/v1/dashboard/data: every write shows on the next read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('follows a new run, an edit, a deletion and the next day', async () => {
    const runner = await registerUser(t.app);
    expect(await dashboard(t.app, runner.token)).toMatchObject({ weekly_count: 0, max_distance: null });
    const run = await createEntry(t.app, runner.token, { date: '2026-03-18', distance: 5, time: '00:30:00' });
    expect(await dashboard(t.app, runner.token)).toMatchObject({
      weekly_count: 1,
      max_distance: 5,
      max_time: '00:30:00',
    });
    const edit = { date: '2026-03-18', distance: 8, time: '00:40:00' };
    expect((await call(t.app, 'PUT', `/api/v1/entry/${run.id}`, { token: runner.token, body: edit })).statusCode).toBe(
      200,
    );
    expect(await dashboard(t.app, runner.token)).toMatchObject({
      weekly_count: 1,
      max_distance: 8,
      max_time: '00:40:00',
    });
    await call(t.app, 'DELETE', `/api/v1/entry/${run.id}`, { token: runner.token });
    expect(await dashboard(t.app, runner.token)).toMatchObject({ weekly_count: 0, max_distance: null });

    await createEntry(t.app, runner.token, { date: '2026-03-18', distance: 5, time: '00:30:00' });
    expect(await dashboard(t.app, runner.token)).toMatchObject({ weekly_count: 1, week_chart: [['03/18', 10, 5]] });
    // Monday 2026-03-23 starts a new week: the run of the 18th leaves this week's count, not the
    // chart of the last 14 days; on April 1st it leaves the chart too.
    t.clock.set('2026-03-23T12:00:00Z');
    expect(await dashboard(t.app, runner.token)).toMatchObject({ weekly_count: 0, week_chart: [['03/18', 10, 5]] });
    t.clock.set('2026-04-01T12:00:00Z');
    expect(await dashboard(t.app, runner.token)).toMatchObject({ weekly_count: 0, max_distance: 5, week_chart: [] });
  });
});

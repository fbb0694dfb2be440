import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createEntry,
  createTestApp,
  expectError,
  expectValidation,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { keysOf } from '../wire-keys.js';

const ROW_KEYS = [
  'avg_distance',
  'avg_speed',
  'count',
  'total_distance',
  'total_time',
  'week',
  'week_end',
  'week_start',
];

interface Row {
  week: number;
  week_start: string;
  week_end: string;
  avg_speed: number;
  avg_distance: number;
  count: number;
  total_distance: number;
  total_time: string;
}

function expectRows(actual: Row[], expected: Row[]) {
  expect(actual.map((r) => [r.week, r.week_start, r.week_end, r.count])).toEqual(
    expected.map((r) => [r.week, r.week_start, r.week_end, r.count]),
  );
  actual.forEach((row, i) => {
    const want = expected[i] as Row;
    expect(keysOf(row)).toEqual(ROW_KEYS);
    expect(row.avg_speed).toBeCloseTo(want.avg_speed, 2);
    expect(row.avg_distance).toBeCloseTo(want.avg_distance, 2);
    expect(row.total_distance).toBeCloseTo(want.total_distance, 3);
    expect(row.total_time).toBe(want.total_time);
  });
}

function expectChart(actual: unknown, expected: Row[]) {
  const rows = actual as [number, number, number][];
  expect(rows.map((r) => r[0])).toEqual(expected.map((r) => r.week));
  rows.forEach((row, i) => {
    const want = expected[i] as Row;
    expect(row).toHaveLength(3);
    expect(row[1]).toBeCloseTo(want.avg_speed, 2);
    expect(row[2]).toBeCloseTo(want.avg_distance, 2);
  });
}

describe('GET /api/v1/report/weekly', () => {
  // Clock: Wednesday 2027-02-10 12:00 UTC, ISO week 6 of 2027.
  let t: TestApp;
  let runner: Account;
  let other: Account;
  beforeAll(async () => {
    t = await createTestApp({}, { now: '2027-02-10T12:00:00Z' });
    runner = await registerUser(t.app);
    other = await registerUser(t.app);
    const runs: [string, number, string][] = [
      ['2019-12-30', 6, '00:36:00'], // Monday of week 1 of ISO 2020
      ['2020-06-10', 7, '00:42:00'], // week 24 of 2020
      ['2020-12-31', 10, '01:00:00'], // Thursday, week 53 of 2020
      ['2021-01-01', 5, '00:20:00'], // Friday, still week 53 of 2020
      ['2021-01-04', 8, '00:40:00'], // Monday, week 1 of 2021
      ['2024-12-30', 12, '01:00:00'], // Monday, week 1 of 2025
      ['2026-12-31', 10, '00:50:00'], // Thursday, week 53 of 2026
      ['2027-01-01', 9, '00:45:00'], // Friday, week 53 of 2026
      ['2027-02-08', 5, '00:25:00'], // Monday, week 6 of 2027
    ];
    for (const [date, distance, time] of runs) await createEntry(t.app, runner.token, { date, distance, time });
    // Another runner's runs must change nothing in the runner's report.
    await createEntry(t.app, other.token, { date: '2020-06-11', distance: 30, time: '01:30:00' });
    await createEntry(t.app, other.token, { date: '1990-05-05', distance: 3, time: '00:15:00' });
  });
  afterAll(async () => {
    await t.close();
  });

  async function weekly(token: string, year?: number | string) {
    const res = await call(t.app, 'GET', '/api/v1/report/weekly', { token, query: year === undefined ? {} : { year } });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['weekly']);
    expect(keysOf(res.json().weekly)).toEqual(['chart', 'data', 'max_year', 'min_year', 'year']);
    return res.json().weekly;
  }

  it('reports ISO weeks of 2020, week 53 holding the runs of Dec 31 and Jan 1; data newest first, chart oldest first', async () => {
    const report = await weekly(runner.token, 2020);
    expect(report.year).toBe(2020);
    const rows: Row[] = [
      // 15 km in 80 minutes: 11.25 km/h, 7.5 km per run.
      {
        week: 53,
        week_start: '2020-12-28',
        week_end: '2021-01-03',
        avg_speed: 11.25,
        avg_distance: 7.5,
        count: 2,
        total_distance: 15,
        total_time: '01:20:00',
      },
      {
        week: 24,
        week_start: '2020-06-08',
        week_end: '2020-06-14',
        avg_speed: 10,
        avg_distance: 7,
        count: 1,
        total_distance: 7,
        total_time: '00:42:00',
      },
      {
        week: 1,
        week_start: '2019-12-30',
        week_end: '2020-01-05',
        avg_speed: 10,
        avg_distance: 6,
        count: 1,
        total_distance: 6,
        total_time: '00:36:00',
      },
    ];
    expectRows(report.data, rows);
    expectChart(report.chart, [...rows].reverse());
  });

  it('keeps Jan 1 2021 out of 2021, whose week 1 starts on Jan 4', async () => {
    const report = await weekly(runner.token, 2021);
    expectRows(report.data, [
      {
        week: 1,
        week_start: '2021-01-04',
        week_end: '2021-01-10',
        avg_speed: 12,
        avg_distance: 8,
        count: 1,
        total_distance: 8,
        total_time: '00:40:00',
      },
    ]);
  });

  it('puts 2024-12-30 in week 1 of 2025 and not in 2024', async () => {
    expect((await weekly(runner.token, 2024)).data).toEqual([]);
    expect((await weekly(runner.token, 2024)).chart).toEqual([]);
    expectRows((await weekly(runner.token, 2025)).data, [
      {
        week: 1,
        week_start: '2024-12-30',
        week_end: '2025-01-05',
        avg_speed: 12,
        avg_distance: 12,
        count: 1,
        total_distance: 12,
        total_time: '01:00:00',
      },
    ]);
  });

  it('reports week 53 of 2026, running into 2027', async () => {
    const report = await weekly(runner.token, 2026);
    // 19 km in 95 minutes: 12 km/h; 9.5 km per run.
    const rows: Row[] = [
      {
        week: 53,
        week_start: '2026-12-28',
        week_end: '2027-01-03',
        avg_speed: 12,
        avg_distance: 9.5,
        count: 2,
        total_distance: 19,
        total_time: '01:35:00',
      },
    ];
    expectRows(report.data, rows);
    expectChart(report.chart, rows);
  });

  it('defaults to the current year', async () => {
    const report = await weekly(runner.token);
    expect(report.year).toBe(2027);
    expectRows(report.data, [
      {
        week: 6,
        week_start: '2027-02-08',
        week_end: '2027-02-14',
        avg_speed: 12,
        avg_distance: 5,
        count: 1,
        total_distance: 5,
        total_time: '00:25:00',
      },
    ]);
  });

  it("spans min_year..max_year over the caller's own runs only", async () => {
    const mine = await weekly(runner.token, 2021);
    expect(mine.max_year).toBe(2027);
    expect([2019, 2020]).toContain(mine.min_year); // the first run, 2019-12-30, is in ISO year 2020
    const theirs = await weekly(other.token, 2020);
    expect(theirs.min_year).toBe(1990);
    expect(theirs.max_year).toBe(2020);
    expectRows(theirs.data, [
      {
        week: 24,
        week_start: '2020-06-08',
        week_end: '2020-06-14',
        avg_speed: 20,
        avg_distance: 30,
        count: 1,
        total_distance: 30,
        total_time: '01:30:00',
      },
    ]);
  });

  it('gives the current year as both bounds to a runner with no runs', async () => {
    const fresh = await registerUser(t.app);
    const report = await weekly(fresh.token);
    expect(report).toEqual({ year: 2027, min_year: 2027, max_year: 2027, data: [], chart: [] });
  });

  it('keeps the bounds when asked for a year without runs', async () => {
    const report = await weekly(other.token, 2005);
    expect(report).toMatchObject({ year: 2005, min_year: 1990, max_year: 2020, data: [], chart: [] });
  });

  it.each([1900, 2100])('accepts year %i', async (year) => {
    expect((await weekly(runner.token, year)).year).toBe(year);
  });

  it.each([
    ['1899', 'The year must be at least 1900.'],
    ['2101', 'The year must not be greater than 2100.'],
    ['twenty', 'The year must be an integer.'],
    ['2020.5', 'The year must be an integer.'],
  ])('rejects year=%s with 422', async (year, message) => {
    const res = await call(t.app, 'GET', '/api/v1/report/weekly', { token: runner.token, query: { year } });
    expectValidation(res, 'year', message);
  });

  it('answers 401 to a guest', async () => {
    expectError(await call(t.app, 'GET', '/api/v1/report/weekly'), 401, 'Unauthenticated.');
  });
});

describe("GET /api/v1/report/weekly: the current year is the user's own", () => {
  // Sunday 2023-12-31 12:00 UTC is already Monday 2024-01-01 in Kiritimati.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { now: '2023-12-31T12:00:00Z' });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['UTC', 2023],
    ['Pacific/Pago_Pago', 2023],
    ['Pacific/Kiritimati', 2024],
  ])('%s: the default year is %i', async (timezone, year) => {
    const account = await registerUser(t.app, { timezone });
    const res = await call(t.app, 'GET', '/api/v1/report/weekly', { token: account.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().weekly).toEqual({ year, min_year: year, max_year: year, data: [], chart: [] });
  });
});

// The report is kept in the answer cache under the runner's revision and today (decision 034):
// every write of the runner's runs, and a new year, must show on the next read.
describe('GET /api/v1/report/weekly: every write shows on the next read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { now: '2026-12-31T12:00:00Z' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('follows a new run, an edit, a deletion and the turn of the year', async () => {
    const runner = await registerUser(t.app);
    const report = async () => {
      const res = await call(t.app, 'GET', '/api/v1/report/weekly', { token: runner.token });
      expect(res.statusCode).toBe(200);
      return res.json().weekly as { year: number; min_year: number; data: Row[] };
    };
    expect(await report()).toMatchObject({ year: 2026, min_year: 2026, data: [] });
    const run = await createEntry(t.app, runner.token, { date: '2026-12-02', distance: 5, time: '00:30:00' });
    expect((await report()).data).toMatchObject([{ week: 49, count: 1, total_distance: 5, total_time: '00:30:00' }]);
    const edit = { date: '2026-12-02', distance: 8, time: '00:40:00' };
    expect((await call(t.app, 'PUT', `/api/v1/entry/${run.id}`, { token: runner.token, body: edit })).statusCode).toBe(
      200,
    );
    expect((await report()).data).toMatchObject([{ week: 49, count: 1, total_distance: 8, total_time: '00:40:00' }]);
    await createEntry(t.app, runner.token, { date: '2025-06-01', distance: 3, time: '00:20:00' });
    expect(await report()).toMatchObject({ min_year: 2025, data: [{ week: 49 }] });
    await call(t.app, 'DELETE', `/api/v1/entry/${run.id}`, { token: runner.token });
    expect(await report()).toMatchObject({ year: 2026, min_year: 2025, data: [] });
    // 2027-01-04 is the Monday of week 1 of 2027: the default year moves with the runner's today.
    t.clock.set('2027-01-04T12:00:00Z');
    expect(await report()).toMatchObject({ year: 2027, min_year: 2025, data: [] });
  });
});

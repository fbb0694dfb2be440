/**
 * GET /entry's `sort` and `summary` (CONTRACT.md §18): every order against one computed here
 * from the runs themselves, page by page, and the totals of every run of the filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_SORTS, SORT_MESSAGE, type Entry, type EntrySort } from '../../../core/schemas.js';
import {
  call,
  createEntry,
  createTestApp,
  expectValidation,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
let runner: Account;
const made: Entry[] = [];

/** Whole seconds of `HH:MM:SS`. */
const secondsOf = (time: string) => time.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);

/** Ties in every column: equal distances, equal times, equal paces (5 km in 25:00 and 10 km in 50:00), one date twice. */
const RUNS: [string, number, string][] = [
  ['2026-03-01', 5, '00:25:00'],
  ['2026-03-01', 10, '00:50:00'],
  ['2026-03-02', 5, '00:30:00'],
  ['2026-02-10', 21.1, '01:45:00'],
  ['2026-02-10', 7.3, '00:30:00'],
  ['2026-01-05', 12.345, '01:10:07'],
  ['2025-12-31', 5, '00:25:00'],
  ['2025-11-20', 42.195, '03:29:59'],
  ['2026-03-15', 3.2, '00:19:12'],
  ['2026-03-15', 8, '00:40:00'],
];

/** The order of §18, written from the contract: a leading `-` is descending; ties by date desc, then id desc. */
function expectedOrder(runs: Entry[], sort: EntrySort): number[] {
  const descending = sort.startsWith('-');
  const key = sort.replace(/^-/, '');
  const value = (e: Entry) =>
    // Pace as seconds per metre, one division of two whole numbers: equal paces compare equal.
    key === 'distance'
      ? e.distance
      : key === 'time'
        ? secondsOf(e.time)
        : secondsOf(e.time) / Math.round(e.distance * 1000);
  const byDateDescIdDesc = (a: Entry, b: Entry) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1);
  return [...runs]
    .sort((a, b) => {
      if (key === 'date') return descending ? byDateDescIdDesc(a, b) : -byDateDescIdDesc(a, b);
      const difference = descending ? value(b) - value(a) : value(a) - value(b);
      return difference !== 0 ? difference : byDateDescIdDesc(a, b);
    })
    .map((e) => e.id);
}

beforeAll(async () => {
  t = await createTestApp();
  runner = await registerUser(t.app);
  for (const [date, distance, time] of RUNS)
    made.push(await createEntry(t.app, runner.token, { date, distance, time }));
  // Another runner's runs are in no list or total of this runner.
  const other = await registerUser(t.app);
  await createEntry(t.app, other.token, { date: '2026-03-01', distance: 30, time: '02:00:00' });
});
afterAll(async () => {
  await t.close();
});

async function list(query: Record<string, string | number>) {
  const res = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    entries: { data: Entry[]; total: number; last_page: number };
    summary: { runs: number; distance: number; seconds: number; avg_pace: number | null };
  };
}

/** Every page of a list, joined. */
async function allPages(query: Record<string, string | number>, perPage: number): Promise<number[]> {
  const ids: number[] = [];
  const first = await list({ ...query, per_page: perPage });
  ids.push(...first.entries.data.map((e) => e.id));
  for (let page = 2; page <= first.entries.last_page; page++) {
    ids.push(...(await list({ ...query, per_page: perPage, page })).entries.data.map((e) => e.id));
  }
  return ids;
}

describe('GET /api/v1/entry?sort', () => {
  it.each(ENTRY_SORTS)('orders the runs by %s, on one page and across pages of 3', async (sort) => {
    const want = expectedOrder(made, sort);
    expect((await list({ sort, per_page: 100 })).entries.data.map((e) => e.id)).toEqual(want);
    expect(await allPages({ sort }, 3)).toEqual(want);
  });

  it('keeps the contract order without sort: date desc, then id desc', async () => {
    const plain = (await list({ per_page: 100 })).entries.data.map((e) => e.id);
    expect(plain).toEqual(expectedOrder(made, '-date'));
  });

  it('orders within a date range, whose total counts only the runs in it', async () => {
    const inFebruaryAndMarch = made.filter((e) => e.date >= '2026-02-01' && e.date <= '2026-03-02');
    for (const sort of ['distance', '-pace', 'date'] as const) {
      const result = await list({ sort, dateFrom: '2026-02-01', dateTo: '2026-03-02', per_page: 2 });
      expect(result.entries.total).toBe(inFebruaryAndMarch.length);
      expect(await allPages({ sort, dateFrom: '2026-02-01', dateTo: '2026-03-02' }, 2)).toEqual(
        expectedOrder(inFebruaryAndMarch, sort),
      );
    }
  });

  it.each(['speed', 'DATE', '+date', '--date', 'date,distance'])('refuses sort=%s with 422 on sort', async (sort) => {
    const res = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token, query: { sort } });
    expectValidation(res, 'sort', SORT_MESSAGE);
  });
});

describe('GET /api/v1/entry summary', () => {
  /** The totals of §18, written from the contract. */
  function expectedSummary(runs: Entry[]) {
    const distance = runs.reduce((sum, e) => sum + Math.round(e.distance * 1000), 0) / 1000;
    const seconds = runs.reduce((sum, e) => sum + secondsOf(e.time), 0);
    return {
      runs: runs.length,
      distance,
      seconds,
      avg_pace: runs.length === 0 ? null : Math.round((seconds / distance / 60) * 100) / 100,
    };
  }

  it('covers every run of the filter, not only the page', async () => {
    const result = await list({ per_page: 2 });
    expect(result.entries.data).toHaveLength(2);
    const summary = result.summary;
    const want = expectedSummary(made);
    expect(summary.runs).toBe(want.runs);
    expect(summary.distance).toBeCloseTo(want.distance, 3);
    expect(summary.seconds).toBe(want.seconds);
    expect(summary.avg_pace).toBe(want.avg_pace);
  });

  it.each([
    ['2026-03-01', '2026-03-01'],
    ['2026-01-01', '2026-02-28'],
    ['2025-11-20', undefined],
    [undefined, '2025-12-31'],
  ])('adds up the runs from %s to %s (both inclusive), whatever the sort', async (dateFrom, dateTo) => {
    const query = { ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}) };
    const runs = made.filter((e) => (!dateFrom || e.date >= dateFrom) && (!dateTo || e.date <= dateTo));
    const want = expectedSummary(runs);
    for (const sort of ['-date', 'pace']) {
      const { summary } = await list({ ...query, sort });
      expect({ ...summary, distance: Math.round(summary.distance * 1000) }).toEqual({
        ...want,
        distance: Math.round(want.distance * 1000),
      });
    }
  });

  it('is zero with a null pace when the filter holds no run, and follows edits and deletions', async () => {
    expect((await list({ dateFrom: '2020-01-01', dateTo: '2020-12-31' })).summary).toEqual({
      runs: 0,
      distance: 0,
      seconds: 0,
      avg_pace: null,
    });
    const fresh = await registerUser(t.app);
    const own = async () =>
      (await call(t.app, 'GET', '/api/v1/entry', { token: fresh.token })).json().summary as Record<string, unknown>;
    expect(await own()).toEqual({ runs: 0, distance: 0, seconds: 0, avg_pace: null });
    const run = await createEntry(t.app, fresh.token, { date: '2026-03-10', distance: 10, time: '00:53:30' });
    expect(await own()).toEqual({ runs: 1, distance: 10, seconds: 3210, avg_pace: 5.35 });
    await call(t.app, 'PUT', `/api/v1/entry/${run.id}`, {
      token: fresh.token,
      body: { date: '2026-03-10', distance: 12.5, time: '01:00:00' },
    });
    expect(await own()).toEqual({ runs: 1, distance: 12.5, seconds: 3600, avg_pace: 4.8 });
    await call(t.app, 'DELETE', `/api/v1/entry/${run.id}`, { token: fresh.token });
    expect(await own()).toEqual({ runs: 0, distance: 0, seconds: 0, avg_pace: null });
  });
});

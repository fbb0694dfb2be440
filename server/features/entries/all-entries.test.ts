/**
 * Everyone's runs (date desc, distance desc, id desc), on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL): every page found through the day buckets (the rest of its day skipped by a
 * plain OFFSET) equals the plain ORDER BY ... LIMIT/OFFSET over all runs, in every range, to past
 * the end, through creates, edits that move runs to another day or distance, deletes and a
 * runner's deletion, one by one and racing each other; the tallies equal the counts of the runs
 * after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainedTotals, recountedTotals } from '../../../scripts/seed/consistency.js';
import { inTransaction, type AppContext } from '../../context.js';
import { call, createTestApp, loginAdmin, registerUser, type Account, type TestApp } from '../../test/helpers.js';
import { together } from '../../test/race.js';
import * as everyone from './everyone.repository.js';
import { insertRuns } from './entries.service.js';

let t: TestApp;
let admin: Account;
const runners: Account[] = [];
const ctx = (): AppContext => t.app.appContext;

/** Days over three years and several months; many runs share a day and a distance. */
const DAYS = [
  '2026-03-18',
  '2026-03-17',
  '2026-03-01',
  '2026-02-28',
  '2026-02-01',
  '2026-01-31',
  '2025-12-31',
  '2025-06-15',
  '2024-02-29',
  '2023-11-05',
];
/** Kilometres: ties, both sides of a kilometre's edge, and far apart. */
const DISTANCES = [0.5, 0.999, 1, 5, 5, 5.5, 9.999, 10, 10, 10.001, 21.1, 42.195, 999];

const RANGES: { dateFrom?: string; dateTo?: string }[] = [
  {},
  { dateFrom: '2026-03-01' },
  { dateTo: '2026-02-28' },
  { dateFrom: '2025-06-15', dateTo: '2026-03-01' },
  { dateFrom: '2026-02-01', dateTo: '2026-02-28' },
  { dateFrom: '2026-02-02', dateTo: '2026-03-17' },
  { dateFrom: '2024-02-29', dateTo: '2024-02-29' },
  { dateFrom: '2027-01-01' },
];

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(20261123);
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
const runBody = () => ({ date: pick(DAYS), distance: pick(DISTANCES), time: '23:00:00' });

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
  for (let i = 0; i < 6; i++) runners.push(await registerUser(t.app));
  const now = new Date().toISOString();
  for (const runner of runners) {
    const values = Array.from({ length: 70 }, () => {
      const body = runBody();
      return { date: body.date, distanceKm: body.distance, seconds: 23 * 3600 };
    });
    await inTransaction(ctx(), (trx) => insertRuns(trx, runner.user.id, values, now));
  }
});
afterAll(async () => {
  await t.close();
});

/** The plain answer: every run of the range in the list's order, read in full. */
async function plainOrder(range: { from?: string | undefined; to?: string | undefined }): Promise<number[]> {
  let query = ctx().db.selectFrom('entries').select('id');
  if (range.from) query = query.where('date', '>=', range.from);
  if (range.to) query = query.where('date', '<=', range.to);
  const rows = await query.orderBy('date', 'desc').orderBy('distance_m', 'desc').orderBy('id', 'desc').execute();
  return rows.map((r) => Number(r.id));
}

async function expectTalliesExact() {
  expect(await maintainedTotals(ctx().db)).toEqual(await recountedTotals(ctx().db));
}

/** Every page (7 runs, seeking from the first row on) of every range, and some over HTTP. */
async function expectEveryPage() {
  await expectTalliesExact();
  for (const range of RANGES) {
    const order = await plainOrder({ from: range.dateFrom, to: range.dateTo });
    // One way to page: through the day buckets, from the first page on.
    const ways = [{}];
    for (const how of ways) {
      for (let offset = 0; offset <= order.length + 7; offset += 7) {
        const page = await everyone.listAllEntries(ctx().db, { ...range, limit: 7, offset, ...how });
        const label = `${JSON.stringify(range)} offset ${offset} ${JSON.stringify(how)}`;
        expect(page.total, label).toBe(order.length);
        expect(
          page.entries.map((e) => e.id),
          label,
        ).toEqual(order.slice(offset, offset + 7));
      }
    }
    // Through the API, to past the last page.
    const lastPage = Math.max(1, Math.ceil(order.length / 100));
    for (const page of [1, lastPage - 1, lastPage, lastPage + 1].filter((p) => p >= 1)) {
      const res = await call(t.app, 'GET', '/api/v1/entry/all', {
        token: admin.token,
        query: { ...range, page, per_page: 100 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ entries: { data: { id: number }[]; total: number; last_page: number } }>().entries;
      expect(body.total).toBe(order.length);
      expect(body.last_page).toBe(lastPage);
      expect(body.data.map((e) => e.id)).toEqual(order.slice((page - 1) * 100, page * 100));
    }
  }
}

async function someRunIds(n: number): Promise<number[]> {
  const all = await plainOrder({});
  return Array.from({ length: n }, () => pick(all));
}

describe("everyone's runs through the day buckets", () => {
  it('equal the plain pages after seeding', expectEveryPage);

  it('equal the plain pages after creates, edits that move runs, deletes and a runner deleted', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await call(t.app, 'POST', '/api/v1/entry', { token: pick(runners).token, body: runBody() });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const id of await someRunIds(40)) {
      const res = await call(t.app, 'PUT', `/api/v1/entry/${id}`, { token: admin.token, body: runBody() });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const id of new Set(await someRunIds(25))) {
      const res = await call(t.app, 'DELETE', `/api/v1/entry/${id}`, { token: admin.token });
      expect(res.statusCode, res.body).toBe(200);
    }
    const gone = runners.shift()!;
    const res = await call(t.app, 'DELETE', `/api/v1/user/${gone.user.id}`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    await expectEveryPage();
  });

  it('equal the plain pages after creates, edits and deletes race each other and a runner deleted', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const ids = await someRunIds(24);
      const doomed = runners.shift()!;
      runners.push(await registerUser(t.app));
      const calls: (() => Promise<unknown>)[] = [
        () => call(t.app, 'DELETE', `/api/v1/user/${doomed.user.id}`, { token: admin.token }),
        ...Array.from({ length: 12 }, () => () => {
          const runner = pick([doomed, ...runners]);
          return call(t.app, 'POST', '/api/v1/entry', { token: runner.token, body: runBody() });
        }),
        ...ids
          .slice(0, 12)
          .map((id) => () => call(t.app, 'PUT', `/api/v1/entry/${id}`, { token: admin.token, body: runBody() })),
        ...ids.slice(12).map((id) => () => call(t.app, 'DELETE', `/api/v1/entry/${id}`, { token: admin.token })),
      ];
      // What each racing request answers is server/test/reliability/races.test.ts's concern; here, what
      // the list and the buckets say once they are all done.
      await together(calls);
      await expectEveryPage();
    }
  });
});

/**
 * The insights memo (decision 017): never a stale answer. Two apps share one database (two
 * instances); after every kind of write (create, edit, delete, an import, a shoe deleted under a
 * run, a time zone change) and a change of date, every endpoint of both apps, asked twice (the
 * second answer comes from the memo), equals a fresh computation. And the memo's own bounds.
 * Runs on SQLite (a file, shared by the two apps), and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { inTransaction, type AppContext } from '../../context.js';
import { importFiles } from '../../test/imports/fixtures.js';
import { fitActivity } from '../../test/imports/fit-fixtures.js';
import { call, createEntry, registerUser, createTestApp, type Account, type TestApp } from '../../test/helpers.js';
import { insertRuns } from '../entries/entries.service.js';
import { AnswerMemo } from '../../memo.js';
import { insightRevision } from '../../db/tallies.js';
import { fresh } from './insights.service.js';

let t: TestApp;
let second: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T22:30:00Z', sqliteFile: true });
  second = await buildApp(t.config);
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

type Owner = { id: number; role: 'user'; timezone: string };

async function ownerOf(ctx: AppContext, id: number): Promise<Owner> {
  const row = await ctx.db.selectFrom('users').select('timezone').where('id', '=', id).executeTakeFirstOrThrow();
  return { id, role: 'user', timezone: row.timezone };
}

/** Each endpoint with its arguments, and its fresh answer under the envelope's key. */
const ENDPOINTS: [string, (ctx: AppContext, owner: Owner) => Promise<[string, unknown]>][] = [
  ['records', async (ctx, o) => ['records', await fresh.records(ctx, o)]],
  ['predictions', async (ctx, o) => ['predictions', await fresh.predictions(ctx, o)]],
  ['load', async (ctx, o) => ['load', await fresh.load(ctx, o, undefined)]],
  ['load?date=2026-01-10', async (ctx, o) => ['load', await fresh.load(ctx, o, '2026-01-10')]],
  ['streaks', async (ctx, o) => ['streaks', await fresh.streaks(ctx, o)]],
  ['calendar', async (ctx, o) => ['calendar', await fresh.calendar(ctx, o, undefined)]],
  ['calendar?year=2025', async (ctx, o) => ['calendar', await fresh.calendar(ctx, o, 2025)]],
  ['year', async (ctx, o) => ['year', await fresh.yearReview(ctx, o, undefined)]],
  ['year?year=2025', async (ctx, o) => ['year', await fresh.yearReview(ctx, o, 2025)]],
];

/** Every endpoint of both apps, twice each, equals a fresh computation. */
async function expectCurrent(runner: Account): Promise<void> {
  for (const app of [t.app, second]) {
    const ctx = app.appContext;
    const owner = await ownerOf(ctx, runner.user.id);
    for (const [path, compute] of ENDPOINTS) {
      const [key, value] = await compute(ctx, owner);
      const expected = JSON.parse(JSON.stringify({ [key]: value })) as unknown;
      for (let i = 0; i < 2; i++) {
        const res = await call(app, 'GET', `/api/v1/insights/${path}`, { token: runner.token });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.json(), `${path} (ask ${i + 1})`).toEqual(expected);
      }
    }
  }
}

describe('insights memo: never stale, in either of two apps on one database', () => {
  it('follows creates, edits, deletes, imports, a shoe deleted, a time zone and a date change', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const db = t.app.appContext.db;
    const id = runner.user.id;
    expect(await insightRevision(db, id)).toBe(0);

    const first = await createEntry(t.app, runner.token, { date: '2026-03-17', distance: 10.1, time: '00:50:00' });
    const rated = { date: '2025-06-01', distance: 5, time: '00:24:00', effort: 7 };
    await createEntry(t.app, runner.token, rated);
    await expectCurrent(runner);
    // The answers are memoized: each app keeps some, and only writes move the revision.
    expect(t.app.appContext.memory.insights.size).toBeGreaterThan(0);
    expect(second.appContext.memory.insights.size).toBeGreaterThan(0);
    const settled = await insightRevision(db, id);
    expect(settled).toBeGreaterThanOrEqual(2);

    // A create in one app, seen by the other.
    const hard = { date: '2026-03-18', distance: 10.05, time: '00:48:00', effort: 8 };
    await createEntry(second, runner.token, hard);
    expect(await insightRevision(db, id)).toBeGreaterThan(settled);
    await expectCurrent(runner);

    // An edit of anything about a run (its notes show in the year's longest run).
    const edited = await call(second, 'PUT', `/api/v1/entry/${first.id}`, {
      token: runner.token,
      body: { date: '2026-03-16', distance: 21.2, time: '01:40:00', notes: 'Long one' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await expectCurrent(runner);

    // A shoe deleted under a run clears the run's shoe (a cascade, not an edit of the run).
    const shoe = await call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body: { name: 'Racer' } });
    expect(shoe.statusCode, shoe.body).toBe(201);
    const shoeId = (shoe.json() as { shoe: { id: number } }).shoe.id;
    const shod = await call(t.app, 'PUT', `/api/v1/entry/${first.id}`, {
      token: runner.token,
      body: { date: '2026-03-16', distance: 21.2, time: '01:40:00', shoe_id: shoeId },
    });
    expect(shod.statusCode, shod.body).toBe(200);
    await expectCurrent(runner);
    const gone = await call(second, 'DELETE', `/api/v1/shoes/${shoeId}`, { token: runner.token });
    expect(gone.statusCode, gone.body).toBe(200);
    await expectCurrent(runner);

    // A delete.
    const deleted = await call(t.app, 'DELETE', `/api/v1/entry/${first.id}`, { token: runner.token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expectCurrent(runner);

    // An import through the API, and many runs stored in one transaction.
    const run = { start: new Date('2026-03-10T07:00:00Z'), metres: 10_020, timerSeconds: 2_700 };
    const imported = await importFiles(second, runner.token, [{ name: 'race.fit', content: fitActivity(run) }]);
    expect(imported.statusCode, imported.body).toBe(201);
    await expectCurrent(runner);
    await inTransaction(t.app.appContext, (trx) =>
      insertRuns(
        trx,
        id,
        [1, 2, 3].map((back) => ({ date: `2026-03-0${back}`, distanceKm: 5 + back, seconds: 1_500 + 300 * back })),
        t.clock.now().toISOString(),
      ),
    );
    await expectCurrent(runner);

    // A time zone where it is already tomorrow moves today (22:30 UTC is 12:30 tomorrow at UTC+14).
    const moved = await call(t.app, 'PUT', `/api/v1/user/${id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, timezone: 'Pacific/Kiritimati' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await expectCurrent(runner);

    // The date moves on (the streaks break, the load decays) without any write.
    t.clock.advance({ days: 3 });
    await expectCurrent(runner);
    t.clock.advance({ hours: 12 });
    await expectCurrent(runner);
  });

  it('forgets a deleted runner with their revision', async () => {
    const runner = await registerUser(t.app);
    await createEntry(t.app, runner.token, { date: '2026-03-01', distance: 5, time: '00:25:00' });
    const db = t.app.appContext.db;
    expect(await insightRevision(db, runner.user.id)).toBeGreaterThan(0);
    const res = await call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: runner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await insightRevision(db, runner.user.id)).toBe(0);
  });
});

describe('AnswerMemo', () => {
  const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));

  it('computes once per key, shares concurrent misses, and keeps no failure', async () => {
    const memo = new AnswerMemo(10, 10_000);
    let computed = 0;
    const compute = () => {
      computed += 1;
      return later({ n: computed });
    };
    const [a, b] = await Promise.all([memo.answer('k', compute), memo.answer('k', compute)]);
    expect(a).toBe(b);
    expect(computed).toBe(1);
    expect(await memo.answer('k', compute)).toBe(a);
    await expect(memo.answer('bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.answer('bad', () => later('up'))).toBe('up');
  });

  it('keeps at most its count and its characters, dropping the least recently used', async () => {
    const memo = new AnswerMemo(3, 1_000);
    for (const key of ['a', 'b', 'c']) await memo.answer(key, () => later(key));
    await memo.answer('a', () => later('again'));
    await memo.answer('d', () => later('d'));
    expect(memo.size).toBe(3);
    expect(await memo.answer('a', () => later('new'))).toBe('a');
    expect(await memo.answer('b', () => later('new'))).toBe('new');

    const small = new AnswerMemo(100, 250);
    for (let i = 0; i < 10; i++) await small.answer(`k${i}`, () => later('x'.repeat(100)));
    expect(small.totalChars).toBeLessThanOrEqual(250);
    expect(small.size).toBe(2);
    expect(await small.answer('k9', () => later('fresh'))).toBe('x'.repeat(100));
  });
});

/**
 * The answer cache's own rules (http/answer-cache.ts, decision 034): bounded in all and per user,
 * one computation per key at a time, no failure kept, a user's older revision dropped; and through
 * the app: one runner asking 100,000 different pages leaves another runner's answer kept, an
 * admin's read of another runner's run page is not kept. (Never stale after a write:
 * answers/answer-cache-writes.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache, CACHE_LIMITS, canonical, type CacheLimits, type Computed } from '../../http/answer-cache.js';
import { gpxFile, importFiles, meridianPoints } from '../imports/fixtures.js';
import { call, createEntry, createTestApp, loginAdmin, registerUser, type TestApp } from '../helpers.js';

const later = (text: string, keep = true) =>
  new Promise<Computed>((resolve) => setTimeout(() => resolve({ text, keep }), 1));
const limits = (bounds: Partial<CacheLimits>): CacheLimits => ({ ...CACHE_LIMITS, ...bounds });

describe('AnswerCache', () => {
  it('computes once per key, shares concurrent misses, and keeps no failure nor an answer told not to', async () => {
    const cache = new AnswerCache();
    let computed = 0;
    const compute = () => {
      computed += 1;
      return later(`answer ${computed}`);
    };
    expect(await Promise.all([cache.answer(1, 0, 'k', compute), cache.answer(1, 0, 'k', compute)])).toEqual([
      'answer 1',
      'answer 1',
    ]);
    expect(await cache.answer(1, 0, 'k', compute)).toBe('answer 1');
    expect([computed, cache.hits, cache.misses]).toEqual([1, 2, 1]);

    await expect(cache.answer(1, 0, 'bad', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.answer(1, 0, 'bad', () => later('up'))).toBe('up');
    const shared = await Promise.all([
      cache.answer(1, 0, 'once', () => later('mine', false)),
      cache.answer(1, 0, 'once', compute),
    ]);
    expect(shared).toEqual(['mine', 'mine']);
    expect(await cache.answer(1, 0, 'once', () => later('again'))).toBe('again');
    expect(cache.sizeOf(1)).toBe(3);
  });

  it("drops a user's answers when a newer revision comes; a request of an older one is answered, not kept", async () => {
    const cache = new AnswerCache();
    await cache.answer(1, 3, 'k', () => later('at 3'));
    await cache.answer(2, 3, 'k', () => later('theirs'));
    expect(await cache.answer(1, 4, 'k', () => later('at 4'))).toBe('at 4');
    expect(await cache.answer(1, 3, 'k', () => later('late 3'))).toBe('late 3');
    expect(await cache.answer(1, 4, 'k', () => later('no'))).toBe('at 4');
    expect(await cache.answer(2, 3, 'k', () => later('no'))).toBe('theirs');
    expect([cache.sizeOf(1), cache.size]).toEqual([1, 2]);
  });

  it("keeps a user within their own bound, their least recently used first, and everyone's within the total", async () => {
    const cache = new AnswerCache(limits({ answers: 5, userAnswers: 3 }));
    for (const key of ['a', 'b', 'c']) await cache.answer(1, 0, key, () => later(key));
    await cache.answer(1, 0, 'a', () => later('no'));
    await cache.answer(2, 0, 'x', () => later('x'));
    await cache.answer(1, 0, 'd', () => later('d'));
    expect([cache.sizeOf(1), cache.sizeOf(2)]).toEqual([3, 1]);
    expect(await cache.answer(1, 0, 'b', () => later('b again'))).toBe('b again');
    expect(await cache.answer(1, 0, 'a', () => later('no'))).toBe('a');
    // Over the total: the least recently used of all (user 2's x), whoever asks.
    await cache.answer(3, 0, 'y', () => later('y'));
    await cache.answer(3, 0, 'z', () => later('z'));
    expect([cache.size, cache.sizeOf(1), cache.sizeOf(2), cache.sizeOf(3)]).toEqual([5, 3, 0, 2]);
  });

  it('counts the characters of the text and the key, per user and in all', async () => {
    const cache = new AnswerCache(limits({ chars: 500, userChars: 250 }));
    for (let i = 0; i < 10; i++) await cache.answer(1, 0, `k${i}`, () => later('x'.repeat(98)));
    expect([cache.sizeOf(1), cache.totalChars]).toEqual([2, 200]);
    for (const user of [2, 3])
      for (let i = 0; i < 2; i++) await cache.answer(user, 0, `k${i}`, () => later('y'.repeat(98)));
    expect(cache.totalChars).toBeLessThanOrEqual(500);
    expect([cache.sizeOf(1), cache.sizeOf(2), cache.sizeOf(3)]).toEqual([1, 2, 2]);
  });

  it('writes parsed values in one canonical order', () => {
    expect(canonical({ page: 2, dateFrom: '2026-01-01', sort: undefined })).toBe('{"dateFrom":"2026-01-01","page":2}');
    expect(canonical({ dateFrom: '2026-01-01', page: 2 })).toBe(canonical({ page: 2, dateFrom: '2026-01-01' }));
    expect(canonical({ page: '2' })).not.toBe(canonical({ page: 2 }));
    expect(canonical({ a: [1, { c: null, b: true }] })).toBe('{"a":[1,{"b":true,"c":null}]}');
  });
});

describe('the answer cache in the app', () => {
  let t: TestApp;
  let cache: AnswerCache;
  beforeAll(async () => {
    cache = new AnswerCache(limits({ userAnswers: 200 }));
    // Each of the 100,000 misses is checked against its schema once by the cache's serializer: not again here.
    t = await createTestApp({ verifyResponses: false }, { build: { answerCache: cache } });
  });
  afterAll(async () => {
    await t.close();
  });

  // 100,000 requests through inject: half a minute on SQLite, about a minute on PostgreSQL.
  it(
    "keeps another runner's answer while one runner asks for 100,000 different pages",
    { timeout: 300_000 },
    async () => {
      const kept = await registerUser(t.app);
      const busy = await registerUser(t.app);
      await createEntry(t.app, kept.token, { date: '2026-03-17', distance: 10, time: '00:50:00' });
      const first = await call(t.app, 'GET', '/api/v1/dashboard/data', { token: kept.token });
      expect(first.statusCode, first.body).toBe(200);

      // 25 requests at a time: PostgreSQL's round trips overlap (and its token lookups share statements).
      const headers = { authorization: `Bearer ${busy.token}` };
      const ask = async (page: number) => {
        const res = await t.app.inject({ method: 'GET', url: `/api/v1/entry?page=${page}`, headers });
        if (res.statusCode !== 200) expect(res.body).toBe(`page ${page}: 200`);
      };
      for (let page = 1; page <= 100_000; page += 25) {
        await Promise.all(Array.from({ length: 25 }, (_, i) => ask(page + i)));
      }
      expect(cache.sizeOf(busy.user.id)).toBe(200);
      expect(cache.misses).toBeGreaterThanOrEqual(100_000);

      const hits = cache.hits;
      const again = await call(t.app, 'GET', '/api/v1/dashboard/data', { token: kept.token });
      expect(cache.hits).toBe(hits + 1);
      expect(again.body).toBe(first.body);
    },
  );

  it("never keeps an admin's read of another runner's run page; a 404 is not kept either", async () => {
    const runner = await registerUser(t.app);
    const admin = await loginAdmin(t.app);
    const gpx = gpxFile({ start: new Date('2026-03-17T07:00:00Z'), segments: [meridianPoints(60, 0.0004, 10)] });
    expect((await importFiles(t.app, runner.token, [{ name: 'run.gpx', content: gpx }])).statusCode).toBe(201);
    const listed = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token });
    const id = (listed.json().entries.data as { id: number }[])[0]!.id;

    const own = await call(t.app, 'GET', `/api/v1/entry/${id}/track`, { token: runner.token });
    expect(own.statusCode, own.body).toBe(200);
    const before = cache.sizeOf(admin.user.id);
    for (let i = 0; i < 2; i++) {
      const read = await call(t.app, 'GET', `/api/v1/entry/${id}/track`, { token: admin.token });
      expect(read.body).toBe(own.body);
      expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
      expect((await call(t.app, 'GET', '/api/v1/entry/2147483647/track', { token: admin.token })).statusCode).toBe(404);
    }
    expect(cache.sizeOf(admin.user.id)).toBe(before);
  });
});

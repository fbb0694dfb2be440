/**
 * The lists of runs: a runner's own (GET /api/v1/entry: order, paging, ranges, totals) and
 * everyone's (GET /api/v1/entry/all, for managers and admins). The single-run calls are in
 * entries/entries.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createEntry,
  createTestApp,
  expectError,
  expectValidation,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { ENTRY_KEYS, PAGED_KEYS, keysOf } from '../wire-keys.js';

// The clock stands at 2026-03-18T12:00:00Z (DEFAULT_NOW).
let t: TestApp;
let other: Account;
beforeAll(async () => {
  t = await createTestApp();
  other = await registerUser(t.app, { name: 'Other Runner' });
});
afterAll(async () => {
  await t.close();
});

const ids = (res: { json: () => { entries: { data: { id: number }[] } } }) => res.json().entries.data.map((e) => e.id);

describe('GET /api/v1/entry (list)', () => {
  // A runner of its own so the list is known exactly.
  let lister: Account;
  const made: { id: number; date: string }[] = [];
  beforeAll(async () => {
    lister = await registerUser(t.app);
    for (const date of ['2026-03-10', '2026-03-12', '2026-03-10', '2026-03-11', '2026-03-12', '2026-02-28']) {
      const entry = await createEntry(t.app, lister.token, { date, distance: 5, time: '00:30:00' });
      made.push({ id: entry.id, date });
    }
    await createEntry(t.app, other.token, { date: '2026-03-11', distance: 5, time: '00:30:00' });
  });

  const expected = (filter: (e: { date: string }) => boolean = () => true) =>
    made
      .filter(filter)
      .sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1))
      .map((e) => e.id);

  it("returns {entries: paged, summary} of the caller's own runs, date desc then id desc", async () => {
    const res = await call(t.app, 'GET', '/api/v1/entry', { token: lister.token });
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.json())).toEqual(['entries', 'summary']);
    expect(keysOf(res.json().entries)).toEqual(PAGED_KEYS);
    expect(ids(res)).toEqual(expected());
    expect(res.json().entries.total).toBe(made.length);
    expect(res.json().entries.per_page).toBe(15);
    for (const entry of res.json().entries.data) {
      expect(keysOf(entry)).toEqual(ENTRY_KEYS);
      expect(entry.user_id).toBe(lister.user.id);
    }
  });

  it('filters with inclusive dateFrom and dateTo', async () => {
    const get = (query: Record<string, string>) => call(t.app, 'GET', '/api/v1/entry', { token: lister.token, query });
    expect(ids(await get({ dateFrom: '2026-03-11', dateTo: '2026-03-12' }))).toEqual(
      expected((e) => e.date >= '2026-03-11' && e.date <= '2026-03-12'),
    );
    expect(ids(await get({ dateFrom: '2026-03-11' }))).toEqual(expected((e) => e.date >= '2026-03-11'));
    expect(ids(await get({ dateTo: '2026-03-10' }))).toEqual(expected((e) => e.date <= '2026-03-10'));
    expect(ids(await get({ dateFrom: '2026-03-10', dateTo: '2026-03-10' }))).toEqual(
      expected((e) => e.date === '2026-03-10'),
    );
    expect(ids(await get({ dateFrom: '2026-03-13', dateTo: '2026-03-18' }))).toEqual([]);
    expect(ids(await get({ dateFrom: '', dateTo: '' }))).toEqual(expected());
    const filtered = (await get({ dateFrom: '2026-03-11', dateTo: '2026-03-12' })).json().entries;
    expect(filtered.total).toBe(3);
  });

  it('pages the filtered list', async () => {
    const res = await call(t.app, 'GET', '/api/v1/entry', { token: lister.token, query: { per_page: 4, page: 2 } });
    const entries = res.json().entries;
    expect(entries).toMatchObject({
      current_page: 2,
      last_page: 2,
      per_page: 4,
      total: 6,
      from: 5,
      to: 6,
      next_page_url: null,
    });
    expect(entries.prev_page_url).toContain('page=1');
    expect(ids(res)).toEqual(expected().slice(4));
    const past = (
      await call(t.app, 'GET', '/api/v1/entry', { token: lister.token, query: { per_page: 4, page: 3 } })
    ).json().entries;
    expect(past).toMatchObject({ data: [], current_page: 3, last_page: 2, total: 6, from: null, to: null });
  });

  // Links are absolute from the configured base (PUBLIC_URL, else the address listened on), the
  // route and its parsed query (decision 034): every spelling of one page (another Host, its
  // parameters in another order, one the schema drops) is one answer, kept once.
  it('links to the neighbouring pages from the link base, whatever the host and the spelling of the query', async () => {
    const cache = t.app.answerCache!;
    const base = 'http://127.0.0.1:3000/api/v1/entry';
    const links = async (host: string, url: string) => {
      const res = await call(t.app, 'GET', url, { token: lister.token, headers: { host } });
      const { prev_page_url, next_page_url } = res.json().entries as Record<string, string | null>;
      return [prev_page_url, next_page_url];
    };
    const page2 = [`${base}?page=1&per_page=2`, `${base}?page=3&per_page=2`];
    const hits = cache.hits;
    expect(await links('a.example', '/api/v1/entry?per_page=2&page=2')).toEqual(page2);
    expect(await links('b.example:8080', '/api/v1/entry?page=2&per_page=2')).toEqual(page2);
    expect(await links('a.example', '/api/v1/entry?page=2&per_page=2&utm=x')).toEqual(page2);
    expect(cache.hits).toBe(hits + 2);
    expect(await links('a.example', '/api/v1/entry?page=2&per_page=2&dateTo=2026-03-12&sort=')).toEqual([
      `${base}?dateTo=2026-03-12&page=1&per_page=2`,
      `${base}?dateTo=2026-03-12&page=3&per_page=2`,
    ]);
  });

  it.each([
    [
      'dateFrom',
      { dateFrom: '2026-03-12', dateTo: '2026-03-11' },
      'The dateFrom must be a date before or equal to dateTo.',
    ],
    ['dateFrom', { dateFrom: 'yesterday' }, 'The dateFrom must be a date in the format YYYY-MM-DD.'],
    ['dateTo', { dateTo: '2026-02-30' }, 'The dateTo must be a date in the format YYYY-MM-DD.'],
    ['per_page', { per_page: '101' }, 'The per_page must not be greater than 100.'],
    ['page', { page: '0' }, 'The page must be at least 1.'],
  ])('rejects a bad %s %j with 422', async (field, query, message) => {
    expectValidation(await call(t.app, 'GET', '/api/v1/entry', { token: lister.token, query }), field, message);
  });

  it('is empty for a runner with no runs', async () => {
    const fresh = await registerUser(t.app);
    const entries = (await call(t.app, 'GET', '/api/v1/entry', { token: fresh.token })).json().entries;
    expect(entries).toMatchObject({ data: [], total: 0, current_page: 1, last_page: 1, from: null, to: null });
  });

  // The page is kept in the answer cache under the runner's revision (decision 034): every kind of
  // write must show on the next read, including a shoe's deletion, which clears its runs' shoe_id.
  it('shows every write of the runner on the next read: a new run, an edit of any field, a deleted shoe, a deletion', async () => {
    const fresh = await registerUser(t.app);
    const page = async () => (await call(t.app, 'GET', '/api/v1/entry', { token: fresh.token })).json().entries;
    const first = await createEntry(t.app, fresh.token, { date: '2026-03-10', distance: 5, time: '00:30:00' });
    expect((await page()).data.map((e: { id: number }) => e.id)).toEqual([first.id]);
    const second = await createEntry(t.app, fresh.token, { date: '2026-03-11', distance: 8, time: '00:45:00' });
    expect(await page()).toMatchObject({ total: 2, data: [{ id: second.id }, { id: first.id }] });

    const shoe = (await call(t.app, 'POST', '/api/v1/shoes', { token: fresh.token, body: { name: 'Trainers' } })).json()
      .shoe as { id: number };
    const edit = { date: '2026-03-10', distance: 5, time: '00:30:00', notes: 'Windy', shoe_id: shoe.id };
    expect((await call(t.app, 'PUT', `/api/v1/entry/${first.id}`, { token: fresh.token, body: edit })).statusCode).toBe(
      200,
    );
    expect((await page()).data[1]).toMatchObject({ id: first.id, notes: 'Windy', shoe_id: shoe.id });
    await call(t.app, 'DELETE', `/api/v1/shoes/${shoe.id}`, { token: fresh.token });
    expect((await page()).data[1]).toMatchObject({ id: first.id, notes: 'Windy', shoe_id: null });

    await call(t.app, 'DELETE', `/api/v1/entry/${second.id}`, { token: fresh.token });
    expect(await page()).toMatchObject({ total: 1, data: [{ id: first.id }] });
  });
});

describe('GET /api/v1/entry/all', () => {
  let a: TestApp;
  let adminToken: string;
  let alice: Account;
  let bob: Account;
  const made: { id: number; date: string; distance: number; user: Account }[] = [];
  beforeAll(async () => {
    a = await createTestApp();
    adminToken = (await loginAdmin(a.app)).token;
    alice = await registerUser(a.app, { name: 'Alice All' });
    bob = await registerUser(a.app, { name: 'Bob All' });
    const runs: [Account, string, number][] = [
      [alice, '2026-03-10', 5],
      [bob, '2026-03-10', 10],
      [alice, '2026-03-12', 3],
      [bob, '2026-03-10', 5],
      [alice, '2026-03-10', 10],
      [bob, '2026-03-01', 21.1],
    ];
    for (const [user, date, distance] of runs) {
      const entry = await createEntry(a.app, user.token, { date, distance, time: '02:00:00' });
      made.push({ id: entry.id, date, distance, user });
    }
  });
  afterAll(async () => {
    await a.close();
  });

  it("lists everyone's runs with user {id, name}, date desc, distance desc, id desc", async () => {
    const res = await call(a.app, 'GET', '/api/v1/entry/all', { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['entries']);
    const entries = res.json().entries;
    expect(keysOf(entries)).toEqual(PAGED_KEYS);
    const order = [...made].sort((x, y) =>
      x.date !== y.date
        ? x.date < y.date
          ? 1
          : -1
        : x.distance !== y.distance
          ? y.distance - x.distance
          : y.id - x.id,
    );
    expect(entries.data.map((e: { id: number }) => e.id)).toEqual(order.map((e) => e.id));
    for (const entry of entries.data) {
      expect(keysOf(entry)).toEqual([...ENTRY_KEYS, 'user'].sort());
      const owner = made.find((m) => m.id === entry.id)?.user;
      expect(entry.user).toEqual({ id: owner?.user.id, name: owner?.user.name });
      expect(entry.user_id).toBe(owner?.user.id);
    }
  });

  it('filters by dateFrom and dateTo (inclusive) and pages', async () => {
    const res = await call(a.app, 'GET', '/api/v1/entry/all', {
      token: adminToken,
      query: { dateFrom: '2026-03-10', dateTo: '2026-03-10', per_page: 2, page: 2 },
    });
    const entries = res.json().entries;
    expect(entries).toMatchObject({ total: 4, last_page: 2, current_page: 2, from: 3, to: 4 });
    // 03-10 runs by distance desc then id desc: 10 (alice, later id), 10 (bob), 5 (bob, later id), 5 (alice).
    const fiveK = made.filter((m) => m.date === '2026-03-10' && m.distance === 5).sort((x, y) => y.id - x.id);
    expect(entries.data.map((e: { id: number }) => e.id)).toEqual(fiveK.map((m) => m.id));
  });

  it('validates its query like /entry', async () => {
    const res = await call(a.app, 'GET', '/api/v1/entry/all', {
      token: adminToken,
      query: { dateFrom: '2026-03-12', dateTo: '2026-03-01' },
    });
    expectValidation(res, 'dateFrom', 'The dateFrom must be a date before or equal to dateTo.');
  });

  it('is not shadowed by /entry/{id}: the user is told 403, not 404', async () => {
    const res = await call(a.app, 'GET', '/api/v1/entry/all', { token: alice.token });
    expectError(res, 403, 'This action is unauthorized.');
  });
});

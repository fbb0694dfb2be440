/**
 * Routes and segments (CONTRACT.md §22) through the API, on the watch files of the import tests:
 * the answers' shapes to the letter, ranks with ties, the `matching` flag going false, renames,
 * deletions, 404 for another runner, 422s, the 201st segment, runs edited and deleted, imports in
 * any order, a segment made while an import runs, and the rebuild equal to incremental matching.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { moveAnswerRevision } from '../../db/tallies.js';
import { rebuildRoutes, type RoutesMatcher } from '../../features/routes/routes.service.js';
import {
  call,
  createTestApp,
  expectError,
  expectValidation,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { importResult } from '../imports/fixtures.js';
import { realisticFit } from '../imports/track-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const matcher = (app: FastifyInstance) => app.appContext.memory.runs as RoutesMatcher;
const idle = () => matcher(t.app).idle();

/** A 15-minute watch run (seed 5: always the same way) on a day of May 2024, and another way (seed 9). */
const runFile = (day: number, seed = 5) =>
  realisticFit(900, { seed, start: new Date(`2024-05-${String(day).padStart(2, '0')}T07:00:00Z`) });

async function importRuns(token: string, files: { day: number; seed?: number }[]): Promise<number[]> {
  const result = await importResult(
    t.app,
    token,
    files.map((f, i) => ({ name: `run-${f.day}-${i}.fit`, content: runFile(f.day, f.seed) })),
  );
  return result.rows.map((row) => row.entry!.id!);
}

const get = async (token: string, url: string) => {
  const res = await call(t.app, 'GET', url, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('routes', () => {
  let runner: Account;
  let ids: number[];
  beforeAll(async () => {
    runner = await registerUser(t.app);
    // Imported newest first: the route does not depend on the order.
    ids = await importRuns(runner.token, [{ day: 3 }, { day: 9, seed: 9 }]);
    ids.push(...(await importRuns(runner.token, [{ day: 1 }, { day: 2 }])));
    await idle();
  });

  it('groups the runs that went the same way, founded by the earliest, with the shapes of §22', async () => {
    const body = await get(runner.token, '/api/v1/routes');
    expect(Object.keys(body)).toEqual(['routes']);
    expect(body.routes).toHaveLength(1);
    const [route] = body.routes;
    expect(Object.keys(route).sort()).toEqual(
      ['best', 'distance', 'id', 'last_date', 'matching', 'name', 'polyline', 'run_count'].sort(),
    );
    expect(route).toMatchObject({ name: 'Route 1', run_count: 3, last_date: '2024-05-03', matching: false });
    expect(typeof route.polyline).toBe('string');
    expect(route.polyline.length).toBeGreaterThan(10);
    const entry = (await get(runner.token, `/api/v1/entry/${ids[2]}`)) as { entry?: { distance: number } };
    const distance = (entry.entry ?? (entry as unknown as { distance: number })).distance;
    expect(route.distance).toBe(distance);
    // Three equal times: the best is the earliest.
    expect(route.best).toEqual({
      entry_id: ids[2],
      date: '2024-05-01',
      time: expect.stringMatching(/^\d\d:\d\d:\d\d$/),
    });
  });

  it('ranks its runs fastest first, ties sharing a rank in date order', async () => {
    const [{ id }] = (await get(runner.token, '/api/v1/routes')).routes;
    const { route } = await get(runner.token, `/api/v1/routes/${id}`);
    expect(route.efforts.map((e: { entry_id: number }) => e.entry_id)).toEqual([ids[2], ids[3], ids[0]]);
    expect(route.efforts.map((e: { rank: number }) => e.rank)).toEqual([1, 1, 1]);
    expect(Object.keys(route.efforts[0]).sort()).toEqual(['date', 'entry_id', 'pace', 'rank', 'time']);
    // The last run made faster by hand: first, the others share rank 2.
    const edit = await call(t.app, 'PUT', `/api/v1/entry/${ids[0]}`, {
      token: runner.token,
      body: { date: '2024-05-03', distance: route.distance, time: '00:10:00' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await idle();
    const after = (await get(runner.token, `/api/v1/routes/${id}`)).route;
    expect(after.efforts.map((e: { entry_id: number; rank: number }) => [e.entry_id, e.rank])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[3], 2],
    ]);
    expect(after.efforts[0]).toMatchObject({ time: '00:10:00', pace: Math.round((10 / route.distance) * 100) / 100 });
    expect(after.best).toEqual({ entry_id: ids[0], date: '2024-05-03', time: '00:10:00' });
  });

  it('renames, with PUT or POST _method, and refuses a bad name with a 422', async () => {
    const [{ id }] = (await get(runner.token, '/api/v1/routes')).routes;
    const put = await call(t.app, 'PUT', `/api/v1/routes/${id}`, { token: runner.token, body: { name: 'River loop' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().route.name).toBe('River loop');
    const post = await call(t.app, 'POST', `/api/v1/routes/${id}`, {
      token: runner.token,
      form: { _method: 'PUT', name: 'Park loop' },
    });
    expect(post.statusCode, post.body).toBe(200);
    expect((await get(runner.token, `/api/v1/routes/${id}`)).route.name).toBe('Park loop');
    expectValidation(
      await call(t.app, 'PUT', `/api/v1/routes/${id}`, { token: runner.token, body: { name: ' ' } }),
      'name',
    );
    expectValidation(
      await call(t.app, 'PUT', `/api/v1/routes/${id}`, { token: runner.token, body: { name: 'x'.repeat(101) } }),
      'name',
    );
  });

  it("is the owner's alone: another runner's route is a 404", async () => {
    const [{ id }] = (await get(runner.token, '/api/v1/routes')).routes;
    const other = await registerUser(t.app);
    expectError(await call(t.app, 'GET', `/api/v1/routes/${id}`, { token: other.token }), 404, 'Not found.');
    expectError(
      await call(t.app, 'PUT', `/api/v1/routes/${id}`, { token: other.token, body: { name: 'Mine' } }),
      404,
      'Not found.',
    );
    expect((await get(other.token, '/api/v1/routes')).routes).toEqual([]);
    expectError(await call(t.app, 'GET', `/api/v1/routes/${id}`), 401);
  });

  it('shows the route on the run page, and regroups when runs go (a new route when its founder goes)', async () => {
    const [route] = (await get(runner.token, '/api/v1/routes')).routes;
    const page = await get(runner.token, `/api/v1/entry/${ids[3]}/track`);
    expect(page.route).toEqual({ id: route.id, name: 'Park loop', rank: 2, best: route.best });
    expect(page.segments).toEqual([]);
    const alone = await get(runner.token, `/api/v1/entry/${ids[1]}/track`);
    expect(alone.route).toBeNull();

    expect((await call(t.app, 'DELETE', `/api/v1/entry/${ids[3]}`, { token: runner.token })).statusCode).toBe(200);
    await idle();
    let routes = (await get(runner.token, '/api/v1/routes')).routes;
    expect(routes).toHaveLength(1);
    expect(routes[0]).toMatchObject({ id: route.id, name: 'Park loop', run_count: 2 });

    // The founding run deleted: the two left found a new route, named as the runner's second.
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${ids[2]}`, { token: runner.token })).statusCode).toBe(200);
    await idle();
    routes = (await get(runner.token, '/api/v1/routes')).routes;
    expect(routes).toHaveLength(0);
    ids.push(...(await importRuns(runner.token, [{ day: 5 }])));
    await idle();
    routes = (await get(runner.token, '/api/v1/routes')).routes;
    expect(routes).toHaveLength(1);
    expect(routes[0]).toMatchObject({ name: 'Route 2', run_count: 2 });
    expect(routes[0].id).not.toBe(route.id);
  });
});

describe('segments', () => {
  let runner: Account;
  let ids: number[];
  beforeAll(async () => {
    runner = await registerUser(t.app);
    ids = await importRuns(runner.token, [{ day: 1 }, { day: 2 }, { day: 3, seed: 9 }]);
    await idle();
  });

  it('answers 201 at once with matching true, then fills in its efforts and turns matching false', async () => {
    const res = await call(t.app, 'POST', '/api/v1/segments', {
      token: runner.token,
      body: { entry_id: ids[0], start_m: 500, end_m: 1500, name: 'The hill' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { segment } = res.json();
    expect(Object.keys(segment).sort()).toEqual(
      ['best', 'distance_m', 'effort_count', 'efforts', 'id', 'matching', 'name'].sort(),
    );
    expect(segment).toMatchObject({ name: 'The hill', distance_m: 1000, matching: true });
    await idle();
    const list = await get(runner.token, '/api/v1/segments');
    expect(Object.keys(list)).toEqual(['segments']);
    expect(list.segments).toHaveLength(1);
    expect(Object.keys(list.segments[0]).sort()).toEqual(
      ['best', 'distance_m', 'effort_count', 'id', 'matching', 'name'].sort(),
    );
    expect(list.segments[0]).toMatchObject({ id: segment.id, effort_count: 2, matching: false });
    const detail = (await get(runner.token, `/api/v1/segments/${segment.id}`)).segment;
    expect(detail.efforts.map((e: { entry_id: number; rank: number }) => [e.entry_id, e.rank])).toEqual([
      [ids[0], 1],
      [ids[1], 1],
    ]);
    const effort = detail.efforts[0];
    expect(Object.keys(effort).sort()).toEqual(['date', 'entry_id', 'pace', 'rank', 'time']);
    const [h, m, s] = effort.time.split(':').map(Number);
    const seconds = h * 3600 + m * 60 + s;
    // About 3 m/s over 1 km.
    expect(seconds).toBeGreaterThan(200);
    expect(seconds).toBeLessThan(500);
    expect(effort.pace).toBe(Math.round((seconds / 60) * 100) / 100);
    expect(detail.best).toEqual({ entry_id: ids[0], date: '2024-05-01', time: effort.time });

    const page = await get(runner.token, `/api/v1/entry/${ids[1]}/track`);
    expect(page.segments).toEqual([{ id: segment.id, name: 'The hill', time: effort.time, rank: 1 }]);
    expect((await get(runner.token, `/api/v1/entry/${ids[2]}/track`)).segments).toEqual([]);
  });

  it('matches runs imported later against the segment', async () => {
    const [segment] = (await get(runner.token, '/api/v1/segments')).segments;
    ids.push(...(await importRuns(runner.token, [{ day: 4 }])));
    await idle();
    const after = (await get(runner.token, '/api/v1/segments')).segments[0];
    expect(after).toMatchObject({ id: segment.id, effort_count: 3, matching: false });
  });

  it('renames, deletes, and is a 404 for another runner', async () => {
    const [segment] = (await get(runner.token, '/api/v1/segments')).segments;
    const url = `/api/v1/segments/${segment.id}`;
    const other = await registerUser(t.app);
    expectError(await call(t.app, 'GET', url, { token: other.token }), 404, 'Not found.');
    expectError(await call(t.app, 'PUT', url, { token: other.token, body: { name: 'x' } }), 404, 'Not found.');
    expectError(await call(t.app, 'DELETE', url, { token: other.token }), 404, 'Not found.');
    const put = await call(t.app, 'PUT', url, { token: runner.token, body: { name: 'Up the hill' } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().segment.name).toBe('Up the hill');
    expectValidation(await call(t.app, 'PUT', url, { token: runner.token, body: {} }), 'name');
    const made = await call(t.app, 'POST', '/api/v1/segments', {
      token: runner.token,
      body: { entry_id: ids[0], start_m: 0, end_m: 100, name: 'Start' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const del = await call(t.app, 'DELETE', `/api/v1/segments/${made.json().segment.id}`, { token: runner.token });
    expect(del.statusCode, del.body).toBe(200);
    expectError(await call(t.app, 'GET', `/api/v1/segments/${made.json().segment.id}`, { token: runner.token }), 404);
    await idle();
    expect((await get(runner.token, '/api/v1/segments')).segments).toHaveLength(1);
  });

  it('refuses what §22 does not allow with 422s keyed by field', async () => {
    const other = await registerUser(t.app);
    const post = (body: Record<string, unknown>, token = runner.token) =>
      call(t.app, 'POST', '/api/v1/segments', { token, body });
    const good = { entry_id: ids[0], start_m: 500, end_m: 1500, name: 'Fine' };
    expectValidation(await post(good, other.token), 'entry_id');
    expectValidation(await post({ ...good, entry_id: 99_999_999 }), 'entry_id');
    expectValidation(await post({ ...good, start_m: -1 }), 'start_m', 'The start_m must be at least 0.');
    expectValidation(await post({ ...good, end_m: 599 }), 'end_m');
    expectValidation(await post({ ...good, start_m: 0, end_m: 50_001 }), 'end_m');
    expectValidation(await post({ ...good, start_m: 1000, end_m: 1_000_000 }), 'end_m');
    expectValidation(await post({ ...good, start_m: 2500, end_m: 4000 }), 'end_m');
    expectValidation(await post({ ...good, name: '' }), 'name', 'The name field is required.');
    expectValidation(await post({ ...good, name: 'x'.repeat(101) }), 'name');
    expectValidation(await post({ ...good, start_m: 'abc' }), 'start_m');
    const german = await call(t.app, 'POST', '/api/v1/segments', {
      token: runner.token,
      body: { ...good, start_m: 1000, end_m: 1050 },
      headers: { 'accept-language': 'de' },
    });
    expectValidation(german, 'end_m', 'Ein Segment muss zwischen 100 und 50000 m lang sein.');
  });

  it('refuses the 201st segment', async () => {
    const db = t.app.appContext.db;
    const [row] = await db.selectFrom('segments').selectAll().where('user_id', '=', runner.user.id).execute();
    const { id: _id, ...copy } = row!;
    const have = (await get(runner.token, '/api/v1/segments')).segments.length;
    await db
      .insertInto('segments')
      .values(Array.from({ length: 200 - have }, () => ({ ...copy, matching: 0 })))
      .execute();
    // Written past the service: the kept answers move on as after the app's own writes.
    await moveAnswerRevision(db, [runner.user.id]);
    expect((await get(runner.token, '/api/v1/segments')).segments).toHaveLength(200);
    expectValidation(
      await call(t.app, 'POST', '/api/v1/segments', {
        token: runner.token,
        body: { entry_id: ids[0], start_m: 500, end_m: 1500, name: 'One more' },
      }),
      'segment',
      'You can have at most 200 segments.',
    );
    await db.deleteFrom('segments').where('user_id', '=', runner.user.id).where('id', '!=', row!.id).execute();
    await moveAnswerRevision(db, [runner.user.id]);
  });
});

describe('matching while runs arrive', () => {
  it('a segment made while an import of the same runner runs ends consistent', async () => {
    const runner = await registerUser(t.app);
    const [first] = await importRuns(runner.token, [{ day: 1 }]);
    await idle();
    const [made] = await Promise.all([
      call(t.app, 'POST', '/api/v1/segments', {
        token: runner.token,
        body: { entry_id: first, start_m: 300, end_m: 1300, name: 'Race' },
      }),
      importRuns(runner.token, [{ day: 2 }, { day: 3 }, { day: 4, seed: 9 }, { day: 5 }]),
    ]);
    expect(made.statusCode, made.body).toBe(201);
    await idle();
    const [segment] = (await get(runner.token, '/api/v1/segments')).segments;
    expect(segment).toMatchObject({ effort_count: 4, matching: false });
    const rows = await t.app.appContext.db
      .selectFrom('segment_efforts')
      .select(['entry_id'])
      .where('segment_id', '=', segment.id)
      .execute();
    expect(new Set(rows.map((r) => r.entry_id)).size).toBe(rows.length);
    expect((await get(runner.token, '/api/v1/routes')).routes[0]).toMatchObject({ run_count: 4, matching: false });
  });

  it('the rebuild from the tracks alone gives what incremental matching gave', async () => {
    const db = t.app.appContext.db;
    const snapshot = async () => ({
      routes: await db.selectFrom('routes').select(['id', 'user_id', 'founder_id', 'name']).orderBy('id').execute(),
      runs: await db.selectFrom('route_runs').selectAll().orderBy('entry_id').execute(),
      efforts: await db
        .selectFrom('segment_efforts')
        .select(['segment_id', 'entry_id', 'seconds', 'start_sample'])
        .orderBy('segment_id')
        .orderBy('entry_id')
        .orderBy('start_sample')
        .execute(),
    });
    await idle();
    const incremental = await snapshot();
    expect(incremental.runs.length).toBeGreaterThan(4);
    expect(incremental.efforts.length).toBeGreaterThan(2);
    await db.deleteFrom('route_runs').execute();
    await db.deleteFrom('segment_efforts').execute();
    await rebuildRoutes(t.app.appContext);
    expect(await snapshot()).toEqual(incremental);
  });
});

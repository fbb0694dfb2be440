/**
 * A bounded property (a few seeds, a handful of runs each): whatever the order in which runs are
 * imported and deleted, the routes and segment efforts that incremental matching leaves equal what
 * the rebuild makes from the tracks alone (CONTRACT.md §22: the result never depends on import order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../../../scripts/seed/generate.js';
import { rebuildRoutes, type RoutesMatcher } from '../../features/routes/routes.service.js';
import { call, createTestApp, registerUser, type TestApp } from '../helpers.js';
import { importResult } from '../imports/fixtures.js';
import { realisticFit } from '../imports/track-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const idle = () => (t.app.appContext.memory.runs as RoutesMatcher).idle();

async function snapshot(userId: number) {
  const db = t.app.appContext.db;
  const routes = await db
    .selectFrom('routes')
    .select(['id', 'founder_id', 'name'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const runs = await db
    .selectFrom('route_runs')
    .select(['entry_id', 'route_id'])
    .where('user_id', '=', userId)
    .orderBy('entry_id')
    .execute();
  const efforts = await db
    .selectFrom('segment_efforts')
    .select(['segment_id', 'entry_id', 'seconds', 'start_sample'])
    .where('user_id', '=', userId)
    .orderBy('segment_id')
    .orderBy('entry_id')
    .orderBy('start_sample')
    .execute();
  return { routes, runs, efforts };
}

describe('incremental matching equals the rebuild', () => {
  // Seed 13 imports its runs newest last: routes are then grouped a run at a time (decision 052).
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: imports and deletions in ${seed === 13 ? 'date order' : 'a random order'}`, async () => {
      const random = createRandom(seed);
      const runner = await registerUser(t.app);
      const days = Array.from({ length: 20 }, (_, i) => i + 1).sort((a, b) => (seed === 13 ? b - a : random() - 0.5));
      const stored: number[] = [];
      let segmentMade = false;
      for (let step = 0; step < 6; step++) {
        if (stored.length > 2 && random() < 0.3) {
          const [gone] = stored.splice(Math.floor(random() * stored.length), 1);
          expect((await call(t.app, 'DELETE', `/api/v1/entry/${gone}`, { token: runner.token })).statusCode).toBe(200);
        } else {
          const batch = Array.from({ length: 1 + Math.floor(random() * 2) }, () => {
            const day = days.pop()!;
            // Mostly one of two ways, now and then a way of its own.
            const way = random() < 0.8 ? (random() < 0.6 ? 5 : 9) : 100 + day;
            return realisticFit(600, {
              seed: way,
              start: new Date(`2024-06-${String(day).padStart(2, '0')}T07:00:00Z`),
            });
          });
          const result = await importResult(
            t.app,
            runner.token,
            batch.map((content, i) => ({ name: `run-${step}-${i}.fit`, content })),
          );
          stored.push(...result.rows.map((row) => row.entry!.id!));
        }
        if (!segmentMade && stored.length > 0) {
          const made = await call(t.app, 'POST', '/api/v1/segments', {
            token: runner.token,
            body: { entry_id: stored[0], start_m: 300, end_m: 1200, name: 'Stretch' },
          });
          expect(made.statusCode, made.body).toBe(201);
          segmentMade = true;
        }
        // Now and then the next change comes before matching has caught up.
        if (random() < 0.5) await idle();
      }
      await idle();
      const incremental = await snapshot(runner.user.id);
      const db = t.app.appContext.db;
      // The stored routes know the runs they were grouped from: all of them.
      const owner = await db
        .selectFrom('route_owners')
        .select('grouped_count')
        .where('user_id', '=', runner.user.id)
        .executeTakeFirst();
      const tracked = await db.selectFrom('tracks').select('entry_id').where('user_id', '=', runner.user.id).execute();
      expect(Number(owner?.grouped_count)).toBe(tracked.length);
      await db.deleteFrom('route_runs').where('user_id', '=', runner.user.id).execute();
      await rebuildRoutes(t.app.appContext);
      expect(await snapshot(runner.user.id)).toEqual(incremental);
    }, 120_000);
  }
});

describe('routes stored before migration 032', () => {
  it('are grouped from the start once (no grouped_count), then a run at a time, as the rebuild', async () => {
    const runner = await registerUser(t.app);
    const db = t.app.appContext.db;
    const day = (d: number) => new Date(`2024-07-${String(d).padStart(2, '0')}T07:00:00Z`);
    const importDay = async (d: number, way: number) => {
      const result = await importResult(t.app, runner.token, [
        { name: `run-${d}.fit`, content: realisticFit(600, { seed: way, start: day(d) }) },
      ]);
      expect(result.rows.every((row) => row.status === 'created')).toBe(true);
    };
    for (const [d, way] of [
      [1, 5],
      [2, 5],
      [3, 9],
    ] as const)
      await importDay(d, way);
    await idle();
    // What migration 032 leaves in a row written before it.
    await db
      .updateTable('route_owners')
      .set({ grouped_count: null, grouped_hash: null })
      .where('user_id', '=', runner.user.id)
      .execute();
    await importDay(4, 9);
    await idle();
    const grouped = async () =>
      (
        await db
          .selectFrom('route_owners')
          .select(['grouped_count', 'grouped_hash'])
          .where('user_id', '=', runner.user.id)
          .executeTakeFirstOrThrow()
      ).grouped_count;
    expect(Number(await grouped())).toBe(4);
    await importDay(5, 5);
    await idle();
    expect(Number(await grouped())).toBe(5);
    const incremental = await snapshot(runner.user.id);
    expect(incremental.runs.length).toBe(5);
    await db.deleteFrom('route_runs').where('user_id', '=', runner.user.id).execute();
    await rebuildRoutes(t.app.appContext);
    expect(await snapshot(runner.user.id)).toEqual(incremental);
  }, 60_000);
});

/**
 * Writes of runs by different runners that meet on the shared tally rows (everyone's days) take
 * their turns instead of deadlocking, on PostgreSQL (TEST_DATABASE_URL) as on SQLite: every
 * transaction takes its locks in one order (db/tallies.ts), so none is ended by the database and
 * run again (inTransaction counts on isTransactionConflict to tell; here it also counts them),
 * and every tally equals a recount. Writes of many runs at once (an import's batches, a runner's
 * deletion, a shoe's) keep the tallies as exactly as one run at a time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { maintainedTotals, recountedTotals } from '../../../scripts/seed/consistency.js';
import { inTransaction, nowIso } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { RunTally } from '../../db/tallies.js';
import { insertManyRuns } from '../../features/entries/entries.service.js';
import { call, createEntry, createTestApp, loginAdmin, registerUser, type Account, type TestApp } from '../helpers.js';
import { together } from '../race.js';

/** Every error inTransaction was asked about that the database raised to break a deadlock. */
const seen = vi.hoisted(() => ({ conflicts: [] as string[] }));
vi.mock('../../db/errors.js', async (importOriginal) => {
  const errors = await importOriginal<Record<string, unknown> & { isTransactionConflict: (e: unknown) => boolean }>();
  return {
    ...errors,
    isTransactionConflict(error: unknown) {
      const conflict = errors.isTransactionConflict(error);
      if (conflict) seen.conflicts.push(String((error as { code?: unknown }).code));
      return conflict;
    },
  };
});

const TRIALS = 4;
const DAYS = ['2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14'];
const opposite = (date: string) => DAYS[DAYS.length - 1 - DAYS.indexOf(date)]!;

// A connection per racing request and a patient query timeout: waits for a lock are expected
// (that is the point), and must not end in a 503.
let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp({ dbPoolSize: 16, dbQueryTimeoutMs: 60_000 });
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('writes of runs meeting on the shared tallies', () => {
  it('take their turns: no deadlock, every answer a success, every tally exact', async () => {
    const ctx = t.app.appContext;
    for (let trial = 0; trial < TRIALS; trial++) {
      seen.conflicts.length = 0;
      const [moverA, moverB, remover, creator, importer, doomed] = await Promise.all(
        ['a', 'b', 'r', 'c', 'i', 'd'].map((k) =>
          registerUser(t.app, { email: `lock-${k}${trial}-${Date.now()}@example.com` }),
        ),
      );
      const shoe = await call(t.app, 'POST', '/api/v1/shoes', { token: moverA!.token, body: { name: 'Racer' } });
      expect(shoe.statusCode, shoe.body).toBe(201);
      const shoeId = Number(shoe.json().shoe.id);
      const runs: { token: string; id: number; date: string; shoe: number | null }[] = [];
      for (const [i, runner] of [moverA!, moverB!].entries()) {
        for (const date of DAYS) {
          const body = { date, distance: 5 + i, time: '00:30:00', ...(i === 0 ? { shoe_id: shoeId } : {}) };
          const entry = await createEntry(t.app, runner.token, body);
          runs.push({ token: runner.token, id: entry.id, date, shoe: i === 0 ? shoeId : null });
        }
      }
      const removable = [];
      for (const date of DAYS)
        removable.push(await createEntry(t.app, remover!.token, { date, distance: 9, time: '00:50:00' }));
      for (const date of DAYS) await createEntry(t.app, doomed!.token, { date, distance: 7, time: '00:35:00' });

      // Every run moves to the day "opposite" its own (each pair of days crossed both ways) and
      // changes block and effort; meanwhile a runner is deleted with all their runs, another
      // deletes theirs one by one, runs are added from the last day to the first (by a third
      // runner, the one deleting and one moving), and an import-like transaction stores two
      // batches over the same days, newest first.
      const moves = runs.map(
        (run) => () =>
          call(t.app, 'PUT', `/api/v1/entry/${run.id}`, {
            token: run.token,
            body: { date: opposite(run.date), distance: 12, time: '01:01:00', effort: 6, shoe_id: run.shoe },
          }),
      );
      const removals = removable.map(
        (entry) => () => call(t.app, 'DELETE', `/api/v1/entry/${entry.id}`, { token: remover!.token }),
      );
      // The remover and a mover also add runs while their other writes run.
      const creations = [...DAYS].reverse().map(
        (date, i) => () =>
          call(t.app, 'POST', '/api/v1/entry', {
            token: [creator!, remover!, creator!, moverB!][i]!.token,
            body: { date, distance: 3 + i, time: '00:20:00' },
          }),
      );
      const batch = (dates: string[]) => dates.map((date) => ({ date, distanceKm: 4.2, seconds: 1500 }));
      const imported = async () => {
        const ids = await inTransaction(ctx, async (trx) => {
          await lockRunner(trx, importer!.user.id);
          const now = nowIso(ctx);
          const tally = new RunTally(trx);
          const late = await insertManyRuns(trx, importer!.user.id, batch(DAYS.slice(2)), now, tally);
          const early = await insertManyRuns(trx, importer!.user.id, batch(DAYS.slice(0, 2)), now, tally);
          await tally.finish();
          return [...late, ...early];
        });
        return { statusCode: ids.length === DAYS.length ? 200 : 500, body: String(ids) };
      };
      const results = await together<{ statusCode: number; body: string }>([
        ...moves.slice(0, 4),
        () => call(t.app, 'DELETE', `/api/v1/user/${doomed!.user.id}`, { token: admin.token }),
        removals[0]!,
        creations[0]!,
        imported,
        ...moves.slice(4),
        ...removals.slice(1),
        ...creations.slice(1),
      ]);
      for (const res of results) expect(res.statusCode, res.body).toBeLessThan(300);
      expect(seen.conflicts, 'transactions the database ended to break a deadlock').toEqual([]);
      expect(await maintainedTotals(ctx.db)).toEqual(await recountedTotals(ctx.db));
    }
  }, 180_000);
});

describe('writes of many runs at once', () => {
  it('keep every tally as exact as writes of one run', async () => {
    const ctx = t.app.appContext;
    const expectExact = async (step: string) =>
      expect(await maintainedTotals(ctx.db), step).toEqual(await recountedTotals(ctx.db));
    const runners = await Promise.all([0, 1].map(() => registerUser(t.app)));
    const shoes: number[] = [];
    for (const runner of runners) {
      const res = await call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body: { name: 'Daily' } });
      expect(res.statusCode, res.body).toBe(201);
      shoes.push(Number(res.json().shoe.id));
    }
    const ids: number[] = [];
    for (const [r, runner] of runners.entries()) {
      const runs = Array.from({ length: 30 }, (_, i) => ({
        date: DAYS[i % DAYS.length]!,
        // Some runs count for a standard distance (5 km, 10 km), some share a day.
        distanceKm: [5, 5.1, 10, 7.3, 21.1][i % 5]!,
        seconds: 1500 + i * 7,
        effort: i % 3 === 0 ? null : 1 + (i % 10),
        shoeId: i % 2 === 0 ? shoes[r]! : null,
      }));
      ids.push(
        ...(await inTransaction(ctx, async (trx) => {
          // In batches of different sizes, as an import stores them, everyone's days written once at the end.
          const tally = new RunTally(trx);
          const stored = [
            ...(await insertManyRuns(trx, runner.user.id, runs.slice(0, 7), nowIso(ctx), tally)),
            ...(await insertManyRuns(trx, runner.user.id, runs.slice(7), nowIso(ctx), tally)),
          ];
          await tally.finish();
          return stored;
        })),
      );
    }
    await expectExact('after inserting many runs in batches');

    for (const [i, id] of ids.entries()) {
      if (i % 3 === 1) continue;
      const runner = runners[i < 30 ? 0 : 1]!;
      const res = await call(t.app, 'PUT', `/api/v1/entry/${id}`, {
        token: runner.token,
        body: {
          date: i % 2 === 0 ? '2026-02-27' : DAYS[i % 4],
          distance: 5 + (i % 4) * 0.6,
          time: '00:40:00',
          effort: i % 5 === 0 ? null : 9,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expectExact('after moving many runs');

    const deleted = await call(t.app, 'DELETE', `/api/v1/shoes/${shoes[0]!}`, { token: runners[0]!.token });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await expectExact('after deleting a shoe');

    const gone = await call(t.app, 'DELETE', `/api/v1/user/${runners[1]!.user.id}`, { token: admin.token });
    expect(gone.statusCode, gone.body).toBe(200);
    await expectExact('after deleting a runner with their runs');
  });
});

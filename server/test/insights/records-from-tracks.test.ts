/**
 * Records with typed and tracked runs mixed (CONTRACT.md §10, §15), on SQLite and PostgreSQL:
 * after any sequence of watch-file imports, typed runs, edits and deletions, `/insights/records`
 * equals a computation written here from the runs (a tracked run through the best efforts its
 * run page shows, whatever its numbers are edited to; a typed run by §10's 3% rule), every
 * progression's times strictly decrease, and rebuilding every tally from the rows changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDARD_DISTANCES } from '../../../core/insights.js';
import { RecordsEnvelopeSchema } from '../../../core/insights.js';
import { formatDuration } from '../../../core/time.js';
import { RunTrackEnvelopeSchema } from '../../../core/tracks/schemas.js';
import { rebuildTallies } from '../../db/tallies.js';
import { call, createEntry, createTestApp, registerUser, type Account, type TestApp } from '../helpers.js';
import { importResult } from '../imports/fixtures.js';
import { realisticFit } from '../imports/track-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T12:00:00.000Z' });
});
afterAll(async () => {
  await t.close();
});

interface ModelRun {
  id: number;
  date: string;
  distanceM: number;
  seconds: number;
  /** A tracked run's best efforts (whole seconds by key), as its run page shows them; null for a typed run. */
  efforts: Map<string, number> | null;
}

const secondsOf = (time: string) => {
  const [h, m, s] = time.split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
};
const dayOf = (back: number) =>
  new Date(Date.parse('2026-03-17T00:00:00Z') - back * 86_400_000).toISOString().slice(0, 10);

/** §10 and §15, written out: the candidates of each distance, the best and the progression. */
function expectedRecords(runs: ModelRun[]) {
  const rows = [];
  for (const d of STANDARD_DISTANCES) {
    const candidates = runs.flatMap((run) => {
      if (run.efforts) {
        const seconds = run.efforts.get(d.key);
        return seconds === undefined ? [] : [{ run, seconds, source: 'best_effort' }];
      }
      const metres = d.mm / 1000;
      if (run.distanceM < metres || run.distanceM > metres * 1.03) return [];
      return [{ run, seconds: Math.round((run.seconds * metres) / run.distanceM), source: 'run' }];
    });
    candidates.sort((a, b) => (a.run.date < b.run.date ? -1 : a.run.date > b.run.date ? 1 : a.run.id - b.run.id));
    const progression: typeof candidates = [];
    for (const c of candidates)
      if (progression.length === 0 || c.seconds < progression.at(-1)!.seconds) progression.push(c);
    const best = progression.at(-1);
    if (!best) continue;
    rows.push({
      key: d.key,
      time: formatDuration(best.seconds),
      date: best.run.date,
      entry_id: best.run.id,
      source: best.source,
      progression: progression.map((p) => ({ date: p.run.date, time: formatDuration(p.seconds), entry_id: p.run.id })),
    });
  }
  return rows;
}

const records = async (runner: Account) =>
  RecordsEnvelopeSchema.parse((await call(t.app, 'GET', '/api/v1/insights/records', { token: runner.token })).json())
    .records;

const opArb = fc.oneof(
  fc.record({
    op: fc.constant('watch' as const),
    back: fc.integer({ min: 0, max: 700 }),
    seconds: fc.integer({ min: 700, max: 4500 }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
  }),
  fc.record({
    op: fc.constant('typed' as const),
    back: fc.integer({ min: 0, max: 700 }),
    near: fc.constantFrom(...STANDARD_DISTANCES.slice(0, 6).map((d) => d.mm / 1000)),
    stretch: fc.double({ min: 0.99, max: 1.04, noNaN: true }),
    secondsPerKm: fc.integer({ min: 200, max: 420 }),
  }),
  fc.record({
    op: fc.constant('edit' as const),
    pick: fc.nat(),
    back: fc.integer({ min: 0, max: 700 }),
    slower: fc.integer({ min: 0, max: 600 }),
  }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
);

describe('records from typed and tracked runs (§15)', () => {
  it('equal a computation from the runs after any imports, edits and deletions, and a rebuild from the rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 7 }), async (ops) => {
        const runner = await registerUser(t.app, { timezone: 'UTC' });
        const runs: ModelRun[] = [];
        for (const step of ops) {
          if (step.op === 'watch') {
            const start = new Date(`${dayOf(step.back)}T07:00:00Z`);
            const row = (
              await importResult(t.app, runner.token, [
                { name: 'watch.fit', content: realisticFit(step.seconds, { start, seed: step.seed }) },
              ])
            ).rows[0]!;
            if (row.status !== 'created') continue; // the same day, distance and time again: a duplicate
            const id = row.entry!.id!;
            const track = RunTrackEnvelopeSchema.parse(
              (await call(t.app, 'GET', `/api/v1/entry/${id}/track`, { token: runner.token })).json(),
            ).track;
            runs.push({
              id,
              date: row.entry!.date,
              distanceM: Math.round(row.entry!.distance * 1000),
              seconds: secondsOf(row.entry!.time),
              efforts: new Map(track.best_efforts.map((e) => [e.key, secondsOf(e.time)])),
            });
          } else if (step.op === 'typed') {
            const distanceM = Math.round(step.near * step.stretch);
            const seconds = Math.round((distanceM / 1000) * step.secondsPerKm);
            const entry = await createEntry(t.app, runner.token, {
              date: dayOf(step.back),
              distance: distanceM / 1000,
              time: formatDuration(seconds),
            });
            runs.push({ id: entry.id, date: entry.date, distanceM, seconds, efforts: null });
          } else if (step.op === 'edit' && runs.length > 0) {
            // Another day and a slower time: a tracked run keeps its best efforts.
            const run = runs[step.pick % runs.length]!;
            const date = dayOf(step.back);
            const seconds = run.seconds + step.slower;
            const res = await call(t.app, 'PUT', `/api/v1/entry/${run.id}`, {
              token: runner.token,
              body: { date, distance: run.distanceM / 1000, time: formatDuration(seconds) },
            });
            expect(res.statusCode, res.body).toBe(200);
            Object.assign(run, { date, seconds });
          } else if (step.op === 'delete' && runs.length > 0) {
            const [run] = runs.splice(step.pick % runs.length, 1);
            const res = await call(t.app, 'DELETE', `/api/v1/entry/${run!.id}`, { token: runner.token });
            expect(res.statusCode, res.body).toBe(200);
          }
        }
        const expected = expectedRecords(runs);
        const answered = await records(runner);
        expect(
          answered.map(({ key, time, date, entry_id, source, progression }) => ({
            key,
            time,
            date,
            entry_id,
            source,
            progression,
          })),
        ).toEqual(expected);
        for (const row of answered) {
          const times = row.progression.map((p) => secondsOf(p.time));
          expect(times.every((time, i) => i === 0 || time < times[i - 1]!)).toBe(true);
        }
        await rebuildTallies(t.app.appContext.db);
        expect(await records(runner)).toEqual(answered);
      }),
      { numRuns: 20, interruptAfterTimeLimit: 60_000 },
    );
  }, 180_000);
});

/**
 * A tracked run is stored in one pass (issue: a tracked run stored once): its row with its
 * track's summary, its track, and one tally of it with its best efforts; the import never goes
 * back to the run it just wrote.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ImportEnvelopeSchema } from '../../../core/imports.js';
import { RunTally } from '../../db/tallies.js';
import { createTestApp, registerUser, type TestApp } from '../helpers.js';
import { importFiles, zip } from './fixtures.js';
import { fitFile } from './fit-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** An hour's run recorded every 10 s, on day `day` of March 2024. */
const watchRun = (day: number) =>
  fitFile([
    {
      start: new Date(Date.UTC(2024, 2, day, 7)),
      metres: 10_000,
      timerSeconds: 3600,
      elapsedSeconds: 3600,
      records: Array.from({ length: 361 }, (_, i) => ({
        t: i * 10,
        distance: (i * 10_000) / 360,
        lat: 48.85 + i * 0.0002,
        lon: 2.35,
        heartRate: 150,
      })),
    },
  ]);

describe('an import of tracked runs', () => {
  it('tallies each run once, with its best efforts, and never writes a run twice', async () => {
    const { token } = await registerUser(t.app);
    const move = vi.spyOn(RunTally.prototype, 'move');
    const archive = zip(Object.fromEntries([1, 2, 3, 4, 5].map((day) => [`activities/${day}.fit`, watchRun(day)])));
    const res = await importFiles(t.app, token, [{ name: 'watch.zip', content: archive }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    const rows = ImportEnvelopeSchema.parse(res.json()).import.rows;
    expect(rows.map((row) => [row.status, row.entry?.has_track])).toEqual(Array(5).fill(['created', true]));
    const added = move.mock.calls.flatMap(([runs]) => runs);
    const removed = move.mock.calls.flatMap(([, runs]) => runs);
    expect(removed).toEqual([]);
    expect(added.map((run) => run.id).sort()).toEqual(rows.map((row) => row.entry!.id).sort());
    // Counted with the efforts of its track (1 km and 5 km among them), not read back from it.
    for (const run of added) expect(run.efforts?.map((e) => e.key)).toEqual(expect.arrayContaining(['1k', '5k']));
    // The rows were written once, with their summaries: never updated after.
    for (const row of rows) {
      expect(row.entry!.updated_at).toBe(row.entry!.created_at);
      expect(row.entry!.avg_heart_rate).toBe(150);
    }
  });
});

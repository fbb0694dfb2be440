/**
 * An import of more runs than one batch (IMPORT_BATCH): it holds one batch of parsed runs at a
 * time, still finds duplicates across batches (one to one, and between files), never takes
 * rows of one file for duplicates of each other, and stores all of it or nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportResult } from '../../../core/imports.js';
import { held, IMPORT_BATCH } from '../../features/imports/imports.service.js';
import { jsonPieces } from '../../features/imports/parsers/json-stream.js';
import { call, createTestApp, registerUser, type TestApp } from '../helpers.js';
import { gz, importFiles, importResult, refuseRunsTitled, storedRunCount, zip, type Part } from './fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const HEADER = 'date,distance_km,time,title,notes,kind,effort,shoe';
const DAY = 86_400_000;

/** Run i of a file: its own day (i modulo `days`), distance and time. */
function csvRun(i: number, days: number, title = `Run ${i}`): string {
  const date = new Date(Date.UTC(2015, 0, 1) + (i % days) * DAY).toISOString().slice(0, 10);
  return `${date},${(5 + (i % 7)).toFixed(1)},00:${String(25 + (i % 7)).padStart(2, '0')}:00,${title},,easy,,`;
}

const runImport = (app: TestApp, token: string, files: Part[], fields: Record<string, string> = {}) =>
  importResult(app.app, token, files, fields);
const storedCount = (app: TestApp, token: string) => storedRunCount(app.app, token);

const statuses = (result: ImportResult) => {
  const seen: Record<string, number> = {};
  for (const row of result.rows) seen[row.status] = (seen[row.status] ?? 0) + 1;
  return seen;
};

describe('an import of many runs', () => {
  it('holds at most one batch of parsed runs at a time, and answers every row in order', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const count = 3 * IMPORT_BATCH + 17;
    const csv = [HEADER, ...Array.from({ length: count }, (_, i) => csvRun(i, 5000))].join('\n');
    const preview = await runImport(t, token, [{ name: 'many.csv.gz', content: gz(csv) }], { dry_run: '1' });
    expect(held.peak).toBeGreaterThan(0);
    expect(held.peak).toBeLessThanOrEqual(IMPORT_BATCH);
    expect(preview.created).toBe(count);
    expect(await storedCount(t, token)).toBe(0);

    held.peak = 0;
    const result = await runImport(t, token, [{ name: 'many.csv', content: csv }]);
    expect(held.peak).toBeGreaterThan(0);
    expect(held.peak).toBeLessThanOrEqual(IMPORT_BATCH);
    expect(result.created).toBe(count);
    expect(result.rows.map((r) => r.source)).toEqual(Array.from({ length: count }, (_, i) => `many.csv:${i + 2}`));
    const ids = result.rows.map((r) => r.entry!.id!);
    expect(new Set(ids).size).toBe(count);
    expect(result.rows[count - 1]!.entry!.title).toBe(`Run ${count - 1}`);
    expect(await storedCount(t, token)).toBe(count);
  });

  it('reads an export inside an archive as it expands it, and a damaged one as one skipped file', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const count = IMPORT_BATCH + 123;
    const csv = [HEADER, ...Array.from({ length: count }, (_, i) => csvRun(i, 3000))].join('\n');
    const archive = zip({ 'backup/runs.csv': csv });
    held.peak = 0;
    const result = await runImport(t, token, [{ name: 'backup.zip', content: archive }], { dry_run: '1' });
    expect(held.peak).toBeLessThanOrEqual(IMPORT_BATCH);
    expect(result.created).toBe(count);
    expect(result.rows[count - 1]!.source).toBe(`backup/runs.csv:${count + 1}`);
    // The member cut short: none of its rows, one reason.
    const cut = archive.slice();
    const at = Buffer.from(cut).indexOf(Buffer.from('PK\x01\x02', 'latin1'));
    cut.fill(0x41, Math.floor(at / 2), Math.floor(at / 2) + 64);
    const damaged = await runImport(t, token, [{ name: 'backup.zip', content: cut }], { dry_run: '1' });
    expect(damaged.rows).toEqual([
      {
        source: 'backup/runs.csv',
        status: 'skipped',
        reason: expect.stringMatching(/damaged|size/) as string,
        reason_code: expect.stringMatching(/^(zip|gzip|csv|file)_/) as string,
      },
    ]);
  });

  it('finds duplicates across batches, one to one, never between rows of one file', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    // Every run twice, the copies a batch and more apart: two runs each, not one and a duplicate.
    const days = IMPORT_BATCH + 50;
    const twice = [HEADER, ...Array.from({ length: 2 * days }, (_, i) => csvRun(i, days))].join('\n');
    const first = await runImport(t, token, [{ name: 'twice.csv', content: twice }]);
    expect(statuses(first)).toEqual({ created: 2 * days });

    // Again: each row matches a stored run no earlier row took, whichever batch took the first.
    const again = await runImport(t, token, [{ name: 'twice.csv', content: twice }]);
    expect(statuses(again)).toEqual({ duplicate: 2 * days });
    expect(again.created).toBe(0);

    // A third copy of every run: the two stored ones are taken by the first two rows of each.
    const thrice = [HEADER, ...Array.from({ length: 3 * days }, (_, i) => csvRun(i, days, 'Third'))].join('\n');
    const third = await runImport(t, token, [{ name: 'thrice.csv', content: thrice }]);
    expect(statuses(third)).toEqual({ duplicate: 2 * days, created: days });
    expect(third.rows.slice(2 * days).every((r) => r.status === 'created')).toBe(true);
    expect(await storedCount(t, token)).toBe(3 * days);

    // Another file of the same import bringing the same runs: duplicates of that file, batches apart.
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const once = [HEADER, ...Array.from({ length: days }, (_, i) => csvRun(i, days))].join('\n');
    const both = await runImport(t, other.token, [
      { name: 'a.csv', content: once },
      { name: 'b.csv', content: once },
    ]);
    expect(both.created).toBe(days);
    expect(both.duplicates).toBe(days);
    expect(both.rows[days + IMPORT_BATCH]).toMatchObject({
      source: `b.csv:${IMPORT_BATCH + 2}`,
      status: 'duplicate',
      reason: `The same run as a.csv:${IMPORT_BATCH + 2}.`,
    });
  });

  it('stores nothing when the database refuses a run batches after the first', async () => {
    const own = await createTestApp({}, { sqliteFile: true });
    const REFUSED = 'Refused late';
    const refuse = (on: boolean) => refuseRunsTitled(own.config.databaseUrl, 'test_refused_late', REFUSED, on);
    try {
      const { token } = await registerUser(own.app, { timezone: 'UTC' });
      const count = 2 * IMPORT_BATCH + 300;
      const csv = [
        HEADER,
        ...Array.from({ length: count }, (_, i) => csvRun(i, count, i === count - 10 ? REFUSED : `Run ${i}`)),
      ].join('\n');
      await refuse(true);
      const failed = await importFiles(own.app, token, [{ name: 'late.csv', content: csv }]);
      expect(failed.statusCode).toBe(500);
      expect(await storedCount(own, token)).toBe(0);
      await refuse(false);
      const done = await runImport(own, token, [{ name: 'late.csv', content: csv }]);
      expect(done.created).toBe(count);
      expect(await storedCount(own, token)).toBe(count);
    } finally {
      await own.close();
    }
  });
});

describe('a JSON export read as a stream', () => {
  const doc = {
    format: 'running-times',
    version: 1,
    user: { name: 'A "b" [c] {d}', email: 'a@example.com' },
    shoes: [{ id: 7, name: 'Pegasus, "old" ]}' }],
    goals: [],
    entries: [
      { date: '2024-01-02', distance: 5, time: '00:25:00', notes: 'a\\"]},[{ \u00e9 \ud83c\udfc3', shoe_id: 7 },
      [1, 2],
      { date: '2024-01-03', distance: 6.5, time: '00:33:00', title: null },
    ],
  };

  it('gives the same members and entries whatever the chunks, and refuses damaged text', async () => {
    const text = new TextEncoder().encode(JSON.stringify(doc, null, 1));
    for (const size of [1, 3, 7, 64, text.length]) {
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        text.subarray(i * size, (i + 1) * size),
      );
      const pieces = [];
      for await (const piece of jsonPieces(chunks, new Set(['entries']))) pieces.push(piece);
      expect(pieces).toEqual([
        { key: 'format', value: doc.format },
        { key: 'version', value: 1 },
        { key: 'user', value: doc.user },
        { key: 'shoes', value: doc.shoes },
        { key: 'goals', value: [] },
        { key: 'entries', array: true },
        ...doc.entries.map((element) => ({ key: 'entries', element })),
      ]);
    }
    for (const bad of ['{"entries":[{"a":1}', '{"a":1}}', '[1]', '{"entries":[1,}', '{"a" 1}']) {
      const reading = async () => {
        for await (const piece of jsonPieces([new TextEncoder().encode(bad)], new Set(['entries']))) void piece;
      };
      await expect(reading(), bad).rejects.toThrow(/damaged or truncated/);
    }
  });

  it('imports a gzipped export, its shoe named by id, and says a JSON file that is not one', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const result = await runImport(t, token, [
      { name: 'export.json.gz', content: gz(JSON.stringify(doc)) },
      { name: 'other.json', content: JSON.stringify({ entries: [{ date: '2024-01-02' }] }) },
    ]);
    expect(result.rows.map((r) => `${r.source} ${r.status}`)).toEqual([
      'export.json#1 created',
      'export.json#2 skipped',
      'export.json#3 created',
      'other.json skipped',
    ]);
    expect(result.rows[0]!.entry).toMatchObject({ notes: 'a\\"]},[{ \u00e9 \ud83c\udfc3' });
    const shoes = (await call(t.app, 'GET', '/api/v1/shoes', { token })).json<{
      shoes: { id: number; name: string }[];
    }>();
    expect(shoes.shoes.map((s) => s.name)).toEqual([doc.shoes[0]!.name]);
    expect(result.rows[0]!.entry!.shoe_id).toBe(shoes.shoes[0]!.id);
  });
});

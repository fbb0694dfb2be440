/**
 * Hostile uploads to POST /import: compression bombs, billion laughs, archives that lie about
 * their sizes or their number of entries or whose members overlap, CSV headers of a million
 * columns, requests of millions of rows, values of every type where a JSON export has text,
 * dates past the year 275760, truncated and random files. Each gets a 4xx or a skipped row
 * with a reason, never a 5xx or a hang, and memory stays within the bounds.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema, type ImportResult } from '../../../core/imports.js';
import { importLimits } from '../../features/imports/pass-one.js';
import { passOneThreads, threadUse } from '../../features/imports/pass-one-threads.js';
import { createTestApp, expectError, registerUser, type TestApp } from '../helpers.js';
import {
  gpxFile,
  gz,
  importFiles,
  meridianPoints,
  storedRunCount,
  tcxFile,
  zip,
  type Part,
} from '../imports/fixtures.js';
import { fitActivity } from '../imports/fit-fixtures.js';
import {
  billionLaughs,
  deflateRaw,
  gzipBomb,
  overlappingZip,
  repeatedGzip,
  storedZip,
  zipBomb,
} from '../imports/hostile-fixtures.js';

let t: TestApp;
let token: string;
const limits = { ...importLimits };
const threads = { ...passOneThreads };
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t.app)).token;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  Object.assign(importLimits, limits);
  Object.assign(passOneThreads, threads);
});

const storedCount = (owner: string) => storedRunCount(t.app, owner);

const HEADER = 'date,distance_km,time,title,notes,kind,effort,shoe';

const good = () => gpxFile({ start: new Date('2024-01-01T08:00:00Z'), segments: [meridianPoints(10, 0.003, 30)] });

/** Imports (dry run) and returns the rows; the good file beside the hostile one must come through. */
async function dryRun(files: Part[]): Promise<ImportResult> {
  const res = await importFiles(t.app, token, [...files, { name: 'good.gpx', content: good() }], { dry_run: '1' });
  expect(res.statusCode, res.body).toBe(200);
  const result = ImportEnvelopeSchema.parse(res.json()).import;
  expect(result.rows.find((r) => r.source === 'good.gpx')?.status).toBe('would_create');
  return result;
}

function skippedWith(result: ImportResult, source: string, reason: RegExp): void {
  const row = result.rows.find((r) => r.source === source);
  expect(row, JSON.stringify(result.rows)).toBeDefined();
  expect(row!.status).toBe('skipped');
  expect(row!.reason).toMatch(reason);
}

const rssMiB = () => process.memoryUsage().rss / 1024 / 1024;

describe('compression bombs', () => {
  it('refuses a gzip bomb at the bound, without expanding it in full', async () => {
    const bomb = gzipBomb(140); // 140 MiB of zeros in about 140 KiB
    const before = rssMiB();
    const started = Date.now();
    const result = await dryRun([{ name: 'bomb.gpx.gz', content: bomb }]);
    skippedWith(result, 'bomb.gpx.gz', /expands beyond 128 MiB/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(rssMiB() - before).toBeLessThan(400);
  });

  it('refuses a zip entry that declares more than the bound before expanding anything', async () => {
    const result = await dryRun([{ name: 'bomb.zip', content: zipBomb(130) }]);
    skippedWith(result, 'activities/bomb.gpx', /expands beyond 128 MiB/);
  });

  it('stops a zip entry that expands past the size it declares', async () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const liar = storedZip([{ name: 'run.gpx', data: deflateRaw(zeros), method: 8, size: 1000 }]);
    const result = await dryRun([{ name: 'liar.zip', content: liar }]);
    skippedWith(result, 'run.gpx', /larger than its archive declares/);
  });

  it('refuses an archive of more than 20,000 entries or over 1 GiB declared', async () => {
    const tiny = new TextEncoder().encode('x');
    const many = storedZip(
      Array.from({ length: 20_001 }, (_, i) => ({ name: `f${i}.csv`, data: tiny, method: 0, size: 1 })),
    );
    const huge = storedZip(
      Array.from({ length: 3 }, (_, i) => ({
        name: `f${i}.gpx`,
        data: deflateRaw(tiny),
        method: 8,
        size: 400 * 1024 * 1024,
      })),
    );
    const result = await dryRun([
      { name: 'many.zip', content: many },
      { name: 'huge.zip', content: huge },
    ]);
    skippedWith(result, 'many.zip', /more than 20,000 entries/);
    skippedWith(result, 'huge.zip', /more than 1 GiB/);
  });
});

describe('XML', () => {
  it('never expands entities: a DOCTYPE (billion laughs) is refused', async () => {
    const result = await dryRun([
      { name: 'laughs.gpx', content: billionLaughs() },
      { name: 'laughs.tcx.gz', content: gz(billionLaughs().replace(/gpx/g, 'TrainingCenterDatabase')) },
    ]);
    skippedWith(result, 'laughs.gpx', /DOCTYPE/);
    skippedWith(result, 'laughs.tcx', /DOCTYPE/);
  });
});

describe('damaged files', () => {
  it('skips truncated archives, gzip files and XML with reasons', async () => {
    const archive = zip({
      'a.gpx': good(),
      'b.fit': fitActivity({ start: new Date('2024-01-02T08:00:00Z'), metres: 5000, timerSeconds: 1500 }),
    });
    const gzipped = gz(good());
    const result = await dryRun([
      { name: 'cut.zip', content: archive.slice(0, archive.length - 30) },
      { name: 'cut.gpx.gz', content: gzipped.slice(0, gzipped.length / 2) },
      { name: 'cut.gpx', content: good().slice(0, 700) },
      { name: 'cut.json', content: '{"format":"running-times","entries":[{"date":' },
      { name: 'quote.csv', content: 'date,distance_km,time\n"2024-01-01,5,00:25:00\n' },
    ]);
    for (const source of ['cut.zip', 'cut.gpx', 'cut.json', 'quote.csv']) skippedWith(result, source, /\.$/);
    skippedWith(result, 'cut.gpx', /truncated|damaged|no times/);
  });

  it('answers a malformed multipart body with a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nunfinished',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expectError(res, res.statusCode);
  });

  it('never answers 5xx to random bytes under any name', async () => {
    const names = ['x.fit', 'x.gpx', 'x.tcx', 'x.csv', 'x.json', 'x.zip', 'x.gz', 'x.fit.gz', 'x', 'activities.csv'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom<Uint8Array[]>(
          [],
          [new Uint8Array([0x1f, 0x8b, 8, 0])],
          [new Uint8Array([0x50, 0x4b, 3, 4])],
          [new TextEncoder().encode('<gpx')],
        ),
        async (name, bytes, prefix) => {
          const content = new Uint8Array([...(prefix[0] ?? []), ...bytes]);
          const res = await importFiles(t.app, token, [{ name, content }], { dry_run: '1' });
          expect(res.statusCode, res.body).toBe(200);
          for (const row of ImportEnvelopeSchema.parse(res.json()).import.rows) {
            if (row.status === 'skipped') expect(row.reason).toBeTruthy();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('requests too large to answer, and files built to be slow', () => {
  it('refuses a request of more rows than the bound, however many files carry them (two CSVs of millions of runs)', async () => {
    // The bound is lowered here: the files of the report held 6,000,000 runs each.
    importLimits.rows = 5000;
    const runner = await registerUser(t.app);
    const rows = (day: number) => `2024-01-${String(day).padStart(2, '0')},5,00:30:00,,,,,\n`.repeat(3000);
    const res = await importFiles(
      t.app,
      runner.token,
      [
        { name: 'one.csv', content: `${HEADER}\n2024-01-01,5,00:30:00,,,,,\n` },
        { name: 'a.csv.gz', content: gz(HEADER + '\n' + rows(2)) },
        { name: 'b.csv.gz', content: gz(HEADER + '\n' + rows(3)) },
      ],
      { dry_run: '1' },
    );
    expectError(res, 413);
    expect(res.json<{ message: string }>().message).toMatch(/more than 5,000 rows/);
  });

  it('refuses a 40 KB CSV whose header is 40,000 empty names at once', async () => {
    const result = await dryRun([{ name: 'wide.csv', content: `${','.repeat(40_000)}\n2026-01-01,5,00:30:00\n` }]);
    skippedWith(result, 'wide.csv', /more than 1,000 columns/);
  });

  it('refuses a gzip whose single line is a 120 MiB header, without parsing it or answering it', async () => {
    const result = await dryRun([{ name: 'header.csv.gz', content: repeatedGzip('x', 120) }]);
    skippedWith(result, 'header.csv', /header of the CSV file is longer than 64 KiB/);
    expect(JSON.stringify(result).length).toBeLessThan(10_000);
  });

  it('refuses an archive of eight directory entries naming one member, before expanding any', async () => {
    const member = `${HEADER}\n${Array.from({ length: 2000 }, (_, i) => `2024-02-${String((i % 28) + 1).padStart(2, '0')},${5 + i / 1000},00:30:00,,,,,`).join('\n')}\n`;
    const result = await dryRun([{ name: 'eight.zip', content: overlappingZip(member, 8) }]);
    skippedWith(result, 'eight.zip', /overlap/);
    expect(result.rows.filter((r) => r.source !== 'good.gpx')).toHaveLength(1);
  });

  it("refuses four gzip bombs of one runner before parsing them, while another runner's CSV is imported", async () => {
    passOneThreads.most = 1;
    const bomber = await registerUser(t.app);
    const other = await registerUser(t.app);
    const bomb = repeatedGzip('2024-01-01,5,00:30:00,,,,,\n', 130);
    const bombs = Array.from({ length: 4 }, (_, i) =>
      importFiles(t.app, bomber.token, [{ name: `bomb${i}.csv.gz`, content: bomb }], { dry_run: '1' }),
    );
    const csv = [
      HEADER,
      ...Array.from(
        { length: 15_000 },
        (_, i) =>
          `2023-03-${String((i % 28) + 1).padStart(2, '0')},${5 + (i % 100) / 100},00:${String(20 + (i % 30)).padStart(2, '0')}:00,Run ${i},,,,`,
      ),
    ].join('\n');
    const theirs = await importFiles(t.app, other.token, [{ name: 'runs.csv', content: csv }]);
    expect(theirs.statusCode, theirs.body.slice(0, 200)).toBe(201);
    expect(await storedCount(other.token)).toBe(15_000);
    for (const [i, answer] of (await Promise.all(bombs)).entries()) {
      expect(answer.statusCode).toBe(200);
      const rows = ImportEnvelopeSchema.parse(answer.json()).import.rows;
      expect(rows).toEqual([
        {
          source: `bomb${i}.csv.gz`,
          status: 'skipped',
          reason: 'The file expands beyond 128 MiB and was not expanded (a compression bomb?).',
          reason_code: 'gzip_bomb',
        },
      ]);
    }
    expect(threadUse).toMatchObject({ running: 0, alive: 0 });
  }, 60_000);
});

describe('one odd file never fails the import', () => {
  const goodCsv: Part = { name: 'good.csv', content: 'date,distance_km,time\n2024-01-01,5,00:25:00\n' };
  const MAX_INSTANT = new Date(8.64e15 - 600_000);

  it('skips a JSON entry whose title is a number, and TCX and GPX files dated in the year 275760', async () => {
    const { token } = await registerUser(t.app);
    const json = JSON.stringify({
      format: 'running-times',
      version: 1,
      entries: [{ date: '2024-02-01', distance: 5, time: '00:25:00', title: 123, notes: { a: 1 } }],
    });
    const res = await importFiles(t.app, token, [
      { name: 'odd.json', content: json },
      { name: 'far.tcx', content: tcxFile({ start: MAX_INSTANT, laps: [{ metres: 5000, seconds: 1500 }] }) },
      { name: 'far.gpx', content: gpxFile({ start: MAX_INSTANT, segments: [meridianPoints(5, 0.01, 60)] }) },
      goodCsv,
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(ImportEnvelopeSchema.parse(res.json()).import.rows.map((r) => [r.source, r.status, r.reason])).toEqual([
      ['odd.json#1', 'skipped', 'The title must be text.'],
      ['far.tcx', 'skipped', 'The start time is not a valid date.'],
      ['far.gpx', 'skipped', 'The start time is not a valid date.'],
      ['good.csv:2', 'created', undefined],
    ]);
    expect(await storedCount(token)).toBe(1);
  });

  const xml = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const dateText = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc.constantFrom(
      '+275760-09-13T00:00:00Z',
      '-271821-04-20T00:00:00Z',
      '+275760-09-13T00:00:00.001Z',
      '0000-01-01T00:00:00Z',
      '1899-12-31T23:59:59Z',
      '9999-12-31T23:59:59+14:00',
      '2024-02-30T07:00:00Z',
      'Mar 12, 275760, 6:00:00 PM',
      '2024-01-01T07:00:00-99:99',
    ),
  );
  const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), dateText);

  /** Every row of the answer is created, or skipped or a duplicate with a reason: never a 5xx. */
  async function expectAnswered(token: string, files: Part[]) {
    const res = await importFiles(t.app, token, files, { dry_run: '1' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    for (const row of ImportEnvelopeSchema.parse(res.json()).import.rows) {
      if (row.status !== 'would_create') expect(row.reason).toBeTruthy();
    }
  }

  it('answers any JSON value in any field of an export entry, its shoes and goals', async () => {
    const { token } = await registerUser(t.app);
    const entry = fc.record(
      {
        date: anyValue,
        distance: anyValue,
        time: anyValue,
        title: anyValue,
        notes: anyValue,
        kind: anyValue,
        effort: anyValue,
        shoe: anyValue,
        shoe_id: anyValue,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(entry, anyValue), { maxLength: 4 }),
        anyValue,
        anyValue,
        async (entries, shoes, goals) => {
          const json = JSON.stringify({ format: 'running-times', version: 1, shoes, goals, entries });
          await expectAnswered(token, [{ name: 'export.json', content: json }, goodCsv]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('answers any date text in every kind of file', async () => {
    const { token } = await registerUser(t.app);
    await fc.assert(
      fc.asyncProperty(dateText, dateText, async (first, second) => {
        const tcx = tcxFile({
          start: new Date('2024-01-01T07:00:00Z'),
          laps: [{ metres: 5000, seconds: 1500 }],
        }).replace(/<Id>[^<]*<\/Id>/, `<Id>${xml(first)}</Id>`);
        // The metadata's time, then the first two points' times.
        let times = 0;
        const gpx = gpxFile({
          start: new Date('2024-01-01T07:00:00Z'),
          segments: [meridianPoints(3, 0.01, 60)],
        }).replace(/<time>[^<]*<\/time>/g, (time) =>
          ++times === 2 ? `<time>${xml(first)}</time>` : times === 3 ? `<time>${xml(second)}</time>` : time,
        );
        const cell = (text: string) => `"${text.replace(/"/g, '""')}"`;
        const garmin = `Activity Type,Date,Title,Distance,Time\nRunning,${cell(first)},x,5,00:25:00\n`;
        const strava = `Activity Date,Activity Type,Elapsed Time,Distance\n${cell(second)},Run,1500,5\n`;
        const own = `${HEADER}\n${cell(first)},5,00:25:00,,,,,\n`;
        await expectAnswered(token, [
          { name: 'a.tcx', content: tcx },
          { name: 'a.gpx', content: gpx },
          { name: 'garmin.csv', content: garmin },
          { name: 'activities.csv', content: strava },
          { name: 'own.csv', content: own },
          goodCsv,
        ]);
      }),
      { numRuns: 30 },
    );
  });
});

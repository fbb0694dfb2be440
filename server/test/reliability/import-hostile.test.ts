/**
 * Hostile uploads to POST /import: compression bombs, billion laughs, archives that lie about
 * their sizes or their number of entries, truncated and random files. Each gets a 4xx or a
 * skipped row with a reason, never a 5xx or a hang, and memory stays within the bounds.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema, type ImportResult } from '../../../core/imports.js';
import { createTestApp, expectError, registerUser, type TestApp } from '../helpers.js';
import {
  billionLaughs,
  deflateRaw,
  fitActivity,
  gpxFile,
  gz,
  gzipBomb,
  importFiles,
  meridianPoints,
  storedZip,
  zip,
  zipBomb,
  type Part,
} from '../imports/fixtures.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t.app)).token;
});
afterAll(async () => {
  await t.close();
});

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
    skippedWith(result, 'cut.gpx', /truncated|damaged|two timed points/);
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

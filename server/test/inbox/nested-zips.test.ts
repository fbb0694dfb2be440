/**
 * Nested zips (CONTRACT.md §20): a zip inside an uploaded zip is read as its members, one level
 * deep; §9's bounds count the members of both levels; a row's source joins the levels with `/`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema } from '../../../core/imports.js';
import { MAX_ZIP_ENTRIES } from '../../features/imports/parsers/zip.js';
import { createTestApp, registerUser, type TestApp } from '../helpers.js';
import { fitActivity } from '../imports/fit-fixtures.js';
import { importResult, multipartBody, storedRuns } from '../imports/fixtures.js';
import { storedZip, zipBomb } from '../imports/hostile-fixtures.js';
import { garminExport, UPLOADED, yazlZip } from './garmin-export.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const day = (n: number) => new Date(Date.UTC(2025, 0, 1 + n, 7, 0, 0));
const runs = [
  { start: day(0), metres: 10_000, seconds: 3000 },
  { start: day(1), metres: 5_000, seconds: 1500 },
  { start: day(2), metres: 21_097, seconds: 6600 },
  { start: day(3), metres: 30_000, seconds: 5400, sport: 'cycling' },
];

describe('a Garmin Connect data export', () => {
  it('imports the runs of the FIT files in its nested zips, each row named by both levels', async () => {
    const { token } = await registerUser(t.app);
    const archive = await garminExport(runs);
    const result = await importResult(t.app, token, [{ name: 'garmin-export.zip', content: archive }]);
    expect(result.created).toBe(3);
    const created = result.rows.filter((row) => row.status === 'created').map((row) => row.source);
    expect(created.sort()).toEqual([
      `${UPLOADED}/UploadedFiles_0-_Part1.zip/user@example.com_1000.fit`,
      `${UPLOADED}/UploadedFiles_0-_Part1.zip/user@example.com_1001.fit`,
      `${UPLOADED}/UploadedFiles_0-_Part2.zip/user@example.com_1002.fit`,
    ]);
    expect(result.rows).toContainEqual(
      expect.objectContaining({
        source: `${UPLOADED}/UploadedFiles_0-_Part2.zip/user@example.com_1003.fit`,
        status: 'skipped',
        reason: 'Not a run (cycling).',
      }),
    );
    const stored = await storedRuns(t.app, token);
    expect(stored.map((run) => [run.date, run.distance, run.time, run.has_track]).sort()).toEqual([
      ['2025-01-01', 10, '00:50:00', true],
      ['2025-01-02', 5, '00:25:00', true],
      ['2025-01-03', 21.097, '01:50:00', true],
    ]);
    // The same export again creates nothing.
    const again = await importResult(t.app, token, [{ name: 'garmin-export.zip', content: archive }]);
    expect([again.created, again.duplicates]).toEqual([0, 3]);
  });
});

describe('nesting', () => {
  it('skips a zip nested two levels deep with the reason, and reads the level above it', async () => {
    const { token } = await registerUser(t.app);
    const fit = fitActivity({ start: day(10), metres: 8000, timerSeconds: 2400 });
    const deepest = await yazlZip({ 'deep.fit': fitActivity({ start: day(11), metres: 8000, timerSeconds: 2400 }) });
    const middle = await yazlZip({ 'a.fit': fit, 'deeper.zip': deepest });
    const outer = await yazlZip({ 'inner.zip': middle });
    const result = await importResult(t.app, token, [{ name: 'outer.zip', content: outer }], { dry_run: '1' });
    expect(result.rows).toEqual([
      expect.objectContaining({ source: 'inner.zip/a.fit', status: 'would_create' }),
      {
        source: 'inner.zip/deeper.zip',
        status: 'skipped',
        reason: 'Zips nested more than one level deep are not read.',
        reason_code: 'archive_too_deep',
      },
    ]);
  });

  it('says the reason in the request’s language', async () => {
    const { token } = await registerUser(t.app);
    const outer = await yazlZip({ 'inner.zip': await yazlZip({ 'x.zip': await yazlZip({ 'a.txt': 'a' }) }) });
    const { payload, contentType } = multipartBody([
      { name: 'dry_run', content: '1', field: true },
      { name: 'outer.zip', content: outer },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/import',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'accept-language': 'de-CH, en;q=0.5' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect(ImportEnvelopeSchema.parse(res.json()).import.rows).toEqual([
      {
        source: 'inner.zip/x.zip',
        status: 'skipped',
        reason: 'Zips, die mehr als eine Ebene tief verschachtelt sind, werden nicht gelesen.',
        reason_code: 'archive_too_deep',
      },
    ]);
  });

  it('counts the entries of both levels in one bound', async () => {
    const { token } = await registerUser(t.app);
    // An inner archive of stored (uncompressed) entries, small in bytes, that brings the total past the bound.
    const inner = storedZip(
      Array.from({ length: MAX_ZIP_ENTRIES - 5 }, (_, i) => ({
        name: `n/${i}.txt`,
        data: new Uint8Array(0),
        method: 0,
        size: 0,
      })),
    );
    const outer = await yazlZip({
      'inner.zip': inner,
      ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`o/${i}.txt`, 'x'])),
    });
    const result = await importResult(t.app, token, [{ name: 'outer.zip', content: outer }], { dry_run: '1' });
    expect(result.rows).toContainEqual({
      source: 'inner.zip',
      status: 'skipped',
      reason: 'The archive has more than 20,000 entries.',
      reason_code: 'zip_too_many_entries',
    });
    // Within the bound, the same inner archive is read.
    const fewer = await yazlZip({ 'inner.zip': inner });
    const read = await importResult(t.app, token, [{ name: 'outer.zip', content: fewer }], { dry_run: '1' });
    expect(read.rows.some((row) => row.source === 'inner.zip')).toBe(false);
  });

  it('skips a zip bomb nested in a zip with the reason, never expanding it, and reads the rest', async () => {
    const { token } = await registerUser(t.app);
    const outer = await yazlZip({
      'bomb.zip': zipBomb(300),
      'ok.fit': fitActivity({ start: day(20), metres: 6000, timerSeconds: 1800 }),
    });
    const result = await importResult(t.app, token, [{ name: 'outer.zip', content: outer }], { dry_run: '1' });
    const bomb = result.rows.find((row) => row.source.startsWith('bomb.zip/'));
    expect(bomb).toMatchObject({ status: 'skipped' });
    expect(bomb!.reason).toMatch(/expand|larger|bomb/i);
    expect(result.rows).toContainEqual(expect.objectContaining({ source: 'ok.fit', status: 'would_create' }));
  });
});

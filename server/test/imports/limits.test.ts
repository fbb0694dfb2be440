/**
 * The bounds of one import (docs/reliability.md, "Limits"): columns and line lengths of a CSV,
 * rows of a request, bytes its files may expand to, time per file, and turns on the parse
 * threads shared fairly between runners. (Hostile files at these bounds:
 * reliability/import-hostile.test.ts.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema } from '../../../core/imports.js';
import { importLimits } from '../../features/imports/pass-one.js';
import { passOneThreads, threadUse } from '../../features/imports/pass-one-threads.js';
import { parseUpload } from '../../features/imports/parsers/files.js';
import { memorySource } from '../../features/imports/parsers/types.js';
import { createTestApp, registerUser, type TestApp } from '../helpers.js';
import { gz, importFiles, importResult, storedRunCount, zip, type Part } from './fixtures.js';

let t: TestApp;
const limits = { ...importLimits };
const threads = { ...passOneThreads };
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  Object.assign(importLimits, limits);
  Object.assign(passOneThreads, threads);
});

const HEADER = 'date,distance_km,time,title,notes,kind,effort,shoe';
const DAY = 86_400_000;
const ownCsv = (count: number, from = 0) =>
  [
    HEADER,
    ...Array.from({ length: count }, (_, i) => {
      const date = new Date(Date.UTC(2015, 0, 1) + ((from + i) % 3000) * DAY).toISOString().slice(0, 10);
      return `${date},${5 + ((from + i) % 9) / 10},00:30:00,Run ${from + i},,,,`;
    }),
  ].join('\n');

const dryRun = (token: string, files: Part[]) => importResult(t.app, token, files, { dry_run: '1' });
const storedCount = (token: string) => storedRunCount(t.app, token);

describe('a CSV is held to its columns and the length of its lines', () => {
  it('refuses a line of 1,001 columns, and reads one of 1,000', async () => {
    const { token } = await registerUser(t.app);
    const header = (extra: number) => `${HEADER},${Array.from({ length: extra }, (_, i) => `extra${i}`).join(',')}`;
    const result = await dryRun(token, [
      { name: 'wider.csv', content: `${header(993)}\n2024-01-01,5,00:30:00\n` },
      { name: 'widest.csv', content: `${header(992)}\n2024-01-01,5,00:30:00\n` },
      { name: 'row.csv', content: `${HEADER}\n2024-01-02,5,00:30:00${','.repeat(1000)}\n` },
    ]);
    expect(result.rows).toEqual([
      {
        source: 'wider.csv',
        status: 'skipped',
        reason: 'A line of the CSV file has more than 1,000 columns.',
        reason_code: 'csv_too_many_columns',
      },
      expect.objectContaining({ source: 'widest.csv:2', status: 'would_create' }),
      {
        source: 'row.csv',
        status: 'skipped',
        reason: 'A line of the CSV file has more than 1,000 columns.',
        reason_code: 'csv_too_many_columns',
      },
    ]);
  });

  it('refuses a header over 64 KiB and a line over 1 MiB, whole files, with the reason', async () => {
    const { token } = await registerUser(t.app);
    const longHeader = `date,distance_km,time,${'x'.repeat(70_000)}\n2024-01-01,5,00:30:00,\n`;
    const longLine = `${HEADER}\n2024-01-01,5,00:30:00,,\n2024-01-02,5,00:30:00,"${'n'.repeat(1_100_000)}",,,,\n`;
    const result = await dryRun(token, [
      { name: 'header.csv.gz', content: gz(longHeader) },
      { name: 'line.csv', content: longLine },
    ]);
    expect(result.rows).toEqual([
      {
        source: 'header.csv',
        status: 'skipped',
        reason: 'The header of the CSV file is longer than 64 KiB.',
        reason_code: 'csv_header_too_long',
      },
      {
        source: 'line.csv',
        status: 'skipped',
        reason: 'A line of the CSV file is longer than 1 MiB.',
        reason_code: 'csv_line_too_long',
      },
    ]);
  });
});

describe('the rows of one import', () => {
  it('are bounded whatever the number of files: past the bound a clear 413, nothing stored', async () => {
    importLimits.rows = 1500;
    const { token } = await registerUser(t.app);
    const three: Part[] = [0, 1, 2].map((i) => ({ name: `part${i}.csv.gz`, content: gz(ownCsv(600, i * 600)) }));
    const res = await importFiles(t.app, token, three);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(413);
    expect(res.json<{ message: string }>().message).toBe(
      'This import holds more than 1,500 rows: send its files in smaller groups; nothing was stored.',
    );
    expect(await storedCount(token)).toBe(0);
    const two = await importFiles(t.app, token, three.slice(0, 2));
    expect(two.statusCode).toBe(201);
    expect(await storedCount(token)).toBe(1200);
  });
});

describe('expansion', () => {
  it('refuses a gzipped export that expands past the bound before a line of it is parsed', async () => {
    const mib = 1024 * 1024;
    const bomb = gz(
      Buffer.concat([Buffer.from(`${HEADER}\n`), Buffer.alloc(130 * mib, '2024-01-01,5,00:30:00,,,,,\n')]),
    );
    const options = {
      mapping: undefined,
      accountUnits: 'km' as const,
      expansion: { most: 1024 * mib, left: 1024 * mib },
      fileSeconds: 60,
    };
    const groups = parseUpload('bomb.csv.gz', memorySource(bomb), options);
    const first = (await groups.next()).value!;
    const rows = first.rows as AsyncIterable<unknown>;
    for await (const row of rows) {
      expect(row).toEqual({
        source: 'bomb.csv.gz',
        skip: 'The file expands beyond 128 MiB and was not expanded (a compression bomb?).',
      });
      break;
    }
  });

  it('bounds what the files of one request expand to together, gzip files and archives alike', async () => {
    importLimits.expandedBytes = 1024 * 1024;
    const { token } = await registerUser(t.app);
    const big = ownCsv(12_000); // about 440 KB once expanded
    // Other times in each file: no run of one is a duplicate of another's.
    const other = (time: string) => big.replace(/00:30:00/g, time);
    const result = await dryRun(token, [
      { name: 'a.csv.gz', content: gz(big) },
      { name: 'b.zip', content: zip({ 'b.csv': other('00:45:00') }) },
      { name: 'c.csv.gz', content: gz(other('01:00:00')) },
    ]);
    const last = result.rows.at(-1)!;
    expect(result.rows.filter((r) => r.status === 'would_create')).toHaveLength(24_000);
    expect(last).toEqual({
      source: 'c.csv.gz',
      status: 'skipped',
      reason: 'The files of this import expand to more than 1 MiB in all: this one was not read.',
      reason_code: 'import_expands_too_far',
    });
  });
});

describe('time', () => {
  it('skips a file that takes longer than its time, and reads the others', async () => {
    importLimits.fileSeconds = 0;
    const { token } = await registerUser(t.app);
    const result = await dryRun(token, [{ name: 'slow.csv', content: ownCsv(2000) }]);
    expect(result.rows).toEqual([
      {
        source: 'slow.csv',
        status: 'skipped',
        reason: 'Reading this file took longer than 0 seconds: it was not imported.',
        reason_code: 'read_too_slow',
      },
    ]);
  });

  it('shares the parse thread between runners: a large import gives its turn to a small one', async () => {
    Object.assign(passOneThreads, { most: 1, sliceMs: 0 });
    const large = await registerUser(t.app);
    const small = await registerUser(t.app);
    const slow = importFiles(t.app, large.token, [{ name: 'large.csv', content: ownCsv(60_000) }], { dry_run: '1' });
    while (threadUse.running === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const quick = await importFiles(t.app, small.token, [{ name: 'small.csv', content: ownCsv(20) }], { dry_run: '1' });
    // The small import is done while the large one is still being read on its thread.
    expect(threadUse.alive).toBe(1);
    expect(quick.statusCode).toBe(200);
    expect(ImportEnvelopeSchema.parse(quick.json()).import.created).toBe(20);
    const done = await slow;
    expect(done.statusCode).toBe(200);
    expect(ImportEnvelopeSchema.parse(done.json()).import.created).toBe(60_000);
    expect(threadUse).toMatchObject({ running: 0, alive: 0 });
  });
});

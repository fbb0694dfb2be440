/**
 * Small files made to cost far more than their size (abuse-fixtures.ts): many sessions over the
 * same records, a gzip of millions of identical records, an index naming one file thousands of
 * times, hundreds of thousands of laps and pauses. Each is read on a parse thread, within its
 * bounds, and answered with a reason; the server and the other runners never notice. The
 * open-loop measurements of the same files (health, another runner's read and write, RSS) are in
 * `npm run bench:import`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema, type ImportResult } from '../../../core/imports.js';
import { FIT_LIMITS, parseFit } from '../../features/imports/parsers/fit.js';
import { MAX_LAPS, MAX_PAUSES } from '../../features/imports/parsers/track.js';
import { passOneThreads, threadUse } from '../../features/imports/pass-one-threads.js';
import { createTestApp, registerUser, type TestApp } from '../helpers.js';
import { importFiles, storedRunCount, type Part } from '../imports/fixtures.js';
import {
  indexNamingOneMember,
  manyLapsFit,
  repeatedRecordsFitGz,
  sessionsOverSharedRecords,
} from '../imports/abuse-fixtures.js';

let t: TestApp;
let token: string;
const threads = { ...passOneThreads };
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t.app)).token;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  Object.assign(passOneThreads, threads);
});

async function answered(files: Part[], fields: Record<string, string> = {}): Promise<ImportResult> {
  const res = await importFiles(t.app, token, files, fields);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(fields.dry_run ? 200 : 201);
  return ImportEnvelopeSchema.parse(res.json()).import;
}

const samplesOf = (rows: ReturnType<typeof parseFit>['rows']) =>
  rows.reduce((n, row) => n + ('run' in row && row.run.track ? row.run.track.t.length : 0), 0);

describe('a FIT file of many sessions over the same records', () => {
  it('reads each record for one session only: the sessions together cost what the records do', () => {
    const rows = parseFit('sessions.fit', sessionsOverSharedRecords(FIT_LIMITS.sessions, 35_000)).rows;
    expect(rows).toHaveLength(FIT_LIMITS.sessions);
    // Each session declares the whole span; they all start together, so one takes the records.
    expect(samplesOf(rows)).toBe(35_000);
  });

  it('is refused past the sessions a file may hold, on a parse thread, as a skipped row', async () => {
    const before = threadUse.started;
    const result = await answered([{ name: 'sessions.fit', content: sessionsOverSharedRecords(2_500, 35_000) }], {
      dry_run: '1',
    });
    expect(result.rows).toEqual([
      {
        source: 'sessions.fit',
        status: 'skipped',
        reason: `The FIT file holds more than ${FIT_LIMITS.sessions} sessions: it was not imported.`,
        reason_code: 'fit_too_many_sessions',
      },
    ]);
    expect(threadUse.started - before).toBeLessThanOrEqual(1);
    expect(threadUse).toMatchObject({ running: 0, alive: 0 });
  });
});

describe('a gzipped FIT of millions of identical records', () => {
  it('stops decoding at the bound on messages, whatever it expands to', async () => {
    const result = await answered([{ name: 'records.fit.gz', content: repeatedRecordsFitGz(117) }], {
      dry_run: '1',
    });
    expect(result.rows).toEqual([
      {
        source: 'records.fit',
        status: 'skipped',
        reason: `The FIT file holds more than ${FIT_LIMITS.messages.toLocaleString('en-US')} messages: it was not imported.`,
        reason_code: 'fit_too_many_messages',
      },
    ]);
  }, 60_000);
});

describe('the memory a file made a parse thread take', () => {
  it('goes with the thread: one whose heap grew large is ended, a small one kept for the next import', async () => {
    await answered([{ name: 'records.fit.gz', content: repeatedRecordsFitGz(117) }], { dry_run: '1' });
    const before = threadUse.started;
    const small = () => answered([{ name: 'one.fit', content: sessionsOverSharedRecords(1, 600) }], { dry_run: '1' });
    await small();
    expect(threadUse.started).toBe(before + 1);
    await small();
    expect(threadUse.started).toBe(before + 1);
  }, 60_000);
});

describe('an index that names one file many times', () => {
  it('reads the file once: the first row takes its run, the others keep their own numbers', async () => {
    const archive = indexNamingOneMember(2_000, sessionsOverSharedRecords(1, 3_600));
    const result = await answered([{ name: 'export.zip', content: archive }], { dry_run: '1' });
    const created = result.rows.filter((row) => row.status === 'would_create');
    expect(created).toHaveLength(2_000);
    expect(created.filter((row) => row.entry?.has_track)).toHaveLength(1);
  });
});

describe('laps and pauses', () => {
  it('keeps the run without its track past the pauses a track may hold, and says why', async () => {
    const result = await answered([{ name: 'pauses.fit', content: manyLapsFit(10, MAX_PAUSES + 1) }]);
    expect(result.rows).toHaveLength(1);
    const [row] = result.rows;
    expect(row!.status).toBe('created');
    expect(row!.entry?.has_track).toBe(false);
    expect(row!.reason).toBe(
      `The file has ${(MAX_PAUSES + 1).toLocaleString('en-US')} timer pauses, more than ${MAX_PAUSES.toLocaleString('en-US')}: the run is kept without its track.`,
    );
  });

  it('keeps the track without its laps past the laps a track may hold; its page answers', async () => {
    const runner = await registerUser(t.app);
    const res = await importFiles(t.app, runner.token, [{ name: 'laps.fit', content: manyLapsFit(200_000, 0) }]);
    expect(res.statusCode).toBe(201);
    const [row] = ImportEnvelopeSchema.parse(res.json()).import.rows;
    expect(row!.reason).toBe(
      `The file has 200,000 laps, more than ${MAX_LAPS.toLocaleString('en-US')}: the track is kept without them.`,
    );
    expect(row!.entry?.has_track).toBe(true);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/v1/entry/${row!.entry!.id}/track`,
      headers: { authorization: `Bearer ${runner.token}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.json<{ track: { laps: unknown[] } }>().track.laps).toEqual([]);
    expect(await storedRunCount(t.app, runner.token)).toBe(1);
  }, 60_000);
});

describe('a parse thread out of its heap', () => {
  it('is replaced: the import is a 413, the next import starts a new thread and works', async () => {
    passOneThreads.heapMiB = 16;
    passOneThreads.youngMiB = 1;
    const runner = await registerUser(t.app);
    const heavy = await importFiles(t.app, runner.token, [
      { name: 'records.fit.gz', content: repeatedRecordsFitGz(60) },
    ]);
    expect(heavy.statusCode, heavy.body.slice(0, 200)).toBe(413);
    expect(await storedRunCount(t.app, runner.token)).toBe(0);
    Object.assign(passOneThreads, threads);
    const before = threadUse.started;
    const next = await importFiles(t.app, runner.token, [
      { name: 'sessions.fit', content: sessionsOverSharedRecords(1, 600) },
    ]);
    expect(next.statusCode).toBe(201);
    expect(threadUse.started).toBe(before + 1);
  }, 60_000);
});

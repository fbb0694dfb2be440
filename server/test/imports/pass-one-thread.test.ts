/**
 * Pass 1 of an import (parse, validate, spool) on a parse thread: the same answer for every
 * runner on a thread started once and kept, its failures answered clearly with nothing stored,
 * and never more threads at once than allowed.
 */
import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ImportResult } from '../../../core/imports.js';
import { passOneThreads, threadUse } from '../../features/imports/pass-one-threads.js';
import { createTestApp, registerUser, type TestApp } from '../helpers.js';
import {
  gz,
  importFiles,
  importResult,
  refuseRunsTitled,
  storedRunCount,
  stravaCsv,
  zip,
  type Part,
} from './fixtures.js';
import { fitActivity } from './fit-fixtures.js';

let t: TestApp;
const defaults = { ...passOneThreads };
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  Object.assign(passOneThreads, defaults);
});

const HEADER = 'date,distance_km,time,title,notes,kind,effort,shoe';
const DAY = 86_400_000;

function ownCsv(count: number): string {
  const lines = [HEADER];
  for (let i = 0; i < count; i++) {
    const date = new Date(Date.UTC(2016, 0, 1) + (i % 400) * DAY).toISOString().slice(0, 10);
    // Every 17th run is invalid (no time), every 23rd has a long note with quotes and a line break.
    const time = i % 17 === 5 ? '' : `00:${String(25 + (i % 9)).padStart(2, '0')}:00`;
    const notes = i % 23 === 0 ? `"Said ""easy"",\nthen ${'x'.repeat(300)}"` : '';
    lines.push(`${date},${(5 + (i % 9) / 10).toFixed(1)},${time},Run ${i},${notes},easy,${(i % 10) + 1},`);
  }
  return `${lines.join('\n')}\n`;
}

/** Files of every kind: an own CSV, a Strava zip with a FIT file, a damaged CSV, a JSON export with a shoe. */
function mixedFiles(): Part[] {
  const json = {
    format: 'running-times',
    version: 1,
    shoes: [{ id: 3, name: 'Trail shoe' }],
    goals: [{ period: 'week', metric: 'runs', target: 3 }],
    entries: [
      { date: '2019-05-01', distance: 12.3456, time: '01:02:03', shoe_id: 3 },
      { date: '2019-05-02', distance: -1, time: '00:10:00' },
    ],
  };
  const strava = stravaCsv([
    {
      id: 1,
      start: new Date(Date.UTC(2019, 1, 1, 7)),
      name: 'Strava run',
      type: 'Run',
      metres: 8000,
      moving: 2400,
      elapsed: 2500,
    },
    {
      id: 2,
      start: new Date(Date.UTC(2019, 1, 2, 7)),
      name: 'A ride',
      type: 'Ride',
      metres: 30000,
      moving: 3600,
      elapsed: 3700,
    },
  ]);
  return [
    { name: 'own.csv', content: ownCsv(300) },
    { name: 'own-again.csv.gz', content: gz(ownCsv(40)) },
    {
      name: 'strava.zip',
      content: zip({
        'activities.csv': strava,
        'activities/9.fit': fitActivity({
          start: new Date(Date.UTC(2019, 2, 1, 6)),
          metres: 10000,
          timerSeconds: 3000,
        }),
      }),
    },
    { name: 'damaged.csv', content: `${HEADER}\n2019-01-01,5,00:30:00,"open quote,,,,\n2019-01-02,5,00:30:00,x,,,,\n` },
    { name: 'export.json', content: JSON.stringify(json) },
  ];
}

const imported = (token: string, files: Part[], fields: Record<string, string> = {}) =>
  importResult(t.app, token, files, fields);
const storedCount = (token: string) => storedRunCount(t.app, token);

/** An answer without what differs between two runners (ids, user ids, shoe ids). */
const comparable = (result: ImportResult) => ({
  ...result,
  rows: result.rows.map((row) => {
    if (row.duplicate_of) {
      const { id: _id, ...match } = row.duplicate_of;
      return { ...row, duplicate_of: match };
    }
    if (!row.entry) return row;
    const { id: _id, user_id: _user, shoe_id: shoe, ...entry } = row.entry;
    return { ...row, entry: { ...entry, shoe: shoe === null ? null : 'a shoe' } };
  }),
});

describe('pass 1 on a parse thread', () => {
  it('answers two runners alike, for a preview and for an import, on a thread started once and kept', async () => {
    const files = mixedFiles();
    const here = await registerUser(t.app, { timezone: 'Europe/Paris' });
    const there = await registerUser(t.app, { timezone: 'Europe/Paris' });
    // A first import starts the thread (when no earlier test did); every later one reuses it.
    await imported(here.token, [{ name: 'warm.csv', content: ownCsv(1) }], { dry_run: '1' });
    const started = threadUse.started;

    const previewHere = await imported(here.token, files, { dry_run: '1' });
    const previewThere = await imported(there.token, files, { dry_run: '1' });
    expect(comparable(previewThere)).toEqual(comparable(previewHere));
    // The files exercise every kind of row: created, skipped (invalid, other sport, damaged file).
    expect(previewHere.created).toBeGreaterThan(250);
    expect(previewHere.skipped).toBeGreaterThan(20);
    expect(previewHere.rows.some((r) => r.source === 'damaged.csv' && r.status === 'skipped')).toBe(true);

    const storedHere = await imported(here.token, files);
    const storedThere = await imported(there.token, files);
    expect(comparable(storedThere)).toEqual(comparable(storedHere));
    expect(await storedCount(there.token)).toBe(storedHere.created);

    // And again: the same duplicates found on both.
    const againHere = await imported(here.token, files);
    const againThere = await imported(there.token, files);
    expect(comparable(againThere)).toEqual(comparable(againHere));
    expect(againThere.created).toBe(0);
    expect(threadUse.started).toBe(started);
  });

  it('a thread that stops part-way through a file is a clear 500, nothing stored, and the next import works', async () => {
    passOneThreads.exitAfterRows = 150;
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    const before = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('running-times-import-')).length;
    const res = await importFiles(t.app, token, [{ name: 'runs.csv', content: ownCsv(400) }]);
    expect(res.statusCode).toBe(500);
    expect(res.json<{ message: string }>().message).toMatch(/stopped before its files were read.*nothing was stored/);
    expect(await storedCount(token)).toBe(0);
    // Its upload and spool are gone with it.
    const after = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('running-times-import-')).length;
    expect(after).toBeLessThanOrEqual(before);

    passOneThreads.exitAfterRows = 0;
    const result = await imported(token, [{ name: 'runs.csv', content: ownCsv(400) }]);
    expect(result.created).toBeGreaterThan(350);
    expect(await storedCount(token)).toBe(result.created);
  });

  it('a thread out of its memory is a 413, nothing stored', async () => {
    passOneThreads.heapMiB = 4;
    passOneThreads.youngMiB = 1;
    const { token } = await registerUser(t.app, { timezone: 'UTC' });
    // A JSON export whose one entry holds a 20 MB string: more than the thread's heap.
    const huge = `{"format":"running-times","version":1,"entries":[{"date":"2019-01-01","distance":5,"time":"00:30:00","notes":"${'n'.repeat(20_000_000)}"}]}`;
    const res = await importFiles(t.app, token, [{ name: 'huge.json', content: huge }]);
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toMatch(/nothing was stored/);
    expect(await storedCount(token)).toBe(0);
  });

  it('runs no more threads at once than allowed: the others wait their turn and finish', async () => {
    passOneThreads.most = 1;
    threadUse.peak = 0;
    const runners = await Promise.all([1, 2, 3].map(() => registerUser(t.app, { timezone: 'UTC' })));
    const results = await Promise.all(
      runners.map(({ token }) => imported(token, [{ name: 'runs.csv', content: ownCsv(200) }])),
    );
    for (const [i, result] of results.entries()) {
      expect(result.created).toBe(results[0]!.created);
      expect(await storedCount(runners[i]!.token)).toBe(result.created);
    }
    expect(threadUse.peak).toBe(1);
    expect(threadUse.running).toBe(0);
  });
});

describe("the page cache of an import's connection (SQLite)", () => {
  it("is the connection's own again after an import, stored or failed", async (context) => {
    const own = await createTestApp({}, { sqliteFile: true });
    try {
      if (!own.config.databaseUrl.startsWith('sqlite:')) return context.skip();
      const db = own.app.appContext.db;
      const cacheSize = async () =>
        Number((await sql<{ cache_size: number }>`pragma cache_size`.execute(db)).rows[0]!.cache_size);
      const before = await cacheSize();
      const { token } = await registerUser(own.app, { timezone: 'UTC' });
      const res = await importFiles(own.app, token, [{ name: 'runs.csv', content: ownCsv(300) }]);
      expect(res.statusCode).toBe(201);
      expect(await cacheSize()).toBe(before);
      await refuseRunsTitled(own.config.databaseUrl, 'test_refused_cache', 'Run 250', true);
      const failed = await importFiles(own.app, token, [
        { name: 'more.csv', content: ownCsv(300).replace(/2016-/g, '2017-') },
      ]);
      expect(failed.statusCode).toBe(500);
      expect(await cacheSize()).toBe(before);
    } finally {
      await own.close();
    }
  });
});

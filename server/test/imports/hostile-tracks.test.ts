/**
 * Hostile track files (points out of order, absurd positions, too many samples, 40 MB) and a
 * Strava export row whose numbers come from the file it names. The formats one by one are in
 * tracks/tracks.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseUpload } from '../../features/imports/parsers/files.js';
import { parseGpx } from '../../features/imports/parsers/gpx.js';
import { memorySource, type ParsedRow } from '../../features/imports/parsers/types.js';
import { stravaCsv, zip } from './fixtures.js';
import { bytesOf, cm, LEG, runOf, trackOf } from './parsed.js';
import {
  backwardsGpx,
  badPositionsGpx,
  largeGpxChunks,
  manyPointsGpx,
  WATCH_START,
  watchFit,
} from './track-fixtures.js';

describe('hostile files', () => {
  it('drops points without time or not after the one before, counting their legs of distance', () => {
    const track = trackOf(parseGpx('backwards.gpx', bytesOf(backwardsGpx())));
    expect(track.t).toEqual([0, 10, 20, 30]);
    expect(track.hr).toEqual([100, 101, 105, 106]);
    expect(track.lat).toEqual([50, 50.0001, 50.0005, 50.0006]);
    expect(track.d).toEqual([0, cm(LEG), cm(5 * LEG), cm(6 * LEG)]);
  });

  it('keeps NaN and absurd positions as missing, the sample kept', () => {
    const track = trackOf(parseGpx('bad.gpx', bytesOf(badPositionsGpx())));
    expect(track.t).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(track.lat).toEqual([50, NaN, NaN, NaN, NaN, 50.0002, 50.0003]);
    expect(track.lon).toEqual([4, NaN, NaN, NaN, NaN, 4, 4]);
    expect(track.d).toEqual([0, 0, 0, 0, 0, cm(2 * LEG), cm(3 * LEG)]);
    expect(track.hr).toEqual([100, 101, 102, 103, 104, 105, 106]);
  });

  it('thins 200,001 samples to every 2nd and the last, and says so', () => {
    const run = runOf(parseGpx('long.gpx', manyPointsGpx(200_001)).rows[0]);
    const track = run.track!;
    expect(track.t).toHaveLength(100_001);
    expect(track.t.slice(0, 3)).toEqual([0, 2, 4]);
    expect(track.t.at(-1)).toBe(200_000);
    expect(track.lat!.at(-1)).toBe(12);
    // Each leg is 1e-5 degrees of latitude; thinning keeps the distance each kept sample reached.
    expect(track.d![1]).toBe(cm(2 * (LEG / 10)));
    expect(track.d!.at(-1)).toBeCloseTo(200_000 * (LEG / 10), 1);
    expect(run.note).toBe('The track had 200,001 samples: every 2nd one and the last are kept (at most 200,000).');
  }, 60_000);

  it('keeps the whole track of a 40 MB file', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tracks-'));
    try {
      const file = path.join(folder, 'ultra.gpx');
      const fd = fs.openSync(file, 'w');
      const chunks = largeGpxChunks(40 * 1024 * 1024);
      let next = chunks.next();
      while (!next.done) {
        fs.writeSync(fd, next.value);
        next = chunks.next();
      }
      fs.closeSync(fd);
      const points = next.value;
      expect(fs.statSync(file).size).toBeGreaterThanOrEqual(40 * 1024 * 1024);
      const run = runOf(parseGpx('ultra.gpx', fs.readFileSync(file)).rows[0]);
      const track = run.track!;
      expect(track.t).toHaveLength(points);
      expect(track.t.at(-1)).toBe(points - 1);
      expect(track.hr!.at(-1)).toBe(120 + ((points - 1) % 30));
      expect(track.ele!.at(-1)).toBe(100 + ((points - 1) % 50));
      expect(run.note).toBeUndefined();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a Strava row that takes its numbers from the file it names', () => {
  it('takes the file’s track too', async () => {
    const archive = zip({
      'activities.csv': stravaCsv([
        {
          id: 1,
          start: WATCH_START,
          name: 'Intervals',
          type: 'Run',
          metres: null,
          moving: null,
          elapsed: 600,
          filename: 'activities/1.fit',
        },
      ]),
      'activities/1.fit': watchFit(),
    });
    const rows: ParsedRow[] = [];
    for await (const group of parseUpload('export.zip', memorySource(archive), {
      accountUnits: 'km',
      expansion: { most: 1024 ** 3, left: 1024 ** 3 },
      fileSeconds: 60,
    })) {
      for await (const row of group.rows) rows.push(row);
    }
    expect(rows).toHaveLength(1);
    const run = runOf(rows[0]);
    expect(run.title).toBe('Intervals');
    expect(run.distanceKm).toBe(1.62);
    expect(run.track!.t).toHaveLength(542);
    expect(run.track!.pauses).toEqual([[300, 360]]);
  });
});

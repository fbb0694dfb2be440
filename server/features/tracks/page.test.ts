/**
 * The stored run page (page.ts): what the page answers from it is the answer computed at import,
 * series included, number for number, in much less room than its JSON; damage is refused.
 */
import { brotliCompressSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseTrack } from '../../../core/tracks/analyse.js';
import { runTrackOf } from '../../../core/tracks/schemas.js';
import type { TrackSeries } from '../../../core/tracks/series.js';
import { parseFit } from '../imports/parsers/fit.js';
import { realisticFit, watchFit } from '../../test/imports/track-fixtures.js';
import { DamagedTrackError } from './codec.js';
import { packPage, pageMembers } from './page.js';

const pageOf = (fit: Uint8Array) => {
  const row = parseFit('run.fit', fit).rows[0];
  if (!row || !('run' in row) || !row.run.track) throw new Error('no track');
  const { entry_id: _id, heart_rate: _hr, ...page } = runTrackOf(0, analyseTrack(row.run.track), null);
  return page;
};
const roundTrip = (page: Parameters<typeof packPage>[0]): unknown => JSON.parse(`{${pageMembers(packPage(page))}}`);
/** The answer as JSON gives it (-0 is 0). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the stored run page', () => {
  it('answers what was computed at import, every number of the series the same', () => {
    for (const fit of [watchFit(), realisticFit(3600, { seed: 5, fractionalCadence: true })]) {
      const page = pageOf(fit);
      expect(page.series?.distance.length).toBeGreaterThan(100);
      expect(roundTrip(page)).toEqual(asJson(page));
    }
  });

  it('keeps any series on its steps: negative, zero, absent channels, no series at all', () => {
    const tenths = (n: number) =>
      fc.array(
        fc.integer({ min: -100_000_000, max: 100_000_000 }).map((k) => k / 10),
        { minLength: n, maxLength: n },
      );
    const wholes = (n: number) => fc.array(fc.integer({ min: 0, max: 300 }), { minLength: n, maxLength: n });
    const series: fc.Arbitrary<TrackSeries> = fc.integer({ min: 0, max: 60 }).chain((n) =>
      fc.record({
        distance: tenths(n),
        time: tenths(n),
        elevation: fc.option(tenths(n), { nil: null }),
        heart_rate: fc.option(wholes(n), { nil: null }),
        cadence: fc.option(wholes(n), { nil: null }),
      }),
    );
    fc.assert(
      fc.property(series, (s) => {
        expect(roundTrip({ series: s, samples: 7, laps: [] })).toEqual(asJson({ series: s, samples: 7, laps: [] }));
      }),
      { numRuns: 100 },
    );
    expect(roundTrip({ series: null, samples: 1 })).toEqual({ series: null, samples: 1 });
  });

  it('takes an hour of a watch page in well under half the room of its JSON compressed alike', () => {
    const page = pageOf(realisticFit(3600, { seed: 6 }));
    expect(packPage(page).length).toBeLessThan(brotliCompressSync(JSON.stringify(page)).length / 2);
  });

  it('is refused when damaged: another version, cut short, a byte changed', () => {
    const stored = Buffer.from(packPage(pageOf(watchFit())));
    expect(() => pageMembers(Buffer.concat([Buffer.from([9]), stored.subarray(1)]))).toThrow(DamagedTrackError);
    expect(() => pageMembers(stored.subarray(0, stored.length >> 1))).toThrow(DamagedTrackError);
    for (let at = 1; at < stored.length; at += 97) {
      const changed = Buffer.from(stored);
      changed[at]! ^= 0x5a;
      expect(() => pageMembers(changed)).toThrow(DamagedTrackError);
    }
  });
});

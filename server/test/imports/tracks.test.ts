/**
 * Tracks from activity files (CONTRACT.md §13): each fixture of track-fixtures.ts parsed, and
 * its track checked against values worked out by hand from how the fixture was written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFit } from '../../features/imports/parsers/fit.js';
import { parseGpx } from '../../features/imports/parsers/gpx.js';
import { parseTcx } from '../../features/imports/parsers/tcx.js';
import { TrackBuilder } from '../../features/imports/parsers/track.js';
import { decodeTrack, encodeTrack } from '../../features/tracks/codec.js';
import { tcxFile } from './fixtures.js';
import { bytesOf, cm, LEG, runOf, trackOf } from './parsed.js';
import { fitFile, type FitRecord } from './fit-fixtures.js';
import {
  multiSessionFit,
  segmentedGpx,
  untimedGpx,
  WATCH_START,
  watchFit,
  watchGpx,
  watchTcx,
} from './track-fixtures.js';

describe('FIT', () => {
  const file = parseFit('watch.fit', watchFit());
  const track = trackOf(file);

  it('keeps every record, on a clock from the first, with the pause of its timer events', () => {
    expect(track.t).toHaveLength(301 + 241);
    expect(track.t.slice(0, 3)).toEqual([0, 1, 2]);
    expect(track.t[300]).toBe(300);
    expect(track.t[301]).toBe(360);
    expect(track.t.at(-1)).toBe(600);
    expect(track.pauses).toEqual([[300, 360]]);
  });

  it('reads positions from semicircles, distance, enhanced altitude and heart rate', () => {
    expect(track.lat![0]).toBe(48.8);
    expect(track.lat!.at(-1)).toBe(48.8054);
    expect(new Set(track.lon)).toEqual(new Set([2.35]));
    expect(track.d![0]).toBe(0);
    expect(track.d![300]).toBe(900);
    expect(track.d![301]).toBe(900);
    expect(track.d!.at(-1)).toBe(1620);
    expect(track.ele![0]).toBe(100);
    expect(track.ele![1]).toBe(100.2);
    expect(track.ele!.at(-1)).toBe(208);
    expect(track.hr!.slice(38, 42)).toEqual([158, 159, 120, 121]);
  });

  it('doubles the per-leg cadence with its fraction into steps per minute', () => {
    expect(track.cad!.slice(0, 5)).toEqual([170, 170.5, 171, 171.5, 170]);
  });

  it('takes the laps and the session totals of ascent and descent', () => {
    expect(track.laps).toEqual([
      { start: 0, distance: 600, time: 200 },
      { start: 200, distance: 1020, time: 340 },
    ]);
    expect(track.deviceElevation).toEqual({ gain: 108, loss: 3 });
  });

  it('leaves the run’s own numbers as the session states them', () => {
    const run = runOf(file.rows[0]);
    expect(run.start).toEqual(WATCH_START);
    expect(run.distanceKm).toBe(1.62);
    expect(run.seconds).toBe(540);
    expect(run.note).toBeUndefined();
  });

  it('gives each session of a multisport file the records and laps of its own span', () => {
    const { bytes, starts } = multiSessionFit();
    const rows = parseFit('multi.fit', bytes).rows;
    expect(rows.map((r) => r.source)).toEqual(['multi.fit#1', 'multi.fit#2', 'multi.fit#3']);
    expect(rows[1]).toEqual({ source: 'multi.fit#2', skip: 'Not a run (cycling).' });
    const [first, last] = [runOf(rows[0]), runOf(rows[2])];
    expect(first.start).toEqual(starts[0]);
    expect(last.start).toEqual(starts[2]);
    expect(first.track!.t).toHaveLength(121);
    expect(first.track!.t.at(-1)).toBe(120);
    expect(first.track!.d!.at(-1)).toBe(300);
    expect(first.track!.laps).toEqual([{ start: 0, distance: 300, time: 120 }]);
    expect(last.track!.t).toHaveLength(91);
    expect(last.track!.t.at(-1)).toBe(90);
    expect(last.track!.d!.at(-1)).toBe(225);
    expect(last.track!.laps).toEqual([{ start: 0, distance: 225, time: 90 }]);
    // The timer stopped between sessions: inside neither span.
    expect(first.track!.pauses).toEqual([]);
    expect(last.track!.pauses).toEqual([]);
    // Heart rate only, no totals of ascent: no elevation of either kind.
    expect(first.track!.ele).toBeNull();
    expect(first.track!.cad).toBeNull();
    expect(first.track!.deviceElevation).toBeNull();
  });

  const oneSession = (
    records: FitRecord[],
    pauses: { from: number; to: number; stop?: 'stop' | 'stopDisableAll' }[] = [],
  ) =>
    trackOf(
      parseFit(
        'x.fit',
        fitFile([
          {
            start: WATCH_START,
            metres: 1000,
            timerSeconds: 600,
            elapsedSeconds: 600,
            records,
            pauses,
          },
        ]),
      ),
    );

  it('takes the older altitude field when there is no enhanced altitude', () => {
    const track = oneSession([
      { t: 0, altitude: 12.4, heartRate: 150 },
      { t: 1, altitude: 12.6 },
    ]);
    expect(track.ele).toEqual([12.4, 12.6]);
    expect(track.hr).toEqual([150, NaN]);
    expect(track.lat).toBeNull();
    expect(track.d).toBeNull();
  });

  it('measures the distance along the positions when the records have none', () => {
    const track = oneSession([0, 1, 2, 3].map((i) => ({ t: i * 4, lat: 46 + i * 1e-4, lon: 7 })));
    expect(track.d).toEqual([0, cm(LEG), cm(2 * LEG), cm(3 * LEG)]);
  });

  it('pauses from the first of several stops to the next start, whatever kind of stop', () => {
    const track = oneSession(
      [0, 100, 200, 300, 400].map((t) => ({ t, distance: t })),
      [
        { from: 50, to: 120, stop: 'stop' },
        { from: 250, to: 330, stop: 'stopDisableAll' },
      ],
    );
    expect(track.pauses).toEqual([
      [50, 120],
      [250, 330],
    ]);
  });
});

describe('TCX', () => {
  const file = parseTcx('watch.tcx', bytesOf(watchTcx()));
  const track = trackOf(file);

  it('keeps every Trackpoint, and a pause between two Track elements', () => {
    expect(track.t).toHaveLength(30 + 16 + 16);
    expect(track.t[0]).toBe(0);
    expect(track.t[29]).toBe(290);
    expect(track.t[30]).toBe(300);
    expect(track.t.at(-1)).toBe(660);
    // Lap 1's Track ends at 290 s and lap 2's begins at 300 s; the watch stopped from 450 s to 510 s.
    expect(track.pauses).toEqual([
      [290, 300],
      [450, 510],
    ]);
  });

  it('reads position, altitude, distance, heart rate, and RunCadence doubled', () => {
    expect(track.lat![0]).toBe(45.5);
    expect(track.lat!.at(-1)).toBe(45.56);
    expect(new Set(track.lon)).toEqual(new Set([-73.6]));
    expect(track.ele![0]).toBe(30);
    expect(track.ele!.at(-1)).toBe(90);
    expect(track.d![0]).toBe(0);
    expect(track.d![45]).toBe(1125);
    expect(track.d![46]).toBe(1125);
    expect(track.d!.at(-1)).toBe(1500);
    expect(track.hr![0]).toBe(140);
    expect(track.hr!.at(-1)).toBe(200);
    expect(new Set(track.cad)).toEqual(new Set([176]));
  });

  it('takes the laps, and leaves the numbers of the run to the laps’ sums', () => {
    expect(track.laps).toEqual([
      { start: 0, distance: 750, time: 300 },
      { start: 300, distance: 750, time: 300 },
    ]);
    expect(track.deviceElevation).toBeNull();
    const run = runOf(file.rows[0]);
    expect(run.distanceKm).toBe(1.5);
    expect(run.seconds).toBe(600);
    expect(run.notes).toBe('Hill repeats');
  });

  it('reads the Cadence element as well, and gives each Activity its own track', () => {
    const at = (minutes: number) => new Date(WATCH_START.getTime() + minutes * 60_000);
    const activity = (start: Date) => ({
      start,
      cadence: 'element' as const,
      laps: [
        {
          metres: 100,
          seconds: 40,
          tracks: [[0, 20, 40].map((t) => ({ t, distance: t * 2.5, cadence: 80 + t / 20 }))],
        },
      ],
    });
    const rows = parseTcx('two.tcx', bytesOf(tcxFile([activity(at(0)), activity(at(60))]))).rows;
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const track = runOf(row).track!;
      expect(track.t).toEqual([0, 20, 40]);
      expect(track.cad).toEqual([160, 162, 164]);
      expect(track.d).toEqual([0, 50, 100]);
      expect(track.lat).toBeNull();
    }
    expect(runOf(rows[1]).start).toEqual(at(60));
  });
});

describe('GPX', () => {
  it('reads Garmin’s TrackPointExtension under any prefix, and pauses between segments', () => {
    for (const prefix of ['gpxtpx', 'ns3']) {
      const file = parseGpx('watch.gpx', bytesOf(watchGpx(prefix)));
      const track = trackOf(file);
      expect(track.t).toHaveLength(42);
      expect(track.t[20]).toBe(100);
      expect(track.t[21]).toBe(150);
      expect(track.t.at(-1)).toBe(250);
      expect(track.pauses).toEqual([[100, 150]]);
      expect(track.hr!.slice(0, 3)).toEqual([150, 155, 153]);
      expect(new Set(track.cad)).toEqual(new Set([180]));
      expect(track.ele![0]).toBe(210);
      expect(track.ele!.at(-1)).toBe(260);
      expect(track.lat![0]).toBe(46);
      expect(track.lat!.at(-1)).toBe(46.0041);
      // Distance along the positions, none across the gap between the segments.
      expect(track.d![20]).toBe(cm(20 * LEG));
      expect(track.d![21]).toBe(cm(20 * LEG));
      expect(track.d!.at(-1)).toBe(cm(40 * LEG));
      expect(track.laps).toEqual([]);
      const run = runOf(file.rows[0]);
      expect(run.seconds).toBe(200);
      expect(run.distanceKm).toBeCloseTo((40 * LEG) / 1000, 9);
    }
  });

  it('makes a pause of every gap between segments, and measures no distance across them', () => {
    const track = trackOf(parseGpx('segments.gpx', bytesOf(segmentedGpx())));
    expect(track.t).toHaveLength(18);
    expect(track.pauses).toEqual([
      [100, 220],
      [270, 390],
    ]);
    expect(track.d![10]).toBe(cm(10 * LEG));
    expect(track.d![16]).toBe(cm(15 * LEG));
    expect(track.d!.at(-1)).toBe(cm(15 * LEG));
    expect(track.t.at(-1)).toBe(390);
    // No extension but the default heart rate: cadence was never recorded.
    expect(track.cad).toBeNull();
  });

  it('skips a file without times, with no track', () => {
    expect(parseGpx('route.gpx', bytesOf(untimedGpx())).rows).toEqual([
      { source: 'route.gpx', skip: 'This file has no times.' },
    ]);
  });
});

describe('the common rules', () => {
  const build = (fill: (builder: TrackBuilder) => void) => {
    const builder = new TrackBuilder();
    fill(builder);
    const built = builder.build();
    if (built && !('track' in built)) throw new Error(built.note);
    return built;
  };

  it('keeps at most 200,000 samples: every k-th, k = ceil(n / 200,000), and the last', () => {
    const samples = (n: number) =>
      build((b) => {
        for (let i = 0; i < n; i++) b.add(i * 1000, NaN, NaN, i, NaN, NaN, NaN);
      })!;
    const exact = samples(200_000);
    expect(exact.track.t).toHaveLength(200_000);
    expect(exact.note).toBeUndefined();
    const thrice = samples(400_001);
    expect(thrice.track.t).toHaveLength(133_334 + 1);
    expect(thrice.track.t.slice(0, 2)).toEqual([0, 3]);
    expect(thrice.track.t.slice(-2)).toEqual([399_999, 400_000]);
    expect(thrice.track.d!.slice(-2)).toEqual([399_999, 400_000]);
    expect(thrice.note).toBe('The track had 400,001 samples: every 3rd one and the last are kept (at most 200,000).');
  });

  it('gives a sample without distance the one before (0 first), and never lets it decrease', () => {
    const track = build((b) => {
      [NaN, 5, NaN, 4, 7.123456, -1, 1e12].forEach((d, i) => b.add(i * 1000, NaN, NaN, d, NaN, NaN, NaN));
    })!.track;
    expect(track.d).toEqual([0, 5, 5, 5, 7.12, 7.12, 7.12]);
  });

  it('rounds to 1e-6 degrees, 1 cm, 0.1 m and the millisecond; null for a channel never recorded', () => {
    const track = build((b) => {
      b.add(1_000_000.4, 48.12345649, 2.00000051, 1.004999, 12.349, 150.4, 170.51);
      b.add(1_000_250.6, 48.1234565, -2.0000005, 2.005, -12.35, 151.6, NaN);
    })!.track;
    expect(track.t).toEqual([0, 0.25]);
    expect(track.lat).toEqual([48.123456, 48.123457]);
    expect(track.lon).toEqual([2.000001, -2]);
    expect(track.d).toEqual([1, 2.01]);
    expect(track.ele).toEqual([12.3, -12.3]);
    expect(track.hr).toEqual([150, 152]);
    // Cadence to 1/64 of a step, the resolution of FIT's fractional cadence doubled.
    expect(track.cad).toEqual([170 + 33 / 64, NaN]);
    const bare = build((b) => b.add(0, NaN, NaN, NaN, NaN, NaN, NaN))!.track;
    expect(bare).toEqual({
      t: [0],
      lat: null,
      lon: null,
      d: null,
      ele: null,
      hr: null,
      cad: null,
      laps: [],
      pauses: [],
      deviceElevation: null,
    });
    expect(build(() => undefined)).toBeUndefined();
  });

  it('makes a track storage keeps as it is, whatever numbers a file holds', () => {
    const anything = fc.oneof(
      fc.double(),
      fc.constantFrom(8.64e15, -8.64e15, Date.UTC(2024, 0, 1), 1e300),
      fc.integer({ min: -1000, max: 1000 }),
    );
    const time = fc.oneof(fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2024, 0, 2) }), anything);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(time, anything, anything, anything, anything, anything, anything), { maxLength: 40 }),
        fc.array(fc.tuple(time, anything, anything), { maxLength: 4 }),
        fc.array(fc.tuple(time, time), { maxLength: 4 }),
        fc.tuple(anything, anything),
        (samples, laps, pauses, [gain, loss]) => {
          const built = build((b) => {
            for (const sample of samples) b.add(...sample);
            for (const lap of laps) b.lap(...lap);
            for (const pause of pauses) b.pause(...pause);
            b.deviceElevation(gain, loss);
          });
          if (!built) return;
          expect(decodeTrack(encodeTrack(built.track))).toEqual(built.track);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps pauses within the track, in order, overlapping ones merged', () => {
    const track = build((b) => {
      for (let i = 0; i <= 10; i++) b.add(10_000 + i * 1000, NaN, NaN, NaN, NaN, NaN, NaN);
      b.pause(16_000, 18_000);
      b.pause(5_000, 11_000);
      b.pause(17_000, 19_500);
      b.pause(19_000, 30_000);
    })!.track;
    expect(track.pauses).toEqual([
      [0, 1],
      [6, 10],
    ]);
  });
});

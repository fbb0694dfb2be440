import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { analyseTrack, checkTrack } from './analyse.js';
import { heartRateSection } from './heart-rate.js';
import { makeTrack } from './test-tracks.js';

const nan = Number.NaN;

// 1.2 km in 6 minutes with a 20 s pause; positions, elevation, heart rate and cadence with gaps.
const track = makeTrack({
  t: [0, 60, 120, 180, 240, 300, 360],
  lat: [52.5, 52.5018, nan, 52.5054, 52.5072, 52.509, 52.5108],
  lon: [13.4, 13.4, nan, 13.4, 13.4, 13.4, 13.4],
  d: [0, 200, 400, 600, 800, 1000, 1200],
  ele: [30, 31, 33.5, 34, 31, 30.9, 30],
  hr: [130, 140, nan, 150, 160, 170, 175],
  cad: [170, 0, 172, nan, 174, 176, 178],
  laps: [
    { start: 0, distance: 1000, time: 280 },
    { start: 300, distance: 200, time: 60 },
  ],
  pauses: [[100, 120]],
});

describe('analyseTrack', () => {
  const analysis = analyseTrack(track);

  it('says what the track has and how many samples it keeps', () => {
    expect(analysis.samples).toBe(7);
    expect(analysis.has).toEqual({ distance: true, position: true, elevation: true, heart_rate: true, cadence: true });
  });

  it('bounds and draws the route, leaving out samples without a position', () => {
    expect(analysis.bounds).toEqual([
      [52.5, 13.4],
      [52.5108, 13.4],
    ]);
    // A straight line north: Douglas-Peucker keeps its ends.
    expect(polyline.decode(analysis.route!)).toEqual([
      [52.5, 13.4],
      [52.5108, 13.4],
    ]);
    expect(analysis.map_route).toBe(analysis.route);
  });

  it('gives laps in the API shape, pauses as recorded', () => {
    expect(analysis.laps).toEqual([
      { index: 1, start: 0, distance: 1000, time: 280 },
      { index: 2, start: 300, distance: 200, time: 60 },
    ]);
    expect(analysis.pauses).toEqual([[100, 120]]);
  });

  it('computes splits, best efforts and elevation', () => {
    expect(analysis.splits.km.map((split) => [split.distance, split.time])).toEqual([
      [1000, 280],
      [200, 60],
    ]);
    expect(analysis.splits.mi).toEqual([{ index: 1, distance: 1200, time: 340, elevation_change: 0, heart_rate: 150 }]);
    expect(analysis.best_efforts.map((effort) => [effort.key, effort.time])).toEqual([['1k', '00:05:00']]);
    // 30 -> 33.5 gains 3.5 m; 33.5 -> 30.0 loses 3.5 m (34 and 31 are within 3 m of the reference).
    expect(analysis.elevation).toEqual({ gain: 4, loss: 4, source: 'track' });
  });

  it("fills the entry's fields, weighted like the zones", () => {
    // Heart rate: 10 s each at 130, 140, 150, 160, 170 (10 s at 140 starts at 60 s, before the pause).
    // Cadence: samples over 0 only: 170, 172 (t = 120, its 10 s after the pause), 174, 176.
    expect(analysis.entry).toEqual({
      elevation_gain: 4,
      elevation_loss: 4,
      avg_heart_rate: 150,
      max_heart_rate: 175,
      avg_cadence: 173,
    });
  });

  it('keeps a heart-rate summary from which the section follows any max_used', () => {
    const section = heartRateSection(analysis.heart_rate_summary!, 200, 'profile');
    // max_used 200: zones from 100, 120, 140, 160, 180 bpm; 130 is in zone 2, 140 and 150 in 3, 160 and 170 in 4.
    expect(section.zones.map((zone) => zone.seconds)).toEqual([0, 10, 20, 20, 0]);
    expect(section.below_zones).toBe(0);
    expect(section.max).toBe(175);
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(analysis))).toEqual(analysis);
  });
});

describe('tracks that lack channels', () => {
  it('has nulls and empty lists where a channel is missing', () => {
    const analysis = analyseTrack(makeTrack({ t: [0, 1, 2], hr: [nan, nan, nan], cad: [0, 0, 0] }));
    expect(analysis).toEqual({
      samples: 3,
      has: { distance: false, position: false, elevation: false, heart_rate: false, cadence: true },
      bounds: null,
      route: null,
      map_route: null,
      series: null,
      pauses: [],
      laps: [],
      splits: { km: [], mi: [] },
      best_efforts: [],
      elevation: null,
      heart_rate_summary: null,
      entry: {
        elevation_gain: null,
        elevation_loss: null,
        avg_heart_rate: null,
        max_heart_rate: null,
        avg_cadence: null,
      },
    });
  });

  it("takes the device's elevation and the positions' distances alone", () => {
    const analysis = analyseTrack(
      makeTrack({ t: [0, 300], lat: [0, 0.009], lon: [0, 0], d: [0, 1000], deviceElevation: { gain: 12, loss: 11 } }),
    );
    expect(analysis.entry.elevation_gain).toBe(12);
    expect(analysis.elevation?.source).toBe('device');
    expect(analysis.series?.distance).toEqual([0, 1000]);
  });

  it('copes with an empty track', () => {
    const analysis = analyseTrack(makeTrack({ t: [], d: [], lat: [], lon: [], hr: [] }));
    expect(analysis.samples).toBe(0);
    expect(analysis.has.distance).toBe(false);
    expect(analysis.series).toBeNull();
    expect(analysis.route).toBeNull();
  });
});

describe('checkTrack', () => {
  it('refuses columns of different lengths, times that do not increase and distances that decrease', () => {
    expect(() => checkTrack(makeTrack({ t: [0, 1], hr: [100] }))).toThrow(
      "The track's hr has 1 samples where t has 2.",
    );
    expect(() => checkTrack(makeTrack({ t: [0, 1, 1] }))).toThrow(
      "The track's times must increase: sample 2 does not.",
    );
    expect(() => checkTrack(makeTrack({ t: [nan] }))).toThrow(RangeError);
    expect(() => checkTrack(makeTrack({ t: [0, 1], d: [5, 4] }))).toThrow('never decrease: sample 1');
    expect(() => checkTrack(makeTrack({ t: [0], lat: [1], lon: null }))).toThrow('lat without lon');
    expect(() => checkTrack(track)).not.toThrow();
  });
});

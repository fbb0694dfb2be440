import { describe, expect, it } from 'vitest';
import { ChannelAtDistance, SERIES_POINTS, seriesDistancesMm, seriesOf } from './series.js';
import { makeTrack } from './test-tracks.js';
import { axesOf, hasElevation, prepareTrack } from './timing.js';

const nan = Number.NaN;

describe('the series', () => {
  it('interpolates each channel between the samples around each point that have it', () => {
    // Stands at 100 m from 10 s to 20 s. Points at 0, 100, 200 and 300 m.
    const track = makeTrack({
      t: [0, 10, 20, 30],
      d: [0, 100, 100, 300],
      ele: [10, nan, 20, 30],
      hr: [nan, 120, 130, nan],
    });
    expect(seriesOf(prepareTrack(track))).toEqual({
      distance: [0, 100, 200, 300],
      // τ: the plateau's last sample at 100 m; halfway from 100 m to 300 m at 200 m.
      time: [0, 20, 25, 30],
      elevation: [10, 20, 25, 30],
      // Before the first heart rate, its value; after the last, the last.
      heart_rate: [120, 130, 130, 130],
      cadence: null,
    });
  });

  it('rounds distance, time and elevation to 0.1, heart rate and cadence to whole units', () => {
    const track = makeTrack({
      t: [0, 7, 10],
      d: [0, 33.33, 100],
      ele: [1, 1.13, 1.2],
      hr: [140, 141, 143],
      cad: [160, 171, 175],
    });
    const series = seriesOf(prepareTrack(track))!;
    expect(series.distance).toEqual([0, 50, 100]);
    // 16.67 m past sample 1 of the 66.67 m to sample 2: a quarter of the way.
    expect(series.time).toEqual([0, 7.8, 10]); // 7.75
    expect(series.elevation).toEqual([1, 1.1, 1.2]); // 1.1475
    expect(series.heart_rate).toEqual([140, 142, 143]); // 141.5
    expect(series.cadence).toEqual([160, 172, 175]); // 172
  });

  it('has at most 1,000 points, the first at d[0] and the last at d[last] exactly', () => {
    const t = Array.from({ length: 5000 }, (_, i) => i);
    const d = t.map((i) => 123.45 + i * 2.71);
    const series = seriesOf(prepareTrack(makeTrack({ t, d })))!;
    expect(series.distance).toHaveLength(SERIES_POINTS);
    expect(series.distance[0]).toBe(123.5);
    expect(series.distance[SERIES_POINTS - 1]).toBe(13_670.7);
    expect(series.time[SERIES_POINTS - 1]).toBe(4999);
    const { mm } = axesOf(makeTrack({ t, d }));
    expect(seriesDistancesMm(mm!).at(-1)).toBe(mm!.at(-1));
  });

  it('is null without distances, and one point for one sample', () => {
    expect(seriesOf(prepareTrack(makeTrack({ t: [0, 1], hr: [100, 120] })))).toBeNull();
    expect(seriesOf(prepareTrack(makeTrack({ t: [0], d: [5] })))).toEqual({
      distance: [5],
      time: [0],
      elevation: null,
      heart_rate: null,
      cadence: null,
    });
  });

  it('leaves out a channel that no sample has', () => {
    const series = seriesOf(prepareTrack(makeTrack({ t: [0, 1], d: [0, 3], ele: [nan, nan], hr: [0, 0] })))!;
    expect(series.elevation).toBeNull();
    expect(series.heart_rate).toBeNull();
  });
});

describe('a channel at a distance', () => {
  it('takes the one side that exists at the ends of the channel', () => {
    const { mm } = axesOf(makeTrack({ t: [0, 1, 2, 3], d: [0, 10, 20, 30] }));
    const channel = ChannelAtDistance.of([nan, 5, 7, nan], hasElevation, mm!)!;
    expect(channel.valueAt(0, 0)).toBe(5);
    expect(channel.valueAt(15_000, 1)).toBe(6);
    expect(channel.valueAt(25_000, 2)).toBe(7);
    expect(channel.valueAt(30_000, 3)).toBe(7);
    expect(ChannelAtDistance.of([nan, nan, nan, nan], hasElevation, mm!)).toBeNull();
  });
});

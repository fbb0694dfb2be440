import { describe, expect, it } from 'vitest';
import { splitsOf } from './splits.js';
import { makeTrack } from './test-tracks.js';
import { prepareTrack } from './timing.js';
import type { Track } from './types.js';

const nan = Number.NaN;

// 2.3 km: the runner stands at 1,000 m from 300 s to 360 s; a pause from 400 s to 430 s; every
// step is at least 10 s, so each sample but the last weighs 10 s.
const run: Track = makeTrack({
  t: [0, 150, 300, 360, 510, 750],
  d: [0, 500, 1000, 1000, 1500, 2300],
  ele: [10, 12, 13, nan, 20, 16],
  hr: [120, 130, 141, 150, 160, 170],
  pauses: [[400, 430]],
});

describe('kilometre splits', () => {
  const { km } = splitsOf(prepareTrack(run));

  it('cuts every 1,000 m from d[0] and ends with the partial last kilometre at its real length', () => {
    expect(km.map((split) => [split.index, split.distance])).toEqual([
      [1, 1000],
      [2, 1000],
      [3, 300],
    ]);
  });

  it('counts standing still at a boundary in the split that reaches it, and leaves pauses out', () => {
    // τ(1000) = 360 (the last sample at 1,000 m); τ(2000) = 510 + 500/800 x 240 = 660, less 30 s paused.
    expect(km.map((split) => split.time)).toEqual([360, 270, 90]);
  });

  it('takes the elevation at each end as the series does, between samples that have one', () => {
    // At 1,000 m: sample 2 (13 m; sample 3 has none); at 2,000 m: 20 + 0.625 x (16 - 20) = 17.5.
    expect(km.map((split) => split.elevation_change)).toEqual([3, 4.5, -1.5]);
  });

  it('averages heart rate over the samples with τ(start) <= t < τ(end), whole, null when none', () => {
    // Split 1: samples 0-2 (t < 360); split 2: samples 3-4; split 3: [660, 750) holds no sample.
    expect(km.map((split) => split.heart_rate)).toEqual([130, 155, null]);
  });
});

describe('mile splits', () => {
  it('cuts every 1,609.344 m', () => {
    const { mi } = splitsOf(prepareTrack(run));
    // τ(1609.344) = 510 + 109.344/800 x 240 = 542.8032, less the 30 s pause; the elevation there is
    // 20 - 109.344/800 x 4 = 19.45328; samples 0-4 come before it (mean 140.2), none after it.
    expect(mi).toEqual([
      { index: 1, distance: 1609.3, time: 512.8, elevation_change: 9.5, heart_rate: 140 },
      { index: 2, distance: 690.7, time: 207.2, elevation_change: -3.5, heart_rate: null },
    ]);
  });
});

describe('splits of tracks that lack something', () => {
  it('are both empty without distances', () => {
    expect(splitsOf(prepareTrack(makeTrack({ t: [0, 1, 2], hr: [100, 110, 120] })))).toEqual({ km: [], mi: [] });
  });

  it('are both empty when the runner never moved, and end exactly on a whole kilometre without an empty split', () => {
    expect(splitsOf(prepareTrack(makeTrack({ t: [0, 60], d: [5, 5] })))).toEqual({ km: [], mi: [] });
    const exact = splitsOf(prepareTrack(makeTrack({ t: [0, 200, 400], d: [250, 1250, 2250] })));
    expect(exact.km.map((split) => split.time)).toEqual([200, 200]);
  });

  it('give null elevation and heart rate without those channels', () => {
    const { km } = splitsOf(prepareTrack(makeTrack({ t: [0, 300], d: [0, 1000], ele: [nan, nan] })));
    expect(km).toEqual([{ index: 1, distance: 1000, time: 300, elevation_change: null, heart_rate: null }]);
  });
});

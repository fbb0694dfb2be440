import { describe, expect, it } from 'vitest';
import { makeTrack } from './test-tracks.js';
import {
  axesOf,
  firstSampleFromTau,
  hasHeartRate,
  PauseTimeline,
  prepareTrack,
  sampleAtDistance,
  sampleWeightsMs,
  tauMs,
  timerMs,
  weightedSum,
  wholeMean,
} from './timing.js';

// Runs from 10 m to 60 m in 10 s, stands at 60 m for 20 s, runs on to 110 m in 10 s.
const standing = makeTrack({ t: [0, 10, 20, 30, 40], d: [10, 60, 60, 60, 110] });

function tauSeconds(x: number): number {
  const { ms, mm } = axesOf(standing);
  const xMm = x * 1000;
  return tauMs({ ms, mm: mm! }, xMm, sampleAtDistance(mm!, xMm)) / 1000;
}

describe('τ(x), the time at which the track reaches x', () => {
  it('is t[0] before the first sample and t[last] from the last one on', () => {
    expect(tauSeconds(0)).toBe(0);
    expect(tauSeconds(10)).toBe(0);
    expect(tauSeconds(110)).toBe(40);
    expect(tauSeconds(500)).toBe(40);
  });

  it('interpolates between the last sample at or before x and the next one', () => {
    expect(tauSeconds(35)).toBe(5);
    expect(tauSeconds(85)).toBe(35);
    expect(tauSeconds(60.01)).toBeCloseTo(30.002, 9);
  });

  it('counts standing still before a point before it: τ of the plateau is its last sample', () => {
    expect(tauSeconds(60)).toBe(30);
    expect(tauSeconds(59.99)).toBeCloseTo(9.998, 9);
  });

  it("finds τ's j walking forward from a hint, and -1 before the first sample", () => {
    const { mm } = axesOf(standing);
    expect(sampleAtDistance(mm!, 5000)).toBe(-1);
    expect(sampleAtDistance(mm!, 60_000)).toBe(3);
    expect(sampleAtDistance(mm!, 60_000, 1)).toBe(3);
    expect(sampleAtDistance(mm!, 109_990, 3)).toBe(3);
    expect(sampleAtDistance(mm!, 110_000, 3)).toBe(4);
  });

  it('names the first sample at or after τ(x) without computing τ', () => {
    const { mm } = axesOf(standing);
    const first = (x: number) => firstSampleFromTau(mm!, x, sampleAtDistance(mm!, x));
    expect(first(5000)).toBe(0);
    expect(first(10_000)).toBe(0);
    expect(first(35_000)).toBe(1);
    expect(first(60_000)).toBe(3);
    expect(first(61_000)).toBe(4);
    expect(first(110_000)).toBe(4);
  });

  it('reads times to the millisecond and distances to the millimetre', () => {
    const { ms, mm } = axesOf(makeTrack({ t: [0, 1.001, 2.0005], d: [0.01, 1609.34, 3218.69] }));
    expect([...ms]).toEqual([0, 1001, 2001]);
    expect([...mm!]).toEqual([10, 1_609_340, 3_218_690]);
    expect(axesOf(makeTrack({ t: [0, 1] })).mm).toBeNull();
  });
});

describe('pauses and timer time', () => {
  const pauses = new PauseTimeline([
    [5, 15],
    [12, 20],
    [30, 32],
    [40, 40],
  ]);

  it('merges overlapping pauses and ignores empty ones', () => {
    expect(pauses.overlapMs(0, 100_000)).toBe(17_000);
    expect(pauses.pausesStartedBefore(100_000)).toBe(2);
  });

  it('takes the part of a stretch inside pauses, pauses cut at both ends', () => {
    expect(pauses.overlapMs(10_000, 31_000)).toBe(11_000);
    expect(pauses.overlapMs(20_000, 30_000)).toBe(0);
    expect(pauses.overlapMs(6000, 7000)).toBe(1000);
    expect(pauses.overlapMs(7000, 6000)).toBe(0);
    expect(timerMs(pauses, 0, 40_000)).toBe(23_000);
    expect(timerMs(pauses, 16_500, 31_500)).toBe(15_000 - 3500 - 1500);
  });

  it('tells which pause-separated part of the track an instant lies in', () => {
    expect(pauses.pausesStartedBefore(5000)).toBe(0);
    expect(pauses.pausesStartedBefore(5001)).toBe(1);
    expect(pauses.pausesStartedBefore(29_000)).toBe(1);
    expect(pauses.pausesStartedBefore(31_000)).toBe(2);
  });
});

describe('sample weights', () => {
  it('is min(t[i+1] - t[i], 10 s) less its part inside pauses; the last sample weighs nothing', () => {
    const track = makeTrack({
      t: [0, 4, 20, 21, 40],
      pauses: [
        [2, 3],
        [21.5, 25],
      ],
    });
    const { ms } = axesOf(track);
    expect([...sampleWeightsMs(ms, new PauseTimeline(track.pauses))]).toEqual([3000, 10_000, 1000, 6500, 0]);
  });

  it('weighs nothing inside a pause that covers the whole step', () => {
    const track = makeTrack({ t: [0, 5, 10], pauses: [[0, 10]] });
    expect([...prepareTrack(track).weightsMs]).toEqual([0, 0, 0]);
  });

  it('averages a channel over the samples that have it, halves up, null when nothing weighs', () => {
    const track = makeTrack({ t: [0, 4, 20, 21, 40], hr: [100, Number.NaN, 150, 0, 200], pauses: [[2, 3]] });
    const { weightsMs } = prepareTrack(track);
    const total = weightedSum(track.hr!, weightsMs, hasHeartRate);
    expect(total).toEqual({ sum: 100 * 3000 + 150 * 1000, weightMs: 4000 });
    expect(wholeMean(total)).toBe(113); // 112.5
    expect(wholeMean(weightedSum(track.hr!, weightsMs, hasHeartRate, 1, 2))).toBeNull();
    expect(wholeMean({ sum: 10.2345 * 1000 + 11 * 1000, weightMs: 2000 })).toBe(11); // 10.617...
  });
});

import { describe, expect, it } from 'vitest';
import {
  averageHeartRate,
  estimatedEffort,
  heartRateSection,
  heartRateSummary,
  observedMaxUsed,
  zoneOf,
  type HeartRateSummary,
} from './heart-rate.js';
import { makeTrack } from './test-tracks.js';
import { prepareTrack } from './timing.js';

const nan = Number.NaN;

describe('zones', () => {
  it('puts a heart rate in the highest zone whose share of max_used it reaches', () => {
    // max_used 190: zones from 95, 114, 133, 152, 171 bpm.
    expect([94, 95, 113, 114, 133, 151, 152, 170, 171, 230].map((bpm) => zoneOf(bpm, 190))).toEqual([
      0, 1, 1, 2, 3, 3, 4, 4, 5, 5,
    ]);
  });

  it('compares in integers where a threshold falls between two beats', () => {
    // 50% of 185 is 92.5: 92 is below the zones, 93 in zone 1; 90% is 166.5.
    expect([92, 93, 166, 167].map((bpm) => zoneOf(bpm, 185))).toEqual([0, 1, 4, 5]);
  });
});

// 1 minute at 90 bpm, 2 at 100, 1 at 140, half a minute at 170; the highest sample 180 weighs nothing.
const summary: HeartRateSummary = {
  max: 180,
  weights: [
    [90, 60_000],
    [100, 120_000],
    [140, 60_000],
    [170, 30_000],
  ],
};

describe('the heart-rate section', () => {
  it('draws zones, their bpm ranges and seconds, the average and TRIMP for a max_used', () => {
    expect(heartRateSection(summary, 185, 'profile')).toEqual({
      avg: 114, // 30,900 / 270
      max: 180,
      max_used: 185,
      max_source: 'profile',
      zones: [
        { zone: 1, from_bpm: 93, to_bpm: 110, seconds: 120 },
        { zone: 2, from_bpm: 111, to_bpm: 129, seconds: 0 },
        { zone: 3, from_bpm: 130, to_bpm: 147, seconds: 60 },
        { zone: 4, from_bpm: 148, to_bpm: 166, seconds: 0 },
        { zone: 5, from_bpm: 167, to_bpm: null, seconds: 30 },
      ],
      below_zones: 60,
      trimp: 7.5, // 2 x 1 + 1 x 3 + 0.5 x 5
    });
  });

  it('moves samples between zones when max_used changes, from the same summary', () => {
    const section = heartRateSection(summary, 150, 'observed');
    // max_used 150: zones from 75, 90, 105, 120, 135 bpm.
    expect(section.zones.map((zone) => zone.seconds)).toEqual([0, 180, 0, 0, 90]);
    expect(section.below_zones).toBe(0);
    expect(section.trimp).toBe(13.5); // 3 x 2 + 1.5 x 5
    expect(section.max_source).toBe('observed');
  });

  it('refuses a max_used that is not a positive whole bpm', () => {
    expect(() => heartRateSection(summary, 0, 'profile')).toThrow(RangeError);
    expect(() => heartRateSection(summary, 180.5, 'profile')).toThrow(RangeError);
  });

  it('caps an observed maximum at 220', () => {
    expect(observedMaxUsed(231)).toBe(220);
    expect(observedMaxUsed(187.6)).toBe(188);
  });
});

describe('the estimated effort (§15)', () => {
  it('is the weighted mean of 1 below the zones and 2, 3, 5, 7, 9 in zones 1-5, at least 1', () => {
    // (60 x 1 + 120 x 2 + 60 x 5 + 30 x 9) / 270 = 3.2
    expect(estimatedEffort(summary, 185)).toBe(3);
    expect(estimatedEffort({ max: 60, weights: [[60, 1000]] }, 200)).toBe(1);
    expect(estimatedEffort({ max: 200, weights: [[200, 1000]] }, 200)).toBe(9);
    // 2.5 rounds up: half the time below the zones, half in zone 2.
    expect(
      estimatedEffort(
        {
          max: 130,
          weights: [
            [60, 1000],
            [130, 1000],
          ],
        },
        200,
      ),
    ).toBe(2);
  });

  it('is null when nothing weighs', () => {
    expect(estimatedEffort({ max: 150, weights: [] }, 190)).toBeNull();
  });
});

describe('the summary of a track', () => {
  it('weighs each distinct heart rate, skips samples without one, and keeps the highest sample', () => {
    const track = makeTrack({ t: [0, 5, 10, 30, 35], hr: [100, nan, 100, 0, 150] });
    const summarised = heartRateSummary(prepareTrack(track))!;
    // 5 s + 10 s at 100 bpm; the last sample (150) weighs nothing but is the highest.
    expect(summarised).toEqual({ max: 150, weights: [[100, 15_000]] });
    expect(averageHeartRate(summarised)).toBe(100);
    expect(JSON.parse(JSON.stringify(summarised))).toEqual(summarised);
  });

  it('sorts values and is null without heart rate', () => {
    const track = makeTrack({ t: [0, 1, 2, 3], hr: [150, 140, 150, 141] });
    expect(heartRateSummary(prepareTrack(track))).toEqual({
      max: 150,
      weights: [
        [140, 1000],
        [150, 2000],
      ],
    });
    expect(heartRateSummary(prepareTrack(makeTrack({ t: [0, 1], hr: [nan, 0] })))).toBeNull();
    expect(heartRateSummary(prepareTrack(makeTrack({ t: [0, 1] })))).toBeNull();
  });

  it('has no average when only the last sample has heart rate', () => {
    const summarised = heartRateSummary(prepareTrack(makeTrack({ t: [0, 1], hr: [nan, 140] })))!;
    expect(summarised).toEqual({ max: 140, weights: [] });
    expect(averageHeartRate(summarised)).toBeNull();
    expect(heartRateSection(summarised, 190, 'profile').avg).toBeNull();
  });
});

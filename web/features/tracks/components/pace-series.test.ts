import { describe, expect, it } from 'vitest';
import { loopTrack } from '../../../../core/tracks/test-tracks.js';
import { analysedTrack } from '../../../test/track-fixtures';
import { paceAxisRange, paceWindowHalfWidth, pausedSecondsAt, smoothedPace } from './pace-series';

/** A run at a steady 5:00 min/km (every 10 m in 3 s), optionally stopped for a minute at 500 m. */
function steadySeries(stopAt500: boolean) {
  const distance = Array.from({ length: 101 }, (_, k) => k * 10);
  const time = distance.map((metres) => (metres * 3) / 10 + (stopAt500 && metres > 500 ? 60 : 0));
  return { distance, time };
}

describe('pausedSecondsAt', () => {
  it('adds the pauses that ended before each time and the part of the one under way', () => {
    expect(
      pausedSecondsAt(
        [0, 5, 10, 20, 30],
        [
          [4, 8],
          [15, 25],
        ],
      ),
    ).toEqual([0, 1, 4, 9, 14]);
    expect(pausedSecondsAt([0, 10], [])).toEqual([0, 0]);
  });
});

describe('smoothedPace', () => {
  it('is the steady pace all along a steady run', () => {
    for (const pace of smoothedPace(steadySeries(false), [])) expect(pace).toBeCloseTo(5, 9);
  });

  it('leaves out a stop with the watch paused, and shows one with the watch running', () => {
    const series = steadySeries(true);
    const paused = smoothedPace(series, [[150, 210]]);
    for (const pace of paused) expect(pace).toBeCloseTo(5, 9);
    const running = smoothedPace(series, []);
    // The window round 500 m spans 200 m: 60 s more over 0.2 km is 5 min/km slower.
    expect(running[50]).toBeCloseTo(10, 9);
    expect(running[0]).toBeCloseTo(5, 9);
  });

  it('averages over about 200 m, whatever the length of the run', () => {
    expect(paceWindowHalfWidth(Array.from({ length: 1000 }, (_, k) => k * 10.01))).toBe(10);
    expect(paceWindowHalfWidth(Array.from({ length: 1000 }, (_, k) => k * 42.2))).toBe(2);
    // A series 300 m apart still compares neighbours.
    expect(paceWindowHalfWidth([0, 300, 600])).toBe(1);
    expect(paceWindowHalfWidth([5])).toBe(0);
  });

  it('has no pace where the window covers no distance', () => {
    expect(smoothedPace({ distance: [100, 100, 100], time: [0, 5, 10] }, [])).toEqual([null, null, null]);
  });

  it('reads the pace of an analysed run', () => {
    const track = analysedTrack(loopTrack({ seconds: 1200, metresPerSecond: 3.2 }));
    const paces = smoothedPace(track.series!, track.pauses);
    // 3.2 m/s is 5.208 min/km; the series rounds its distances and times to 0.1.
    for (const pace of paces) expect(pace!).toBeCloseTo(1000 / 3.2 / 60, 1);
  });
});

describe('paceAxisRange', () => {
  it('keeps a brief stop from flattening the rest of the run', () => {
    const paces: (number | null)[] = Array.from({ length: 100 }, (_, k) => 5 + (k % 10) / 10);
    paces[40] = 30;
    paces[41] = null;
    const range = paceAxisRange(paces)!;
    expect(range.max).toBeLessThan(7);
    expect(range.min).toBeGreaterThan(4);
    expect(range.min).toBeLessThanOrEqual(5);
    expect(range.max).toBeGreaterThanOrEqual(5.9);
    // Ends on whole tenths: 5.0 - 0.1 and 5.9 + 0.1.
    expect(range).toEqual({ min: 4.9, max: 6 });
    expect(paceAxisRange([null, null])).toBeNull();
  });

  it('stops the slow end at three times the median pace when long stops are many', () => {
    // A hike: 90 points around 20 min/km, 10 standing at a hut with the watch running.
    const paces = Array.from({ length: 100 }, (_, k) => (k < 90 ? 20 + (k % 5) : 200 + k));
    const range = paceAxisRange(paces)!;
    expect(range.max).toBeLessThan(75); // 3 x 22, widened by a tenth of the spread; not 300
    expect(range.max).toBeGreaterThanOrEqual(24);
    expect(range.min).toBeLessThanOrEqual(20);
  });
});

import { describe, expect, it } from 'vitest';
import type { Track } from '../tracks/types.js';
import { greatCircleMetres, segmentPath } from './geometry.js';
import { prepareSegment, prepareSegmentRun, segmentEfforts, visitsOf } from './segments.js';
import { circle, offset, trackAlong, type Corners } from './test-lines.js';

/** The segment: 500 m to 1,500 m of a straight 2 km run east along a street. */
const STREET: Corners = [
  [0, 0],
  [2000, 0],
];
const marked = trackAlong(STREET);
const segment = prepareSegment(segmentPath(marked, 500, 1500)!);
const [startLat, startLon] = offset(500, 0);
const [endLat, endLon] = offset(1500, 0);

const effortsOf = (track: Track) => segmentEfforts(segment, prepareSegmentRun(track)!);

/**
 * The efforts as computed by hand, independently of segments.ts: stretches of consecutive samples
 * within 25 m of each end (great circle), each timed at its nearest sample; each stretch of the
 * first point paired with the next stretch of the last point; the timer time from the samples' t
 * less each pause's overlap, in milliseconds, then whole seconds halves up.
 */
function effortsByHand(track: Track, first = [startLat, startLon], last = [endLat, endLon]): number[] {
  const stretches = ([lat, lon]: number[]) => {
    const nearest: number[] = [];
    let best = -1;
    let bestMetres = Infinity;
    for (let i = 0; i <= track.t.length; i++) {
      const metres = i < track.t.length ? greatCircleMetres(track.lat![i]!, track.lon![i]!, lat!, lon!) : Infinity;
      if (metres <= 25 && metres < bestMetres) [best, bestMetres] = [i, metres];
      if (metres > 25 && best >= 0) {
        nearest.push(best);
        [best, bestMetres] = [-1, Infinity];
      }
    }
    return nearest;
  };
  const starts = stretches(first);
  const ends = stretches(last);
  const seconds: number[] = [];
  let after = -1;
  for (const start of starts) {
    if (start < after) continue;
    const end = ends.find((e) => e > start);
    if (end === undefined) break;
    const [from, to] = [track.t[start]!, track.t[end]!];
    let paused = 0;
    for (const [a, b] of track.pauses) paused += Math.max(0, Math.min(b, to) - Math.max(a, from));
    const timerMs = Math.round((to - from - paused) * 1000);
    seconds.push(Math.floor((timerMs + 500) / 1000));
    after = end;
  }
  return seconds;
}

describe('segment efforts (§22)', () => {
  it('times the run it was marked on once, from the samples nearest its ends', () => {
    const efforts = effortsOf(marked);
    expect(efforts).toHaveLength(1);
    // 3 m a second: the samples at 501 m (t = 167) and 1,500 m (t = 500).
    expect(efforts[0]).toEqual({
      startSample: 167,
      endSample: 500,
      elapsedMs: 333_000,
      timerMs: 333_000,
      seconds: 333,
    });
    expect(efforts.map((e) => e.seconds)).toEqual(effortsByHand(marked));
  });

  it('gives two efforts to a run through the gate twice, each timed as by hand', () => {
    // Along the street, back along the next street north (100 m away), and along the street again.
    const twice = trackAlong(
      [
        [0, 0],
        [2000, 0],
        [2000, 100],
        [0, 100],
        [0, 0],
        [2000, 0],
      ],
      { noise: 1.5, seed: 3, speed: 3.3 },
    );
    const efforts = effortsOf(twice);
    expect(efforts).toHaveLength(2);
    expect(efforts.map((e) => e.seconds)).toEqual(effortsByHand(twice));
    expect(efforts[0]!.endSample).toBeLessThan(efforts[1]!.startSample);
  });

  it('gives no effort for a visit that starts inside the segment, but one for the whole pass after it', () => {
    const inside = trackAlong([
      [800, 0],
      [2000, 0],
      [2000, 100],
      [0, 100],
      [0, 0],
      [2000, 0],
    ]);
    expect(visitsOf(prepareSegmentRun(inside)!.line, endLat, endLon)).toHaveLength(2);
    const efforts = effortsOf(inside);
    expect(efforts).toHaveLength(1);
    expect(efforts.map((e) => e.seconds)).toEqual(effortsByHand(inside));
    expect(inside.d![efforts[0]!.startSample]).toBeGreaterThan(1200 + 200 + 2000 + 100);
  });

  it('gives no effort to a run along the segment the other way', () => {
    expect(effortsOf(trackAlong([...STREET].reverse() as Corners))).toEqual([]);
  });

  it('leaves a pause inside the segment out of the time, halves rounded up', () => {
    const paused = trackAlong(STREET, { pause: { atM: 1000, seconds: 120 } });
    const [effort] = effortsOf(paused);
    expect(effort).toMatchObject({ elapsedMs: 453_000, timerMs: 333_000, seconds: 333 });
    expect([effort!.seconds]).toEqual(effortsByHand(paused));
    // Half a second paused between two samples (the watch stopped and started within the second).
    const half = { ...marked, pauses: [[334.2, 334.7]] as [number, number][] };
    expect(effortsOf(half)[0]).toMatchObject({ elapsedMs: 333_000, timerMs: 332_500, seconds: 333 });
    expect(effortsByHand(half)).toEqual([333]);
  });

  it('gives a loop segment run lap after lap one effort a lap', () => {
    const radius = 400 / (2 * Math.PI);
    const laps = trackAlong(circle(radius, { turns: 3 }));
    // Marked from the start to 10 m short of it: its last point 10 m from its first.
    const path = segmentPath(laps, 0, 390)!;
    const efforts = segmentEfforts(prepareSegment(path), prepareSegmentRun(laps)!);
    expect(efforts).toHaveLength(3);
    const ends = [0, path.lat.length - 1].map((i) => [path.lat[i]!, path.lon[i]!]);
    expect(efforts.map((e) => e.seconds)).toEqual(effortsByHand(laps, ends[0], ends[1]));
    for (const effort of efforts) expect(Math.abs(effort.seconds - 390 / 3)).toBeLessThanOrEqual(1);
  });

  it('times a runner who circled the start before setting off from when they set off', () => {
    // Out 600 m past the start and back to the far side of it, then the whole street.
    const circled = trackAlong([
      [480, 0],
      [600, 0],
      [600, 60],
      [400, 60],
      [400, 0],
      [2000, 0],
    ]);
    const [effort] = effortsOf(circled);
    const d = circled.d!;
    // Timed from the second pass by the start (at 500 m of the street), not the first.
    expect(d[effort!.startSample]!).toBeGreaterThan(120 + 60 + 200 + 60);
    expect(effort!.seconds).toBeCloseTo(1000 / 3, -0.5);
  });
});

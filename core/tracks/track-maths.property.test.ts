/**
 * The maths of core/tracks against brute-force oracles written here from CONTRACT.md §14-§15 alone
 * (none of the modules' helpers): random tracks with uneven sampling, standing still, GPS jumps,
 * pauses and gaps in every channel.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STANDARD_DISTANCES } from '../insights.js';
import { bestEffortsOf } from './best-efforts.js';
import { elevationFromSamples } from './elevation.js';
import { estimatedEffort, heartRateSection, heartRateSummary } from './heart-rate.js';
import { rankBySignificance, simplifyToBudget } from './route.js';
import { seriesOf } from './series.js';
import { splitsOf } from './splits.js';
import { arbitraryTrack } from './test-tracks.js';
import { PauseTimeline, prepareTrack } from './timing.js';
import type { Track } from './types.js';

const RUNS = { numRuns: 150 };

// ---- The oracle's own reading of a track, in whole ms and mm (the precision a track keeps) ----

interface Plain {
  ms: number[];
  mm: number[];
  pauses: [number, number][];
  n: number;
}

function plain(track: Track): Plain {
  return {
    ms: track.t.map((s) => Math.round(s * 1000)),
    mm: (track.d ?? []).map((m) => Math.round(m * 1000)),
    pauses: track.pauses.map(([a, b]) => [Math.round(a * 1000), Math.round(b * 1000)]),
    n: track.t.length,
  };
}

/** The last sample with d <= x, found by looking at every sample (-1 when none). */
function lastAtOrBefore(mm: number[], x: number, from = 0, to = mm.length - 1): number {
  let found = -1;
  for (let i = from; i <= to; i++) if (mm[i]! <= x) found = i;
  return found;
}

function tau({ ms, mm, n }: Plain, x: number): number {
  const j = lastAtOrBefore(mm, x);
  if (j < 0) return ms[0]!;
  if (j === n - 1) return ms[j]!;
  return ms[j]! + ((x - mm[j]!) / (mm[j + 1]! - mm[j]!)) * (ms[j + 1]! - ms[j]!);
}

function pausedWithin(pauses: [number, number][], a: number, b: number): number {
  let paused = 0;
  for (const [from, to] of pauses) paused += Math.max(0, Math.min(b, to) - Math.max(a, from));
  return paused;
}

function weightOf(p: Plain, i: number): number {
  if (i >= p.n - 1) return 0;
  const w = Math.min(p.ms[i + 1]! - p.ms[i]!, 10_000);
  return w - pausedWithin(p.pauses, p.ms[i]!, p.ms[i]! + w);
}

/** A channel at x: linear in distance between the samples around τ's j that have it. */
function channelAt(p: Plain, values: number[], has: (v: number) => boolean, x: number): number {
  const j = lastAtOrBefore(p.mm, x);
  let lo = -1;
  for (let i = 0; i <= j; i++) if (has(values[i]!)) lo = i;
  let hi = -1;
  for (let i = p.n - 1; i > j; i--) if (has(values[i]!)) hi = i;
  if (lo < 0) return values[hi]!;
  if (hi < 0) return values[lo]!;
  return values[lo]! + ((x - p.mm[lo]!) / (p.mm[hi]! - p.mm[lo]!)) * (values[hi]! - values[lo]!);
}

const heartBeats = (v: number) => v > 0;

function expectNear(actual: number | null, expected: number | null, within: number) {
  if (expected === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(within + 1e-6);
}

// ---- Best efforts: every end sample i and its τ start, O(n^2) ----

function bestEffortsOracle(track: Track) {
  const p = plain(track);
  const pieces: [number, number][] = [];
  let first = 0;
  for (let i = 1; i < p.n; i++) {
    // Faster than 50 km/h: mm/ms is m/s, and 50 km/h is 500/36 m/s.
    if ((p.mm[i]! - p.mm[i - 1]!) * 36 > (p.ms[i]! - p.ms[i - 1]!) * 500) {
      pieces.push([first, i - 1]);
      first = i;
    }
  }
  pieces.push([first, p.n - 1]);
  const rows = [];
  for (const distance of STANDARD_DISTANCES) {
    let best: { ms: bigint; start: number } | null = null;
    for (const [a, b] of pieces) {
      for (let i = a; i <= b; i++) {
        const x = p.mm[i]! - distance.mm;
        if (x < p.mm[a]!) continue;
        const j = lastAtOrBefore(p.mm, x, a, b);
        // t[i] - τ(x) = ((t_i - t_j)(d_j+1 - d_j) - (x - d_j)(t_j+1 - t_j)) / (d_j+1 - d_j), to the ms, halves up.
        const num = BigInt(
          (p.ms[i]! - p.ms[j]!) * (p.mm[j + 1]! - p.mm[j]!) - (x - p.mm[j]!) * (p.ms[j + 1]! - p.ms[j]!),
        );
        const den = BigInt(p.mm[j + 1]! - p.mm[j]!);
        const rounded = (2n * num + den) / (2n * den);
        if (!best || rounded < best.ms || (rounded === best.ms && x < best.start)) best = { ms: rounded, start: x };
      }
    }
    if (!best) continue;
    const whole = Number((best.ms + 500n) / 1000n);
    const hms = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
    rows.push({
      key: distance.key,
      distance: distance.km,
      time: hms.map((part) => String(part).padStart(2, '0')).join(':'),
      exactPace: whole / 60 / distance.km,
      start: Math.round((best.start - p.mm[0]!) / 1000),
      seconds: Number(best.ms) / 1000,
    });
  }
  return rows;
}

describe('best efforts against every stretch', () => {
  it('find the fastest stretch of each distance within a piece, as the brute force does', () => {
    fc.assert(
      fc.property(arbitraryTrack(), (track) => {
        const efforts = bestEffortsOf(prepareTrack(track));
        const oracle = bestEffortsOracle(track);
        expect(
          efforts.map(({ key, distance, time, start, seconds }) => ({ key, distance, time, start, seconds })),
        ).toEqual(oracle.map(({ key, distance, time, start, seconds }) => ({ key, distance, time, start, seconds })));
        efforts.forEach((effort, k) => expectNear(effort.pace, oracle[k]!.exactPace, 0.005));
      }),
      RUNS,
    );
  });
});

// ---- Splits, from the definitions ----

describe('splits against their definition', () => {
  it('have the lengths, timer times, elevation changes and heart rates of §14', () => {
    fc.assert(
      fc.property(arbitraryTrack(), (track) => {
        const p = plain(track);
        const splits = splitsOf(prepareTrack(track));
        for (const [unit, lengthMm] of [
          ['km', 1_000_000],
          ['mi', 1_609_344],
        ] as const) {
          const total = p.mm[p.n - 1]! - p.mm[0]!;
          const whole = Math.floor(total / lengthMm);
          const ends = Array.from({ length: whole + 1 }, (_, k) => p.mm[0]! + k * lengthMm);
          if (total > whole * lengthMm) ends.push(p.mm[p.n - 1]!);
          expect(splits[unit]).toHaveLength(ends.length - 1);
          splits[unit].forEach((split, k) => {
            const [start, end] = [ends[k]!, ends[k + 1]!];
            const [from, to] = [tau(p, start), tau(p, end)];
            expect(split.index).toBe(k + 1);
            expectNear(split.distance, (end - start) / 1000, 0.05);
            expectNear(split.time, (to - from - pausedWithin(p.pauses, from, to)) / 1000, 0.05);
            const ele = track.ele!;
            const hasEle = ele.some(Number.isFinite);
            expectNear(
              split.elevation_change,
              hasEle ? channelAt(p, ele, Number.isFinite, end) - channelAt(p, ele, Number.isFinite, start) : null,
              0.05,
            );
            let sum = 0;
            let weight = 0;
            for (let i = 0; i < p.n; i++) {
              if (p.ms[i]! >= from && p.ms[i]! < to && heartBeats(track.hr![i]!)) {
                sum += weightOf(p, i) * track.hr![i]!;
                weight += weightOf(p, i);
              }
            }
            expectNear(split.heart_rate, weight > 0 ? sum / weight : null, 0.5);
          });
        }
      }),
      RUNS,
    );
  });
});

// ---- Series ----

describe('the series against interpolation by hand', () => {
  it('puts N points evenly from d[0] to d[last] with τ and each channel between its neighbours', () => {
    fc.assert(
      fc.property(arbitraryTrack(), (track) => {
        const p = plain(track);
        const series = seriesOf(prepareTrack(track))!;
        const span = p.mm[p.n - 1]! - p.mm[0]!;
        const xs = Array.from({ length: p.n }, (_, k) => (p.n === 1 ? p.mm[0]! : p.mm[0]! + (k * span) / (p.n - 1)));
        expect(series.distance).toHaveLength(p.n);
        xs.forEach((x, k) => {
          expectNear(series.distance[k]!, x / 1000, 0.05);
          expectNear(series.time[k]!, tau(p, x) / 1000, 0.05);
          for (const [name, values, has, roundedTo] of [
            ['elevation', track.ele!, Number.isFinite, 0.1],
            ['heart_rate', track.hr!, heartBeats, 1],
            ['cadence', track.cad!, Number.isFinite, 1],
          ] as const) {
            const channel = series[name];
            if (!values.some(has)) expect(channel).toBeNull();
            else expectNear(channel![k]!, channelAt(p, values, has, x), roundedTo / 2);
          }
        });
      }),
      RUNS,
    );
  });
});

// ---- Elevation ----

describe('elevation against the threshold rule', () => {
  it('counts gain and loss in whole decimetres with a 3 m threshold', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -50, max: 900 }), fc.constant(Number.NaN)), { maxLength: 60 }),
        (dms) => {
          const ele = dms.map((dm) => dm / 10);
          const values = dms.filter((dm) => !Number.isNaN(dm));
          const result = elevationFromSamples(ele);
          if (values.length === 0) {
            expect(result).toBeNull();
            return;
          }
          let [r, gain, loss] = [values[0]!, 0, 0];
          for (const e of values.slice(1)) {
            if (e - r >= 30) [gain, r] = [gain + e - r, e];
            else if (r - e >= 30) [loss, r] = [loss + r - e, e];
          }
          expect(result).toEqual({ gain: Math.floor(gain / 10 + 0.5), loss: Math.floor(loss / 10 + 0.5) });
        },
      ),
      RUNS,
    );
  });
});

// ---- Heart rate ----

describe('heart-rate zones against the samples', () => {
  it('weigh each sample into its zone, average, TRIMP and estimated effort for any max_used', () => {
    fc.assert(
      fc.property(arbitraryTrack(), fc.integer({ min: 100, max: 250 }), (track, maxUsed) => {
        const p = plain(track);
        const hr = track.hr!;
        const summary = heartRateSummary(prepareTrack(track));
        if (!hr.some(heartBeats)) {
          expect(summary).toBeNull();
          return;
        }
        const seconds = [0, 0, 0, 0, 0, 0];
        let [sum, total, max] = [0, 0, 0];
        hr.forEach((bpm, i) => {
          if (!heartBeats(bpm)) return;
          max = Math.max(max, bpm);
          let zone = 0;
          for (const [k, percent] of [50, 60, 70, 80, 90].entries()) if (100 * bpm >= percent * maxUsed) zone = k + 1;
          const w = weightOf(p, i) / 1000;
          seconds[zone]! += w;
          sum += w * bpm;
          total += w;
        });
        const section = heartRateSection(summary!, maxUsed, 'profile');
        expect(section.max).toBe(max);
        section.zones.forEach((zone, k) => expect(zone.seconds).toBeCloseTo(seconds[k + 1]!, 6));
        expect(section.below_zones).toBeCloseTo(seconds[0]!, 6);
        expect(section.zones.map((zone) => [zone.from_bpm, zone.to_bpm])).toEqual(
          [50, 60, 70, 80, 90].map((percent, k, all) => [
            Math.ceil((percent * maxUsed) / 100 - 1e-9),
            k < 4 ? Math.ceil((all[k + 1]! * maxUsed) / 100 - 1e-9) - 1 : null,
          ]),
        );
        expectNear(
          section.trimp,
          seconds.reduce((acc, s, zone) => acc + (s / 60) * zone, 0),
          0.05,
        );
        expectNear(section.avg, total > 0 ? sum / total : null, 0.5);
        const effortWeights = [1, 2, 3, 5, 7, 9];
        const effort = total > 0 ? seconds.reduce((acc, s, zone) => acc + s * effortWeights[zone]!, 0) / total : null;
        expectNear(estimatedEffort(summary!, maxUsed), effort === null ? null : Math.max(1, effort), 0.5);
      }),
      RUNS,
    );
  });
});

// ---- Pauses ----

describe('pause overlaps against counting milliseconds', () => {
  it('take the part of any stretch inside the union of the pauses', () => {
    const pause = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 40 }));
    fc.assert(
      fc.property(
        fc.array(pause, { maxLength: 6 }),
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 0, max: 250 }),
        (raw, a, b) => {
          const pauses = raw.map(([from, length]) => [from / 1000, (from + length) / 1000] as [number, number]);
          let counted = 0;
          for (let msInstant = a; msInstant < b; msInstant++) {
            if (raw.some(([from, length]) => msInstant >= from && msInstant < from + length)) counted++;
          }
          expect(new PauseTimeline(pauses).overlapMs(a, b)).toBe(counted);
        },
      ),
      RUNS,
    );
  });
});

// ---- Douglas-Peucker ----

/** Classic recursive Douglas-Peucker at one tolerance (distance to the chord's segment). */
function douglasPeucker(points: [number, number][], tolerance: number): number[] {
  const keep = new Set([0, points.length - 1]);
  const distance = ([px, py]: [number, number], [ax, ay]: [number, number], [bx, by]: [number, number]) => {
    const [dx, dy] = [bx - ax, by - ay];
    const length2 = dx * dx + dy * dy;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2));
    return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
  };
  const split = (a: number, b: number) => {
    let [far, farthest] = [-1, -1];
    for (let i = a + 1; i < b; i++) {
      const d = distance(points[i]!, points[a]!, points[b]!);
      if (d > farthest) [far, farthest] = [i, d];
    }
    if (far < 0 || farthest <= tolerance) return;
    keep.add(far);
    split(a, far);
    split(far, b);
  };
  split(0, points.length - 1);
  return [...keep].sort((x, y) => x - y);
}

describe('route simplification against recursive Douglas-Peucker', () => {
  it('keeps what Douglas-Peucker keeps at the smallest 2 x 2^k that fits the budget', () => {
    const coordinate = fc.double({ min: -300, max: 300, noNaN: true });
    const point = fc.oneof(fc.tuple(coordinate, coordinate), fc.constant(null)); // null: stand still
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 60 }), fc.integer({ min: 2, max: 30 }), (raw, budget) => {
        const points: [number, number][] = [];
        for (const item of raw) points.push(item ?? points[points.length - 1] ?? [0, 0]);
        let k = 0;
        while (douglasPeucker(points, 2 * 2 ** k).length > budget) k++;
        const plane = { x: Float64Array.from(points, ([x]) => x), y: Float64Array.from(points, ([, y]) => y) };
        expect(simplifyToBudget(rankBySignificance(plane, 4, budget - 1), budget)).toEqual({
          k,
          kept: douglasPeucker(points, 2 * 2 ** k),
        });
      }),
      RUNS,
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineOfTrack, type Line } from './geometry.js';
import {
  byDateThenId,
  extendRoutes,
  groupRoutes,
  pointsNear,
  prepareRouteRun,
  routesMatch,
  type RouteRun,
  type RouteState,
} from './routes.js';
import { circle, trackAlong, type Corners } from './test-lines.js';

/** A 5 km loop (radius 796 m) from angle 0 anticlockwise. */
const LOOP = circle(5000 / (2 * Math.PI));
const RADIUS = 5000 / (2 * Math.PI);

/** The loop, but over `share` of its length (centred at the far side) 80 m further out. */
function detour(share: number): Corners {
  const [from, to] = [Math.PI * (1 - share), Math.PI * (1 + share)];
  return LOOP.map(([x, y]) => {
    const angle = Math.atan2(y, x) < 0 ? Math.atan2(y, x) + 2 * Math.PI : Math.atan2(y, x);
    const r = angle >= from && angle <= to ? RADIUS + 80 : RADIUS;
    return [r * Math.cos(angle), r * Math.sin(angle)];
  });
}

let nextId = 1;
function run(corners: Corners, opts: { seed?: number; date?: string; distanceM?: number } = {}): RouteRun {
  const line = lineOfTrack(trackAlong(corners, { noise: 4, seed: opts.seed ?? 1 }))!;
  return { id: nextId++, date: opts.date ?? '2024-05-01', distanceM: opts.distanceM ?? line.length, line };
}
const match = (a: RouteRun, b: RouteRun) => routesMatch(prepareRouteRun(a), prepareRouteRun(b));

describe('two runs on one route (§22)', () => {
  const base = run(LOOP, { seed: 1 });

  it('match when they ran the same loop, each with its own GPS noise, whichever is asked first', () => {
    const again = run(LOOP, { seed: 2 });
    const ab = match(base, again);
    expect(ab.matches).toBe(true);
    expect(ab.share).toBe(1);
    expect(match(again, base)).toEqual(ab);
  });

  it('do not match when one ran the loop backwards (same start, end and distance)', () => {
    const backwards = run([...LOOP].reverse(), { seed: 3 });
    expect(Math.abs(backwards.line.length - base.line.length)).toBeLessThan(100);
    const result = match(base, backwards);
    expect(result.matches).toBe(false);
    expect(result.share).toBeLessThan(0.5);
  });

  it('do not match at 85% of the way together, and match at 95%', () => {
    const apart15 = run(detour(0.15), { seed: 4 });
    const apart5 = run(detour(0.05), { seed: 5 });
    // Distances within 10%: only the points decide.
    expect(apart15.line.length / base.line.length).toBeLessThan(1.1);
    const at85 = match(base, apart15);
    const at95 = match(base, apart5);
    expect(at85.matches).toBe(false);
    const { near, count } = pointsNear(prepareRouteRun(base), prepareRouteRun(apart15), true);
    expect(near / count).toBeGreaterThan(0.85);
    expect(near / count).toBeLessThan(0.9);
    expect(at95.matches).toBe(true);
    expect(at95.share).toBeGreaterThan(0.9);
    expect(at95.share).toBeLessThan(1);
  });

  it('do not match when their distances differ by more than 10% of the larger, or their starts by over 200 m', () => {
    expect(match(base, { ...run(LOOP, { seed: 6 }), distanceM: base.distanceM * 1.12 }).matches).toBe(false);
    expect(match(base, { ...run(LOOP, { seed: 6 }), distanceM: base.distanceM * 1.1 }).matches).toBe(true);
    // The same loop started 250 m further round (and ended there).
    const later = run(circle(RADIUS, { from: 250 / RADIUS }), { seed: 7 });
    expect(match(base, later).matches).toBe(false);
  });
});

describe('grouping runs into routes', () => {
  it('takes runs in (date, id) order: a route founded by two, joined by its matches; backwards and other runs alone', () => {
    const other = circle(400, { points: 360 }).map(([x, y]): [number, number] => [x + 3000, y]);
    const runs = [
      run(LOOP, { seed: 11, date: '2024-05-03' }),
      run(other, { seed: 12, date: '2024-05-01' }),
      run(LOOP, { seed: 13, date: '2024-05-02' }),
      run([...LOOP].reverse(), { seed: 14, date: '2024-05-02' }),
      run(other, { seed: 15, date: '2024-05-04' }),
      run(LOOP, { seed: 16, date: '2024-05-01' }),
      run(detour(0.15), { seed: 17, date: '2024-05-05' }),
    ];
    const [l3, o1, l2, back, o4, l1, far] = runs.map((r) => r.id);
    const grouping = groupRoutes(runs);
    expect(grouping.routes).toEqual([
      { founder: o1, runs: [o1, o4] },
      { founder: l1, runs: [l1, l2, l3] },
    ]);
    expect(grouping.founderOf.get(back!)).toBeNull();
    expect(grouping.founderOf.get(far!)).toBeNull();
    expect(grouping.founderOf.get(l3!)).toBe(l1);
  });

  it('does not depend on the order runs are given in (property, 50 orders)', () => {
    const shapes: Corners[] = [LOOP, LOOP, LOOP, [...LOOP].reverse(), detour(0.05), detour(0.15), [...LOOP].reverse()];
    const lines: Line[] = shapes.map((shape, k) => lineOfTrack(trackAlong(shape, { noise: 4, seed: 100 + k }))!);
    // Each line indexed once for every order tried.
    const prepared = new Map(lines.map((line) => [line, prepareRouteRun({ id: 0, date: '', distanceM: 0, line })]));
    const prepare = (r: RouteRun) => ({
      ...r,
      points: prepared.get(r.line)!.points,
      index: prepared.get(r.line)!.index,
    });
    const dates = fc.array(fc.constantFrom('2024-05-01', '2024-05-02', '2024-05-03'), {
      minLength: lines.length,
      maxLength: lines.length,
    });
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), { minLength: lines.length, maxLength: lines.length });
    const case_ = fc
      .tuple(dates, ids)
      .map(([d, i]) => lines.map((line, k): RouteRun => ({ id: i[k]!, date: d[k]!, distanceM: line.length, line })))
      .chain((runs) => fc.tuple(fc.constant(runs), fc.shuffledSubarray(runs, { minLength: runs.length })));
    fc.assert(
      fc.property(case_, ([runs, shuffled]) => {
        const given = groupRoutes(runs, prepare);
        const reordered = groupRoutes(shuffled, prepare);
        // Grouped a run at a time (as a runner's newest runs arrive), from any point on: the same routes.
        const ordered = [...runs].sort(byDateThenId);
        for (let split = 0; split <= ordered.length; split++) {
          const state: RouteState = { routes: [], alone: [] };
          extendRoutes(state, ordered.slice(0, split), prepare);
          for (const run of ordered.slice(split)) extendRoutes(state, [run], prepare);
          expect(state.routes.map((r) => ({ founder: r.founder.id, runs: r.runs }))).toEqual(given.routes);
        }
        expect(reordered.routes).toEqual(given.routes);
        expect([...reordered.founderOf].sort((a, b) => a[0] - b[0])).toEqual(
          [...given.founderOf].sort((a, b) => a[0] - b[0]),
        );
        // Every route has at least two runs, its founder the earliest.
        for (const route of given.routes) {
          expect(route.runs.length).toBeGreaterThanOrEqual(2);
          expect(route.runs[0]).toBe(route.founder);
        }
      }),
      { numRuns: 50 },
    );
  });
});

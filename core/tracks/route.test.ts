import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  MAP_ROUTE_POINTS,
  positionsOf,
  projectLocally,
  rankBySignificance,
  ROUTE_POINTS,
  simplifiedRoutes,
  simplifyToBudget,
  type PlanePoints,
} from './route.js';

const nan = Number.NaN;

const plane = (...points: [number, number][]): PlanePoints => ({
  x: Float64Array.from(points, ([x]) => x),
  y: Float64Array.from(points, ([, y]) => y),
});

/** The indices kept for a budget, with the k that keeps them. */
const simplify = (points: PlanePoints, budget: number) =>
  simplifyToBudget(rankBySignificance(points, 4, budget - 1), budget);

describe('Douglas-Peucker at 2 x 2^k metres', () => {
  it('keeps a point more than 2 m off its chord and drops one within', () => {
    expect(simplify(plane([0, 0], [10, 1], [20, 0]), 100)).toEqual({ k: 0, kept: [0, 2] });
    expect(simplify(plane([0, 0], [10, 2], [20, 0]), 100)).toEqual({ k: 0, kept: [0, 2] });
    expect(simplify(plane([0, 0], [10, 2.01], [20, 0]), 100)).toEqual({ k: 0, kept: [0, 1, 2] });
  });

  it('doubles the tolerance until the points fit the budget', () => {
    // Significances: point 3 is 9 m off the whole chord, point 2 is 5.7 m off the chord to point 3,
    // point 1 is 5 m off the chord to point 2.
    const points = plane([0, 0], [10, 5], [20, 0], [30, 9], [40, 0]);
    expect(simplify(points, 5)).toEqual({ k: 0, kept: [0, 1, 2, 3, 4] });
    expect(simplify(points, 4)).toEqual({ k: 2, kept: [0, 3, 4] }); // at 4 m all five stay
    expect(simplify(points, 3)).toEqual({ k: 2, kept: [0, 3, 4] });
    expect(simplify(points, 2)).toEqual({ k: 3, kept: [0, 4] });
  });

  it("measures to the chord's segment, so the turn of an out-and-back stays", () => {
    expect(simplify(plane([0, 0], [100, 0], [50, 0]), 100).kept).toEqual([0, 1, 2]);
    // A loop back to its start: the chord has no length, the distance is to its end.
    expect(simplify(plane([0, 0], [10, 0], [0, 0]), 100).kept).toEqual([0, 1, 2]);
  });

  it('never recurses: a zigzag that peels one point per split neither overflows nor passes the budget', () => {
    const zigzag: [number, number][] = Array.from({ length: 20_000 }, (_, i) => [
      i * 0.11,
      (i % 2 ? -1 : 1) * i * 0.11,
    ]);
    const ranking = rankBySignificance(plane(...zigzag), 4, ROUTE_POINTS - 1);
    const { k, kept } = simplifyToBudget(ranking, ROUTE_POINTS);
    expect(kept.length).toBeLessThanOrEqual(ROUTE_POINTS);
    // Half that tolerance would keep too many: every one of the 1,999 ranked points is beyond it.
    const halfSq = (2 * 2 ** (k - 1)) ** 2;
    expect(ranking.significanceSq.filter((sq) => sq > halfSq)).toHaveLength(ROUTE_POINTS - 1);
  });

  it('keeps the ends of one or two points', () => {
    expect(simplify(plane([0, 0]), 10)).toEqual({ k: 0, kept: [0] });
    expect(simplify(plane([0, 0], [0, 0]), 10)).toEqual({ k: 0, kept: [0, 1] });
  });
});

describe('positions, bounds and projection', () => {
  it('leaves out samples without a position', () => {
    expect(positionsOf({ lat: [1, nan, 3, 4], lon: [5, 6, nan, 8] })).toEqual({ lat: [1, 4], lon: [5, 8] });
    expect(positionsOf({ lat: [nan], lon: [nan] })).toBeNull();
    expect(positionsOf({ lat: null, lon: null })).toBeNull();
  });

  it('bounds them south-west to north-east', () => {
    expect(boundsOf({ lat: [52.1, 51.9, 52.3], lon: [4.9, 5.2, -0.1] })).toEqual([
      [51.9, -0.1],
      [52.3, 5.2],
    ]);
  });

  it('projects them in metres, east distances shrinking with latitude', () => {
    const points = projectLocally({ lat: [60, 60.001, 60], lon: [10, 10, 10.002] });
    expect(points.y[1]).toBeCloseTo(111.195, 2);
    expect(points.x[2]).toBeCloseTo(111.195, 0); // 2 x 111.195 x cos 60°, at the middle latitude
    expect(points.x[0]).toBe(0);
  });
});

describe('the encoded routes', () => {
  it('are Google polylines of precision 5', () => {
    const track = { lat: [38.5, 40.7, 43.252], lon: [-120.2, -120.95, -126.453] };
    expect(simplifiedRoutes(track, [ROUTE_POINTS])).toEqual(['_p~iF~ps|U_ulLnnqC_mqNvxq`@']);
  });

  it('are null without positions; one position is one point', () => {
    expect(simplifiedRoutes({ lat: null, lon: null }, [ROUTE_POINTS])).toBeNull();
    expect(polyline.decode(simplifiedRoutes({ lat: [nan, 52.5], lon: [nan, 13.4] }, [ROUTE_POINTS])![0]!)).toEqual([
      [52.5, 13.4],
    ]);
  });

  it('fit each budget, the smaller one keeping a subset of the larger', () => {
    // A wandering 20 km run sampled every 4 m.
    let [lat, lon, heading] = [48.85, 2.35, 0];
    const track = { lat: [] as number[], lon: [] as number[] };
    for (let i = 0; i < 5000; i++) {
      heading += Math.sin(i / 37) * 0.3 + Math.cos(i / 11) * 0.2;
      lat += (4 * Math.cos(heading)) / 111_195;
      lon += (4 * Math.sin(heading)) / 73_000;
      track.lat.push(Math.round(lat * 1e6) / 1e6);
      track.lon.push(Math.round(lon * 1e6) / 1e6);
    }
    const [route, map] = simplifiedRoutes(track, [ROUTE_POINTS, MAP_ROUTE_POINTS])!.map((line) =>
      polyline.decode(line),
    );
    expect(route!.length).toBeLessThanOrEqual(ROUTE_POINTS);
    expect(map!.length).toBeLessThanOrEqual(MAP_ROUTE_POINTS);
    expect(map!.length).toBeGreaterThan(MAP_ROUTE_POINTS / 4);
    const onRoute = new Set(route!.map(([a, b]) => `${a},${b}`));
    expect(map!.every(([a, b]) => onRoute.has(`${a},${b}`))).toBe(true);
    expect(map![0]).toEqual([Math.round(track.lat[0]! * 1e5) / 1e5, Math.round(track.lon[0]! * 1e5) / 1e5]);
    expect(map!.at(-1)).toEqual([Math.round(track.lat.at(-1)! * 1e5) / 1e5, Math.round(track.lon.at(-1)! * 1e5) / 1e5]);
  });
});

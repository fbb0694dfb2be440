import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { loopTrack } from '../../../../core/tracks/test-tracks.js';
import { analysedTrack } from '../../../test/track-fixtures';
import { decodeRoute, haversineMetres, pointAlong, routeLine, spotOnRoute, type LatLon } from './route-geometry';

describe('decodeRoute', () => {
  it('reads the API’s polylines of precision 5 as [lat, lon] points', () => {
    const points: LatLon[] = [
      [51.5, -0.12],
      [51.50123, -0.11987],
    ];
    expect(decodeRoute(polyline.encode(points, 5))).toEqual(points);
    expect(decodeRoute('')).toEqual([]);
  });
});

describe('routeLine and pointAlong', () => {
  // Two legs along the equator: 0.01° of longitude is 1,111.95 m on a sphere of 6,371 km.
  const line = routeLine([
    [0, 0],
    [0, 0.01],
    [0, 0.03],
  ]);

  it('measures the distance along the route', () => {
    expect(line.along[1]).toBeCloseTo(1111.95, 1);
    expect(line.along[2]).toBeCloseTo(3 * 1111.95, 1);
    expect(haversineMetres([51.5, -0.12], [51.5, -0.12])).toBe(0);
  });

  it('finds the point at a share of the length, between the points around it', () => {
    expect(pointAlong(line, 0)).toEqual([0, 0]);
    expect(pointAlong(line, 1)).toEqual([0, 0.03]);
    const half = pointAlong(line, 0.5)!;
    expect(half[0]).toBe(0);
    expect(half[1]).toBeCloseTo(0.015, 9);
    expect(pointAlong(line, 1 / 6)![1]).toBeCloseTo(0.005, 9);
    // Out of range is clamped.
    expect(pointAlong(line, 2)).toEqual([0, 0.03]);
    expect(pointAlong(routeLine([]), 0.5)).toBeNull();
    expect(pointAlong(routeLine([[1, 2]]), 0.5)).toEqual([1, 2]);
  });
});

describe('spotOnRoute', () => {
  it('puts the series’ points at the same share of the route', () => {
    const line = routeLine([
      [0, 0],
      [0, 0.02],
    ]);
    const distance = [100, 600, 1100];
    expect(spotOnRoute(line, distance, 0)).toEqual([0, 0]);
    expect(spotOnRoute(line, distance, 1)![1]).toBeCloseTo(0.01, 9);
    expect(spotOnRoute(line, distance, 2)).toEqual([0, 0.02]);
    expect(spotOnRoute(line, distance, null)).toBeNull();
    expect(spotOnRoute(line, distance, 3)).toBeNull();
    expect(spotOnRoute(null, distance, 1)).toBeNull();
  });

  it('lands within a few metres of where the runner was, on an analysed loop', () => {
    const track = analysedTrack(loopTrack({ seconds: 600, metresPerSecond: 3, loopMetres: 1000 }));
    const line = routeLine(decodeRoute(track.route!));
    const series = track.series!;
    // Half way: 900 m into a 1,000 m loop round a circle, the point opposite 100 m round.
    const k = Math.round((series.distance.length - 1) / 2);
    const radius = 1000 / (2 * Math.PI);
    const angle = series.distance[k]! / radius;
    const expected: LatLon = [
      51.5 + (radius * Math.sin(angle)) / 111_195,
      -0.12 + (radius * (1 - Math.cos(angle))) / (111_195 * Math.cos((51.5 * Math.PI) / 180)),
    ];
    expect(haversineMetres(spotOnRoute(line, series.distance, k)!, expected)).toBeLessThan(10);
  });
});

import { describe, expect, it } from 'vitest';
import {
  distanceToLine,
  EARTH_RADIUS_M,
  greatCircleMetres,
  lineFrom,
  lineOfTrack,
  pointAlong,
  resample,
  segmentPath,
} from './geometry.js';
import { LineIndex } from './line-index.js';
import { greatCircleToArc, offset, seeded, trackAlong } from './test-lines.js';

const RADIANS = Math.PI / 180;

/** A point `metres` from (lat, lon) at `bearing` degrees, on the sphere. */
function destination(lat: number, lon: number, bearing: number, metres: number): [number, number] {
  const δ = metres / EARTH_RADIUS_M;
  const θ = bearing * RADIANS;
  const φ1 = lat * RADIANS;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  return [φ2 / RADIANS, lon + λ2 / RADIANS];
}

describe('a line of positions', () => {
  it('measures its length along the great circle and finds the point at a distance', () => {
    const [lat1, lon1] = offset(0, 0);
    const [lat2, lon2] = offset(1000, 0);
    const [lat3, lon3] = offset(1000, 500);
    const line = lineFrom([lat1, lat2, lat3], [lon1, lon2, lon3]);
    expect(line.cum[1]).toBeCloseTo(greatCircleMetres(lat1, lon1, lat2, lon2), 9);
    expect(line.length).toBeCloseTo(1500, 0);
    const middle = pointAlong(line, line.cum[1]! / 2);
    expect(greatCircleMetres(lat1, lon1, middle.lat, middle.lon)).toBeCloseTo(line.cum[1]! / 2, 1);
    expect(pointAlong(line, -5)).toEqual({ lat: lat1, lon: lon1 });
    expect(pointAlong(line, 1e6)).toEqual({ lat: lat3, lon: lon3 });
  });

  it('resamples every 10 m from the start, up to the length', () => {
    const [lat1, lon1] = offset(0, 0);
    const [lat2, lon2] = offset(0, 1234.5);
    const line = lineFrom([lat1, lat2], [lon1, lon2]);
    const points = resample(line);
    expect(points.lat.length).toBe(Math.floor(line.length / 10) + 1);
    for (let k = 1; k < points.lat.length; k++) {
      const step = greatCircleMetres(points.lat[k - 1]!, points.lon[k - 1]!, points.lat[k]!, points.lon[k]!);
      expect(step).toBeCloseTo(10, 3);
    }
    expect(resample(lineFrom([lat1], [lon1])).lat.length).toBe(1);
  });

  it('measures the distance to its segments, not only its vertices, and where the closest point lies', () => {
    const [lat1, lon1] = offset(-500, 0);
    const [lat2, lon2] = offset(500, 0);
    const line = lineFrom([lat1, lat2], [lon1, lon2]);
    const [lat, lon] = offset(250, 30);
    const nearest = distanceToLine(line, lat, lon);
    expect(nearest.metres).toBeCloseTo(30, 2);
    expect(nearest.fraction).toBeCloseTo(0.75, 4);
    expect(new LineIndex(line).nearest(lat, lon, 50)).toMatchObject({
      metres: nearest.metres,
      fraction: nearest.fraction,
    });
  });

  it('keeps the positions of a track and the samples they came from', () => {
    const track = trackAlong([
      [0, 0],
      [30, 0],
    ]);
    track.lat![2] = Number.NaN;
    const line = lineOfTrack(track)!;
    expect(Array.from(line.sample)).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(lineOfTrack({ lat: null, lon: null })).toBeNull();
  });

  it("cuts a segment's path between two recorded distances, its ends interpolated by d", () => {
    const track = trackAlong([
      [0, 0],
      [2000, 0],
    ]);
    const path = segmentPath(track, 500, 1500)!;
    const [startLat, startLon] = offset(500, 0);
    const [endLat, endLon] = offset(1500, 0);
    expect(greatCircleMetres(path.lat[0]!, path.lon[0]!, startLat, startLon)).toBeLessThan(0.01);
    expect(greatCircleMetres(path.lat.at(-1)!, path.lon.at(-1)!, endLat, endLon)).toBeLessThan(0.01);
    expect(path.length).toBeCloseTo(1000, 0);
    expect(segmentPath(track, 1500, 2500)).toBeNull();
  });
});

describe("the plane's error against the great circle (the bound stated in geometry.ts)", () => {
  it('is within d x (tan|lat| x d / 2R + (d / R)^2), under 5 mm, between points up to 100 m apart at up to 80°', () => {
    const random = seeded(7);
    for (let n = 0; n < 3000; n++) {
      const lat = (random() - 0.5) * 160;
      const lon = (random() - 0.5) * 360;
      const metres = random() * 100;
      const [qLat, qLon] = destination(lat, lon, random() * 360, metres);
      const exact = greatCircleMetres(lat, lon, qLat, qLon);
      const plane = distanceToLine(lineFrom([qLat], [qLon]), lat, lon).metres;
      const bound =
        exact * ((Math.tan(Math.abs(lat) * RADIANS) * exact) / (2 * EARTH_RADIUS_M) + (exact / EARTH_RADIUS_M) ** 2);
      expect(Math.abs(plane - exact)).toBeLessThanOrEqual(bound + 1e-6);
      expect(Math.abs(plane - exact)).toBeLessThan(0.005);
    }
  });

  it('adds at most L^2 x tan|lat| / 8R for a segment of length L (checked up to 1 km, at up to 70°)', () => {
    const random = seeded(8);
    for (let n = 0; n < 3000; n++) {
      const lat = (random() - 0.5) * 140;
      const lon = (random() - 0.5) * 360;
      const length = random() * 1000;
      const a = [lat, lon] as [number, number];
      const b = destination(lat, lon, random() * 360, length);
      const along = pointAlong(lineFrom([a[0], b[0]], [a[1], b[1]]), random() * length);
      const p = destination(along.lat, along.lon, random() * 360, random() * 60);
      const exact = greatCircleToArc(p, a, b);
      const plane = distanceToLine(lineFrom([a[0], b[0]], [a[1], b[1]]), p[0], p[1]).metres;
      const bound = 0.005 + (length ** 2 * Math.tan(Math.abs(lat) * RADIANS)) / (8 * EARTH_RADIUS_M);
      expect(Math.abs(plane - exact)).toBeLessThanOrEqual(bound);
    }
  });

  it('says "within 25 m" and "within 50 m" of a watch\'s line exactly when the great circle does (1 cm away)', () => {
    const random = seeded(9);
    let judged = 0;
    for (let n = 0; n < 400; n++) {
      const lat = (random() - 0.5) * 140;
      const lon = (random() - 0.5) * 360;
      // A line of 40 samples 3 m apart, wandering.
      const lats = [lat];
      const lons = [lon];
      let bearing = random() * 360;
      for (let i = 1; i < 40; i++) {
        bearing += (random() - 0.5) * 40;
        const [nextLat, nextLon] = destination(lats[i - 1]!, lons[i - 1]!, bearing, 3);
        lats.push(nextLat);
        lons.push(nextLon);
      }
      const line = lineFrom(lats, lons);
      const index = new LineIndex(line);
      for (const threshold of [25, 50]) {
        const i = Math.floor(random() * 39);
        const p = destination(lats[i]!, lons[i]!, random() * 360, threshold + (random() - 0.5));
        let exact = Infinity;
        for (let j = 0; j < 39; j++) {
          exact = Math.min(exact, greatCircleToArc(p, [lats[j]!, lons[j]!], [lats[j + 1]!, lons[j + 1]!]));
        }
        if (Math.abs(exact - threshold) < 0.01) continue;
        judged++;
        expect(index.nearest(p[0], p[1], threshold) !== null).toBe(exact <= threshold);
        expect(index.reaches(p[0], p[1], threshold, 0, line.length)).toBe(exact <= threshold);
      }
    }
    expect(judged).toBeGreaterThan(780);
  });
});

describe('the index of a line', () => {
  it('answers as a walk over every segment would', () => {
    const random = seeded(11);
    const lats: number[] = [];
    const lons: number[] = [];
    let east = 0;
    let north = 0;
    let heading = 0;
    for (let i = 0; i < 2000; i++) {
      heading += (random() - 0.5) * 0.6;
      east += Math.cos(heading) * 3;
      north += Math.sin(heading) * 3;
      const [lat, lon] = offset(east, north);
      lats.push(lat);
      lons.push(lon);
    }
    const line = lineFrom(lats, lons);
    const index = new LineIndex(line);
    for (let q = 0; q < 300; q++) {
      const [lat, lon] = offset(east * random() + (random() - 0.5) * 400, north * random() + (random() - 0.5) * 400);
      const walked = distanceToLine(line, lat, lon);
      const found = index.nearest(lat, lon, 60);
      if (walked.metres <= 60)
        expect(found).toEqual({ metres: walked.metres, along: walked.along, fraction: walked.fraction });
      else expect(found).toBeNull();
      // The lowest and highest segments within 40 m in a range, against a walk.
      const from = Math.floor(random() * 1000);
      const to = from + Math.floor(random() * 1000);
      const near: number[] = [];
      for (let s = from; s <= to; s++) {
        if (distanceToLine(lineFrom(lats.slice(s, s + 2), lons.slice(s, s + 2)), lat, lon).metres <= 40) near.push(s);
      }
      expect(index.segmentWithin(lat, lon, 40, from, to)).toBe(near[0] ?? -1);
      expect(index.segmentWithin(lat, lon, 40, from, to, true)).toBe(near.at(-1) ?? -1);
    }
  });
});

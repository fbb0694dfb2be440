/**
 * The line of a run (CONTRACT.md §22): its positions joined in order, measured along the great
 * circle (R = 6,371 km, as §9's distances); the point at a distance along it; its points every 10 m;
 * and the distance from a point to it, to its segments and not only its vertices.
 *
 * Distances near a point are measured on an equirectangular plane centred on that point (metres east
 * scaled by the cosine of the point's own latitude, metres north), where a segment is straight. The
 * plane agrees with the great circle closely enough for §22's 25 m and 50 m thresholds:
 *
 * - Between the point p and a point q at most 100 m away, the plane's distance differs from the
 *   great-circle distance by at most d x (tan|lat| x d / 2R + (d / R)^2) (the east-west scale at q's
 *   latitude against p's, then the sphere's curvature): under 5 mm up to 80° of latitude.
 * - A segment is straight in latitude and longitude, not along a great circle. Over a segment of
 *   length L the two part by at most L^2 x tan|lat| / 8R: under 1 mm for the few metres between a
 *   watch's samples and 3.4 cm for a 1 km gap at 60° of latitude.
 *
 * geometry.test.ts checks both bounds against an independent great-circle computation. A line that
 * crosses the antimeridian is measured as if it did not (core/tracks/route.ts does the same); a run
 * does not cross it.
 */
import type { Track } from '../tracks/types.js';

/** The Earth's radius of §9's and §22's distances, in metres. */
export const EARTH_RADIUS_M = 6_371_000;
/** §22 resamples lines every 10 m. */
export const RESAMPLE_STEP_M = 10;

const RADIANS = Math.PI / 180;
/** Metres per degree of latitude (and of longitude at the equator). */
export const METRES_PER_DEGREE = EARTH_RADIUS_M * RADIANS;

/** The great-circle distance in metres (haversine, as server/features/imports/parsers/track.ts). */
export function greatCircleMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Metres east per degree of longitude at a latitude (kept above 0 at the poles). */
export function metresPerDegreeEast(lat: number): number {
  return Math.max(Math.cos(lat * RADIANS), 1e-9) * METRES_PER_DEGREE;
}

/** Positions joined into a line, with the great-circle length up to each vertex. */
export interface Line {
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  /** Metres along the line at each vertex (cum[0] = 0). */
  readonly cum: Float64Array;
  /** cum of the last vertex; 0 for a line of one point. */
  readonly length: number;
}

/** A run's line, each vertex knowing the sample it came from (for that sample's time). */
export interface TrackLine extends Line {
  /** The index in the track's columns of each vertex's sample. */
  readonly sample: Int32Array;
}

export function lineFrom(lat: ArrayLike<number>, lon: ArrayLike<number>): Line {
  const count = lat.length;
  const line = { lat: Float64Array.from(lat), lon: Float64Array.from(lon), cum: new Float64Array(count) };
  for (let i = 1; i < count; i++) {
    line.cum[i] = line.cum[i - 1]! + greatCircleMetres(line.lat[i - 1]!, line.lon[i - 1]!, line.lat[i]!, line.lon[i]!);
  }
  return { ...line, length: count > 0 ? line.cum[count - 1]! : 0 };
}

/** The samples of a track that have a position, as a line; null when it has none. */
export function lineOfTrack(track: Pick<Track, 'lat' | 'lon'>): TrackLine | null {
  const { lat, lon } = track;
  if (!lat || !lon) return null;
  const samples: number[] = [];
  for (let i = 0; i < lat.length; i++) if (Number.isFinite(lat[i]) && Number.isFinite(lon[i])) samples.push(i);
  if (samples.length === 0) return null;
  const line = lineFrom(
    samples.map((i) => lat[i]!),
    samples.map((i) => lon[i]!),
  );
  return { ...line, sample: Int32Array.from(samples) };
}

/**
 * The vertex a distance along the line falls after: the last i with cum[i] <= metres, at most the
 * second-to-last vertex (so that segment i runs from it to i + 1); 0 before the line.
 */
export function segmentAt(line: Line, metres: number): number {
  const { cum } = line;
  let low = 0;
  let high = Math.max(cum.length - 2, 0);
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (cum[middle]! <= metres) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The point at `metres` along the line (its ends beyond them), interpolated within its segment. */
export function pointAlong(line: Line, metres: number): { lat: number; lon: number } {
  const i = segmentAt(line, metres);
  const out = { lat: line.lat[i]!, lon: line.lon[i]! };
  if (i + 1 < line.lat.length) {
    const span = line.cum[i + 1]! - line.cum[i]!;
    const u = span > 0 ? Math.min(Math.max((metres - line.cum[i]!) / span, 0), 1) : 0;
    out.lat += (line.lat[i + 1]! - out.lat) * u;
    out.lon += (line.lon[i + 1]! - out.lon) * u;
  }
  return out;
}

/**
 * The line's points every `step` metres from its start: at 0, step, 2 x step, ... up to its length
 * (the end itself only when the length is a multiple of the step). Their fraction of the line's
 * length is k x step / length. One walk along the line.
 */
export function resample(line: Line, step = RESAMPLE_STEP_M): Line {
  const count = line.lat.length === 0 ? 0 : Math.floor(line.length / step) + 1;
  const lat = new Float64Array(count);
  const lon = new Float64Array(count);
  const cum = new Float64Array(count);
  const last = line.lat.length - 1;
  let i = 0;
  for (let k = 0; k < count; k++) {
    const at = k * step;
    while (i + 1 < last && line.cum[i + 1]! <= at) i++;
    const span = i < last ? line.cum[i + 1]! - line.cum[i]! : 0;
    const u = span > 0 ? Math.min(Math.max((at - line.cum[i]!) / span, 0), 1) : 0;
    const next = Math.min(i + 1, last);
    lat[k] = line.lat[i]! + (line.lat[next]! - line.lat[i]!) * u;
    lon[k] = line.lon[i]! + (line.lon[next]! - line.lon[i]!) * u;
    cum[k] = at;
  }
  return { lat, lon, cum, length: count > 0 ? cum[count - 1]! : 0 };
}

/**
 * Where a segment comes closest to a point, on the plane centred on the point: the segment's ends
 * are (ax, ay) and (bx, by) in metres from it. Returns the fraction u (0-1) of the segment and the
 * squared distance; written to `out` so that loops over samples allocate nothing.
 */
export function closestOnSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  out: { u: number; distanceSq: number },
): void {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSq = dx * dx + dy * dy;
  let u = lengthSq > 0 ? -(ax * dx + ay * dy) / lengthSq : 0;
  if (u < 0) u = 0;
  else if (u > 1) u = 1;
  const x = ax + dx * u;
  const y = ay + dy * u;
  out.u = u;
  out.distanceSq = x * x + y * y;
}

/**
 * The part of a segment within `radius` of the point (the plane's origin), as fractions [from, to]
 * of the segment written to `out`; false when the segment stays farther. A disc is convex, so the
 * part is one interval.
 */
export function segmentWithinRadius(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  radius: number,
  out: { from: number; to: number },
): boolean {
  const dx = bx - ax;
  const dy = by - ay;
  const a = dx * dx + dy * dy;
  const c = ax * ax + ay * ay - radius * radius;
  if (a === 0) {
    out.from = 0;
    out.to = 1;
    return c <= 0;
  }
  // |A + u (B - A)|^2 <= r^2: a u^2 + 2 b u + c <= 0.
  const b = ax * dx + ay * dy;
  const discriminant = b * b - a * c;
  if (discriminant < 0) return false;
  const root = Math.sqrt(discriminant);
  const from = Math.max((-b - root) / a, 0);
  const to = Math.min((-b + root) / a, 1);
  if (from > to) return false;
  out.from = from;
  out.to = to;
  return true;
}

/** The distance from a point to a line and where on it, as metres along it and as a fraction of its length. */
export interface Nearest {
  metres: number;
  along: number;
  fraction: number;
  /** The segment (from vertex `segment` to the next) the closest point lies on. */
  segment: number;
}

/**
 * The distance from a point to the line, to its segments (the first closest of equals), by a walk
 * over every segment: for one question; LineIndex answers many. Distances beyond a few hundred metres
 * lose the bound above (the plane is centred on the point) but keep their order well enough.
 */
export function distanceToLine(line: Line, lat: number, lon: number): Nearest {
  const east = metresPerDegreeEast(lat);
  const best: Nearest = { metres: Infinity, along: 0, fraction: 0, segment: 0 };
  const closest = { u: 0, distanceSq: 0 };
  const last = line.lat.length - 1;
  let bestSq = Infinity;
  for (let i = 0; i <= Math.max(last - 1, 0); i++) {
    const next = Math.min(i + 1, last);
    closestOnSegment(
      (line.lon[i]! - lon) * east,
      (line.lat[i]! - lat) * METRES_PER_DEGREE,
      (line.lon[next]! - lon) * east,
      (line.lat[next]! - lat) * METRES_PER_DEGREE,
      closest,
    );
    if (closest.distanceSq < bestSq) {
      bestSq = closest.distanceSq;
      best.segment = i;
      best.along = line.cum[i]! + (line.cum[next]! - line.cum[i]!) * closest.u;
    }
  }
  best.metres = Math.sqrt(bestSq);
  best.fraction = line.length > 0 ? best.along / line.length : 0;
  return best;
}

/**
 * A segment's path (§22): the run's line between the distances `startM` and `endM` of its recorded
 * distance d, counted from the first sample (d - d[0]). Its first and last points are interpolated
 * by d between the two positioned samples around each distance; between them come the positioned
 * samples strictly inside. Null without positions or distances, or when the stretch is outside them.
 */
export function segmentPath(track: Pick<Track, 'lat' | 'lon' | 'd'>, startM: number, endM: number): Line | null {
  const { lat, lon, d } = track;
  if (!lat || !lon || !d || d.length === 0 || !(endM > startM)) return null;
  const d0 = d[0]!;
  const positioned: number[] = [];
  for (let i = 0; i < d.length; i++) if (Number.isFinite(lat[i]) && Number.isFinite(lon[i])) positioned.push(i);
  if (positioned.length < 2) return null;
  const first = d[positioned[0]!]! - d0;
  const last = d[positioned[positioned.length - 1]!]! - d0;
  if (startM < first || endM > last) return null;
  const pathLat: number[] = [];
  const pathLon: number[] = [];
  // The point at x: the last positioned sample with d <= x, moved towards the next by d.
  const pushAt = (x: number, from: number): number => {
    let j = from;
    while (j + 1 < positioned.length && d[positioned[j + 1]!]! - d0 <= x) j++;
    const a = positioned[j]!;
    const b = positioned[Math.min(j + 1, positioned.length - 1)]!;
    const span = d[b]! - d[a]!;
    const u = span > 0 ? (x - (d[a]! - d0)) / span : 0;
    pathLat.push(lat[a]! + (lat[b]! - lat[a]!) * u);
    pathLon.push(lon[a]! + (lon[b]! - lon[a]!) * u);
    return j;
  };
  let j = pushAt(startM, 0);
  for (j = j + 1; j < positioned.length && d[positioned[j]!]! - d0 < endM; j++) {
    pathLat.push(lat[positioned[j]!]!);
    pathLon.push(lon[positioned[j]!]!);
  }
  pushAt(endM, Math.max(j - 1, 0));
  return lineFrom(pathLat, pathLon);
}

/**
 * The geometry of a drawn route, without the map library: decoding the API's polylines, and where
 * on the route a distance of the series lies (the spot a chart hover shows on the map).
 *
 * The route is the track's positions simplified to at most 2,000 points, and the series' distances
 * are the device's, so a distance cannot be looked up on the route directly. The spot is placed at
 * the same share of the route's own length as the distance is of the run's: exact at both ends, and
 * within a few metres elsewhere on any route whose simplification keeps its shape.
 */
import polyline from '@mapbox/polyline';

/** [latitude, longitude] in degrees, as Leaflet takes them. */
export type LatLon = [number, number];

/** The Earth's radius of the API's distances (CONTRACT.md §9), in metres. */
const EARTH_RADIUS_M = 6_371_000;

export interface RouteLine {
  points: LatLon[];
  /** Metres from the first point to each point. */
  along: number[];
}

/** A Google encoded polyline of precision 5, as the API sends routes. */
export function decodeRoute(encoded: string): LatLon[] {
  return polyline.decode(encoded, 5);
}

/** The great-circle distance between two points, in metres. */
export function haversineMetres([lat1, lon1]: LatLon, [lat2, lon2]: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function routeLine(points: LatLon[]): RouteLine {
  const along = [0];
  for (let i = 1; i < points.length; i++) along.push(along[i - 1]! + haversineMetres(points[i - 1]!, points[i]!));
  return { points, along };
}

/** The point at `share` (0-1) of the line's length, between the two points around it; null for an empty line. */
export function pointAlong({ points, along }: RouteLine, share: number): LatLon | null {
  if (points.length === 0) return null;
  const total = along[along.length - 1]!;
  const target = Math.min(1, Math.max(0, share)) * total;
  // The last point whose distance along is at most the target.
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (along[mid]! <= target) lo = mid;
    else hi = mid - 1;
  }
  if (lo === points.length - 1) return points[lo]!;
  const span = along[lo + 1]! - along[lo]!;
  const t = span > 0 ? (target - along[lo]!) / span : 0;
  const [lat1, lon1] = points[lo]!;
  const [lat2, lon2] = points[lo + 1]!;
  return [lat1 + t * (lat2 - lat1), lon1 + t * (lon2 - lon1)];
}

/** Where the series' point `index` lies on the route; null without a route or a point. */
export function spotOnRoute(line: RouteLine | null, distance: readonly number[], index: number | null): LatLon | null {
  if (!line || index === null || index < 0 || index >= distance.length) return null;
  const first = distance[0]!;
  const span = distance[distance.length - 1]! - first;
  return pointAlong(line, span > 0 ? (distance[index]! - first) / span : 0);
}

/** The part of the line between two shares (0-1) of its length, ends included; empty for an empty line. */
export function stretchAlong(line: RouteLine, fromShare: number, toShare: number): LatLon[] {
  const start = pointAlong(line, Math.min(fromShare, toShare));
  const end = pointAlong(line, Math.max(fromShare, toShare));
  if (!start || !end) return [];
  const total = line.along[line.along.length - 1]!;
  const low = Math.min(fromShare, toShare) * total;
  const high = Math.max(fromShare, toShare) * total;
  const inside = line.points.filter((_point, k) => line.along[k]! > low && line.along[k]! < high);
  return [start, ...inside, end];
}

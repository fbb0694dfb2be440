/**
 * The route of a run (CONTRACT.md §14 `route`, `bounds`; §16's map of every run): its positions as
 * a Google encoded polyline (precision 5), simplified with Douglas-Peucker at 2 x 2^k metres for
 * the smallest k = 0, 1, 2, ... that leaves at most the allowed number of points.
 *
 * Douglas-Peucker splits a line at its farthest point, and where it splits does not depend on the
 * tolerance; a point survives tolerance ε when it and every point split before it on its way down
 * lie more than ε from their chords. So each point has a significance, the least of those
 * distances, and the points kept at ε are the ends and those whose significance exceeds ε. This
 * module finds significances most significant first (a heap of pending segments), stopping once
 * it knows enough for the largest budget: one pass gives every k and both budgets, and it never
 * recurses, so no track can overflow the stack (docs/decisions/020-track-maths-libraries.md).
 *
 * Distances are from a point to the chord's segment (not its infinite line), on a local
 * equirectangular projection in metres; samples without a position are left out.
 */
import polyline from '@mapbox/polyline';
import type { Track } from './types.js';

/** Most points of the run page's route (§14). */
export const ROUTE_POINTS = 2000;
/** Most points of each run on the map of every run (§16). */
export const MAP_ROUTE_POINTS = 200;
/** The tolerance at k = 0, in metres. */
export const MIN_TOLERANCE_M = 2;

/** The Earth's radius of §9's distances, in metres. */
const EARTH_RADIUS_M = 6_371_000;

/** [[south, west], [north, east]] in degrees. */
export type Bounds = [[number, number], [number, number]];

/** The samples that have a position, in order. */
export interface Positions {
  lat: number[];
  lon: number[];
}

/** Points in metres on a plane. */
export interface PlanePoints {
  x: Float64Array;
  y: Float64Array;
}

/** Interior points in decreasing significance (squared metres), as far as the ranking went. */
export interface SignificanceRanking {
  /** The number of points ranked (ends included). */
  count: number;
  index: number[];
  significanceSq: number[];
}

/** The positions of a track, leaving out samples whose latitude or longitude is missing; null when none. */
export function positionsOf(track: Pick<Track, 'lat' | 'lon'>): Positions | null {
  const { lat, lon } = track;
  if (!lat || !lon) return null;
  const positions: Positions = { lat: [], lon: [] };
  for (let i = 0; i < lat.length; i++) {
    if (Number.isFinite(lat[i]) && Number.isFinite(lon[i])) {
      positions.lat.push(lat[i]!);
      positions.lon.push(lon[i]!);
    }
  }
  return positions.lat.length > 0 ? positions : null;
}

export function boundsOf(positions: Positions): Bounds {
  let [south, west, north, east] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.lat.length; i++) {
    south = Math.min(south, positions.lat[i]!);
    north = Math.max(north, positions.lat[i]!);
    west = Math.min(west, positions.lon[i]!);
    east = Math.max(east, positions.lon[i]!);
  }
  return [
    [south, west],
    [north, east],
  ];
}

/**
 * Metres east (x) and north (y) of the first position, scaled at the middle latitude of the bounds:
 * across a run's few kilometres the error is far below the 2 m tolerance's concern.
 */
export function projectLocally(positions: Positions): PlanePoints {
  const [[south], [north]] = boundsOf(positions);
  const radians = Math.PI / 180;
  const eastScale = EARTH_RADIUS_M * radians * Math.cos(((south + north) / 2) * radians);
  const northScale = EARTH_RADIUS_M * radians;
  const lat0 = positions.lat[0]!;
  const lon0 = positions.lon[0]!;
  const count = positions.lat.length;
  const points: PlanePoints = { x: new Float64Array(count), y: new Float64Array(count) };
  for (let i = 0; i < count; i++) {
    points.x[i] = (positions.lon[i]! - lon0) * eastScale;
    points.y[i] = (positions.lat[i]! - lat0) * northScale;
  }
  return points;
}

/**
 * The point strictly between a and b farthest from the segment a-b (the first of equals), and its
 * squared distance; index -1 when there is none.
 */
function farthestFromChord(points: PlanePoints, a: number, b: number): { index: number; distanceSq: number } {
  const { x, y } = points;
  const ax = x[a]!;
  const ay = y[a]!;
  const dx = x[b]! - ax;
  const dy = y[b]! - ay;
  const lengthSq = dx * dx + dy * dy;
  let index = -1;
  let distanceSq = -1;
  for (let i = a + 1; i < b; i++) {
    let px = x[i]! - ax;
    let py = y[i]! - ay;
    // Where the point projects on the chord, clamped to its ends (a chord of zero length is its end).
    const along = lengthSq > 0 ? (px * dx + py * dy) / lengthSq : 0;
    if (along > 1) {
      px -= dx;
      py -= dy;
    } else if (along > 0) {
      px -= dx * along;
      py -= dy * along;
    }
    const sq = px * px + py * py;
    if (sq > distanceSq) {
      distanceSq = sq;
      index = i;
    }
  }
  return { index, distanceSq };
}

interface PendingSplit {
  first: number;
  last: number;
  /** The farthest point strictly between first and last (the first of equals). */
  index: number;
  /** Its significance: its squared distance, capped by the significance of the split above it. */
  keySq: number;
}

/** A max-heap of pending splits by significance. */
class SplitHeap {
  private readonly items: PendingSplit[] = [];

  get size(): number {
    return this.items.length;
  }

  push(item: PendingSplit): void {
    const items = this.items;
    items.push(item);
    let k = items.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (items[parent]!.keySq >= item.keySq) break;
      items[k] = items[parent]!;
      k = parent;
    }
    items[k] = item;
  }

  pop(): PendingSplit | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || !last) return top;
    let k = 0;
    for (;;) {
      const left = 2 * k + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const larger = right < items.length && items[right]!.keySq > items[left]!.keySq ? right : left;
      if (items[larger]!.keySq <= last.keySq) break;
      items[k] = items[larger]!;
      k = larger;
    }
    items[k] = last;
    return top;
  }
}

/**
 * Ranks interior points by Douglas-Peucker significance, most significant first, leaving out those
 * at or below `floorSq` (no tolerance keeps them) and stopping after `limit` points.
 */
export function rankBySignificance(points: PlanePoints, floorSq: number, limit: number): SignificanceRanking {
  const count = points.x.length;
  const ranking: SignificanceRanking = { count, index: [], significanceSq: [] };
  const pending = new SplitHeap();
  const consider = (first: number, last: number, capSq: number) => {
    const { index, distanceSq } = farthestFromChord(points, first, last);
    const keySq = Math.min(distanceSq, capSq);
    if (index >= 0 && keySq > floorSq) pending.push({ first, last, index, keySq });
  };
  if (count > 2) consider(0, count - 1, Infinity);
  while (ranking.index.length < limit) {
    const split = pending.pop();
    if (!split) break;
    ranking.index.push(split.index);
    ranking.significanceSq.push(split.keySq);
    consider(split.first, split.index, split.keySq);
    consider(split.index, split.last, split.keySq);
  }
  return ranking;
}

/**
 * The smallest k = 0, 1, ... whose tolerance 2 x 2^k m leaves at most `maxPoints` points, and the
 * indices it keeps (ends included, in order). `ranking` must have ranked at least maxPoints - 1
 * points or all there are.
 */
export function simplifyToBudget(ranking: SignificanceRanking, maxPoints: number): { k: number; kept: number[] } {
  const ends = ranking.count > 1 ? [0, ranking.count - 1] : ranking.count === 1 ? [0] : [];
  const interiorAllowed = maxPoints - ends.length;
  let k = 0;
  // The (allowed + 1)-th most significant point must go: the tolerance must reach its significance.
  const firstToDrop = ranking.significanceSq[interiorAllowed];
  if (firstToDrop !== undefined) while ((MIN_TOLERANCE_M * 2 ** k) ** 2 < firstToDrop) k++;
  const toleranceSq = (MIN_TOLERANCE_M * 2 ** k) ** 2;
  const interior = ranking.index.filter((_, r) => ranking.significanceSq[r]! > toleranceSq);
  return { k, kept: [...ends, ...interior].sort((a, b) => a - b) };
}

/** The polyline of a track's positions for each budget of points, in the budgets' order; null without positions. */
export function simplifiedRoutes(track: Pick<Track, 'lat' | 'lon'>, budgets: readonly number[]): string[] | null {
  const positions = positionsOf(track);
  if (!positions) return null;
  const ranking = rankBySignificance(projectLocally(positions), MIN_TOLERANCE_M ** 2, Math.max(...budgets) - 1);
  return budgets.map((budget) =>
    polyline.encode(
      simplifyToBudget(ranking, budget).kept.map((i) => [positions.lat[i]!, positions.lon[i]!] as [number, number]),
      5,
    ),
  );
}

/**
 * A line's segments in a spatial index (flatbush, docs/decisions/041-route-geometry.md), so that
 * asking thousands of points how near they come to a line of thousands of segments costs a few
 * segments per point, not the whole line.
 *
 * The index holds each segment's box on one equirectangular plane for the whole line (scaled at its
 * middle latitude). Distances are then measured on the plane centred on the asking point
 * (geometry.ts, with its error bound). The two planes differ only by a scale of the east axis, so a
 * segment straight on one is straight on the other, and a box `radius` wide on the point's plane is
 * `radius x east scale ratio` wide on the index's: the search misses nothing.
 *
 * Each question runs one filter function created with the index (its state in fields), so asking
 * allocates nothing of ours per point; flatbush's search keeps a small queue per call.
 */
import Flatbush from 'flatbush';
import {
  closestOnSegment,
  METRES_PER_DEGREE,
  metresPerDegreeEast,
  segmentWithinRadius,
  type Line,
} from './geometry.js';

export class LineIndex {
  readonly line: Line;
  private readonly index: Flatbush | null;
  private readonly lat0: number;
  private readonly lon0: number;
  /** Metres east per degree on the index's plane. */
  private readonly east0: number;

  // The question being asked, read by the filters.
  private east = 0;
  private qLat = 0;
  private qLon = 0;
  private radius = 0;
  private fromSegment = 0;
  private toSegment = 0;
  private fromMetres = 0;
  private toMetres = 0;
  private minX = 0;
  private minY = 0;
  private maxX = 0;
  private maxY = 0;
  private found = -1;
  private foundSq = Infinity;
  private foundU = 0;
  private readonly closest = { u: 0, distanceSq: 0 };
  private readonly part = { from: 0, to: 0 };

  constructor(line: Line) {
    this.line = line;
    const count = line.lat.length;
    let south = Infinity;
    let north = -Infinity;
    for (let i = 0; i < count; i++) {
      south = Math.min(south, line.lat[i]!);
      north = Math.max(north, line.lat[i]!);
    }
    this.lat0 = count > 0 ? line.lat[0]! : 0;
    this.lon0 = count > 0 ? line.lon[0]! : 0;
    this.east0 = metresPerDegreeEast(count > 0 ? (south + north) / 2 : 0);
    const segments = Math.max(count - 1, count > 0 ? 1 : 0);
    if (segments === 0) {
      this.index = null;
      return;
    }
    this.index = new Flatbush(segments);
    for (let i = 0; i < segments; i++) {
      const next = Math.min(i + 1, count - 1);
      const x1 = (line.lon[i]! - this.lon0) * this.east0;
      const y1 = (line.lat[i]! - this.lat0) * METRES_PER_DEGREE;
      const x2 = (line.lon[next]! - this.lon0) * this.east0;
      const y2 = (line.lat[next]! - this.lat0) * METRES_PER_DEGREE;
      this.index.add(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
    }
    this.index.finish();
  }

  /** The number of segments (a line of one point has one, of zero length). */
  get segments(): number {
    return Math.max(this.line.lat.length - 1, this.line.lat.length > 0 ? 1 : 0);
  }

  /**
   * The closest point of the line within `radius` metres of (lat, lon): its distance, metres along
   * the line and fraction of its length (the lowest segment of equals); null when none is that near.
   */
  nearest(lat: number, lon: number, radius: number): { metres: number; along: number; fraction: number } | null {
    this.ask(lat, lon, radius, 0, this.segments - 1);
    this.found = -1;
    this.foundSq = radius * radius;
    this.search(this.keepClosest);
    if (this.found < 0) return null;
    const { cum, length } = this.line;
    const next = Math.min(this.found + 1, cum.length - 1);
    const along = cum[this.found]! + (cum[next]! - cum[this.found]!) * this.foundU;
    return { metres: Math.sqrt(this.foundSq), along, fraction: length > 0 ? along / length : 0 };
  }

  /**
   * Whether some point of the line between `fromMetres` and `toMetres` along it lies within
   * `radius` of (lat, lon): route matching's "within 50 m of B's line at a point whose fraction is
   * within 0.15". Stops at the first segment that answers yes.
   */
  reaches(lat: number, lon: number, radius: number, fromMetres: number, toMetres: number): boolean {
    this.ask(lat, lon, radius, 0, this.segments - 1);
    this.fromMetres = fromMetres;
    this.toMetres = toMetres;
    return this.index !== null && this.index.collides(this.minX, this.minY, this.maxX, this.maxY, this.reachesAlong);
  }

  /**
   * The lowest (or, with `last`, highest) segment in [fromSegment, toSegment] that comes within
   * `radius` of (lat, lon); -1 when none does.
   */
  segmentWithin(
    lat: number,
    lon: number,
    radius: number,
    fromSegment: number,
    toSegment: number,
    last = false,
  ): number {
    if (fromSegment > toSegment) return -1;
    this.ask(lat, lon, radius, fromSegment, toSegment);
    this.found = -1;
    this.search(last ? this.keepHighest : this.keepLowest);
    return this.found;
  }

  private ask(lat: number, lon: number, radius: number, fromSegment: number, toSegment: number): void {
    this.east = metresPerDegreeEast(lat);
    this.qLat = lat;
    this.qLon = lon;
    this.radius = radius;
    this.fromSegment = fromSegment;
    this.toSegment = toSegment;
    // The question's box on the index's plane (with a millimetre for rounding).
    const x = (lon - this.lon0) * this.east0;
    const y = (lat - this.lat0) * METRES_PER_DEGREE;
    const halfWidth = (radius * this.east0) / this.east + 1e-3;
    const halfHeight = radius + 1e-3;
    this.minX = x - halfWidth;
    this.minY = y - halfHeight;
    this.maxX = x + halfWidth;
    this.maxY = y + halfHeight;
  }

  private search(filter: (segment: number) => boolean): void {
    this.index?.search(this.minX, this.minY, this.maxX, this.maxY, filter);
  }

  /** The segment's squared distance on the question's plane, its closest fraction in `closest`. */
  private measure(segment: number): number {
    const { lat, lon } = this.line;
    const next = Math.min(segment + 1, lat.length - 1);
    closestOnSegment(
      (lon[segment]! - this.qLon) * this.east,
      (lat[segment]! - this.qLat) * METRES_PER_DEGREE,
      (lon[next]! - this.qLon) * this.east,
      (lat[next]! - this.qLat) * METRES_PER_DEGREE,
      this.closest,
    );
    return this.closest.distanceSq;
  }

  private readonly inRange = (segment: number): boolean =>
    segment >= this.fromSegment && segment <= this.toSegment && this.measure(segment) <= this.radius * this.radius;

  // The filters always answer false (nothing collected): what they find is kept in fields.
  private readonly keepClosest = (segment: number): boolean => {
    const sq = this.measure(segment);
    if (sq < this.foundSq || (sq === this.foundSq && (this.found < 0 || segment < this.found))) {
      this.found = segment;
      this.foundSq = sq;
      this.foundU = this.closest.u;
    }
    return false;
  };

  private readonly keepLowest = (segment: number): boolean => {
    if ((this.found < 0 || segment < this.found) && this.inRange(segment)) this.found = segment;
    return false;
  };

  private readonly keepHighest = (segment: number): boolean => {
    if (segment > this.found && this.inRange(segment)) this.found = segment;
    return false;
  };

  private readonly reachesAlong = (segment: number): boolean => {
    const { lat, lon, cum } = this.line;
    const next = Math.min(segment + 1, lat.length - 1);
    // Segments wholly before or after the wanted stretch of the line cannot answer.
    if (cum[next]! < this.fromMetres || cum[segment]! > this.toMetres) return false;
    const within = segmentWithinRadius(
      (lon[segment]! - this.qLon) * this.east,
      (lat[segment]! - this.qLat) * METRES_PER_DEGREE,
      (lon[next]! - this.qLon) * this.east,
      (lat[next]! - this.qLat) * METRES_PER_DEGREE,
      this.radius,
      this.part,
    );
    if (!within) return false;
    const span = cum[next]! - cum[segment]!;
    const from = cum[segment]! + span * this.part.from;
    const to = cum[segment]! + span * this.part.to;
    return from <= this.toMetres && to >= this.fromMetres;
  };
}

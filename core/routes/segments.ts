/**
 * Segment efforts (CONTRACT.md §22): where a run passed a segment a runner marked, and its timer
 * time over it.
 *
 * - A visit of a point is a stretch of the run's line that stays within 25 m of it, timed at its
 *   sample nearest to the point. A stretch is measured on the line (its segments), so a line that
 *   crosses the circle between two samples outside it visits too, timed at the nearer of the two.
 * - A pass pairs a visit of the segment's first point with the earliest later visit of its last
 *   point (a different visit, timed at a later sample) such that at least 90% of the segment's path,
 *   resampled every 10 m, lies within 25 m of the run's line between the two visits' samples. The
 *   next pass is looked for from that last visit on: a loop segment run lap after lap, whose last
 *   point is its first, gives one pass a lap.
 * - The effort's time is the timer time (pauses left out) between the two visits' samples, in whole
 *   seconds rounded half up.
 *
 * How passes are found without trying every pair of visits: the line between an earlier visit and a
 * given last visit holds the line between a later one and it, so the share of the path it covers
 * can only shrink as the first visit moves later. From the first visit v of the first point still
 * to be looked at, each point of the path has a first segment of the run, at or after v, that comes
 * within 25 m of it; the 90%-th smallest of those says the earliest sample a last visit must come
 * after. If v finds none, no later visit can. Of the visits of the first point from v up to that
 * last visit, the pass takes the latest that still covers 90% (the same order statistic, taken
 * backwards): a runner who circled the start before setting off is timed from when they set off.
 */
import type { Track } from '../tracks/types.js';
import { PauseTimeline, timerMs } from '../tracks/timing.js';
import {
  lineOfTrack,
  METRES_PER_DEGREE,
  metresPerDegreeEast,
  resample,
  segmentWithinRadius,
  type Line,
  type TrackLine,
} from './geometry.js';
import { LineIndex } from './line-index.js';

export const SEGMENT_RADIUS_M = 25;

/** A segment made ready for matching: its path, its points every 10 m and its two ends. */
export interface PreparedSegment {
  readonly path: Line;
  readonly points: Line;
  /** 90% of the points, rounded up: how many the run's line must come near. */
  readonly needed: number;
}

export function prepareSegment(path: Line): PreparedSegment {
  const points = resample(path);
  return { path, points, needed: Math.ceil((points.lat.length * 9) / 10) };
}

/** A run made ready for matching against segments: its line, indexed, and its clock. */
export interface SegmentRun {
  readonly track: Pick<Track, 't' | 'pauses'>;
  readonly line: TrackLine;
  readonly index: LineIndex;
  readonly pauses: PauseTimeline;
}

/** Null when the track has no positions. */
export function prepareSegmentRun(track: Pick<Track, 't' | 'lat' | 'lon' | 'pauses'>): SegmentRun | null {
  const line = lineOfTrack(track);
  if (!line) return null;
  return { track, line, index: new LineIndex(line), pauses: new PauseTimeline(track.pauses) };
}

/** A stretch of the run's line within 25 m of a point, by the line's vertices. */
export interface Visit {
  /**
   * The vertices around the stretch: from the one before it enters to the one where it has left (the
   * crossing segment's two when no vertex lies inside).
   */
  first: number;
  last: number;
  /** The vertex nearest to the point (the first of equals): the visit's time is its sample's. */
  at: number;
}

/** The visits of the line to the point (lat, lon), in order. */
export function visitsOf(line: Line, lat: number, lon: number, radius = SEGMENT_RADIUS_M): Visit[] {
  const visits: Visit[] = [];
  const count = line.lat.length;
  const east = metresPerDegreeEast(lat);
  const radiusSq = radius * radius;
  const part = { from: 0, to: 0 };
  let open: Visit | null = null;
  let openSq = Infinity;
  let previousX = 0;
  let previousY = 0;
  let previousSq = Infinity;
  for (let i = 0; i < count; i++) {
    const x = (line.lon[i]! - lon) * east;
    const y = (line.lat[i]! - lat) * METRES_PER_DEGREE;
    const sq = x * x + y * y;
    if (sq <= radiusSq) {
      if (!open) {
        // The stretch began on the segment that led here.
        open = { first: Math.max(i - 1, 0), last: i, at: i };
        openSq = sq;
        visits.push(open);
      } else if (sq < openSq) {
        open.at = i;
        openSq = sq;
      }
      open.last = i;
    } else {
      if (open) {
        open.last = i;
        open = null;
      } else if (i > 0 && previousSq > radiusSq && segmentWithinRadius(previousX, previousY, x, y, radius, part)) {
        // The line crosses the circle between two samples outside it.
        visits.push({ first: i - 1, last: i, at: previousSq <= sq ? i - 1 : i });
      }
    }
    previousX = x;
    previousY = y;
    previousSq = sq;
  }
  return visits;
}

/** A pass: the visit of the first point and the visit of the last point that time it. */
export interface Pass {
  start: Visit;
  end: Visit;
}

/**
 * The passes of a run over a segment, in order. Each path point is asked twice a pass (first and
 * last segment within 25 m), through the run's index; nothing is allocated per point.
 */
export function passesOf(segment: PreparedSegment, run: SegmentRun): Pass[] {
  const { path, points, needed } = segment;
  const { line, index } = run;
  const passes: Pass[] = [];
  const pointCount = points.lat.length;
  const lastSegment = index.segments - 1;
  if (pointCount === 0 || line.lat.length < 2) return passes;
  const startLat = path.lat[0]!;
  const startLon = path.lon[0]!;
  const endLat = path.lat[path.lat.length - 1]!;
  const endLon = path.lon[path.lon.length - 1]!;
  // A run that never comes near the first point has no visit of it: one question, not a walk.
  if (index.segmentWithin(startLat, startLon, SEGMENT_RADIUS_M, 0, lastSegment) < 0) return passes;
  const starts = visitsOf(line, startLat, startLon);
  const ends = visitsOf(line, endLat, endLon);
  const reach = new Float64Array(pointCount);
  let from = 0;
  let startAt = 0;
  let endAt = 0;
  for (;;) {
    while (startAt < starts.length && starts[startAt]!.at < from) startAt++;
    const v = starts[startAt];
    if (!v) break;
    // The first segment from v on near each point; the needed-th smallest bounds the last visit.
    for (let k = 0; k < pointCount; k++) {
      const s = index.segmentWithin(points.lat[k]!, points.lon[k]!, SEGMENT_RADIUS_M, v.at, lastSegment);
      reach[k] = s < 0 ? Infinity : s;
    }
    reach.sort();
    const latestNeeded = reach[needed - 1]!;
    if (latestNeeded === Infinity) break;
    // The line between v and a visit at vertex w holds segments v.at .. w - 1.
    while (endAt < ends.length && ends[endAt]!.at < latestNeeded + 1) endAt++;
    const w = ends[endAt];
    if (!w) break;
    // The last segment before w near each point; the needed-th largest bounds the latest start.
    for (let k = 0; k < pointCount; k++) {
      const s = index.segmentWithin(points.lat[k]!, points.lon[k]!, SEGMENT_RADIUS_M, v.at, w.at - 1, true);
      reach[k] = s < 0 ? -Infinity : s;
    }
    reach.sort();
    const earliestNeeded = reach[pointCount - needed]!;
    let latest = startAt;
    while (latest + 1 < starts.length && starts[latest + 1]!.at <= earliestNeeded) latest++;
    passes.push({ start: starts[latest]!, end: w });
    from = w.at;
  }
  return passes;
}

/** One effort: a pass timed by the run's clock. */
export interface SegmentEffort {
  /** The samples (indices in the track's columns) of the two visits. */
  startSample: number;
  endSample: number;
  /** Elapsed and timer milliseconds between them. */
  elapsedMs: number;
  timerMs: number;
  /** Timer time in whole seconds, halves up: the effort's time. */
  seconds: number;
}

/** The efforts of a run over a segment, one per pass, in order. */
export function segmentEfforts(segment: PreparedSegment, run: SegmentRun): SegmentEffort[] {
  const { t } = run.track;
  return passesOf(segment, run).map(({ start, end }) => {
    const startSample = run.line.sample[start.at]!;
    const endSample = run.line.sample[end.at]!;
    const fromMs = Math.round(t[startSample]! * 1000);
    const toMs = Math.round(t[endSample]! * 1000);
    const timer = timerMs(run.pauses, fromMs, toMs);
    return {
      startSample,
      endSample,
      elapsedMs: toMs - fromMs,
      timerMs: timer,
      seconds: Math.floor((timer + 500) / 1000),
    };
  });
}

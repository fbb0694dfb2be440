/**
 * The pure work of routes and segments (CONTRACT.md §22) over stored tracks, as the matching
 * thread (matching.worker.ts) and `npm run tallies:rebuild` do it: tracks decoded, routes grouped
 * (core/routes/routes.ts), segment efforts found (core/routes/segments.ts).
 */
import { lineFrom, lineOfTrack, type Line } from '../../../core/routes/geometry.js';
import { extendRoutes, groupRoutes, type RouteRun, type RouteState } from '../../../core/routes/routes.js';
import {
  prepareSegment,
  prepareSegmentRun,
  segmentEfforts,
  type PreparedSegment,
} from '../../../core/routes/segments.js';
import { decodeTrack } from '../tracks/tracks.service.js';

/** A tracked run as stored: its date, its distance, its packed track. */
export interface StoredRun {
  id: number;
  date: string;
  distanceM: number;
  data: Uint8Array;
}

/** A segment's path as stored: [[lat, lon], ...]. */
export interface StoredSegment {
  id: number;
  path: [number, number][];
}

export interface FoundEffort {
  segmentId: number;
  entryId: number;
  seconds: number;
  startSample: number;
}

/** The routes of a runner's runs: each route's founding run and its runs in (date, id) order. */
export function groupStoredRuns(runs: readonly StoredRun[]): { founder: number; runs: number[] }[] {
  const lines: RouteRun[] = [];
  for (const run of runs) {
    const line = safeLine(run.data);
    if (line) lines.push({ id: run.id, date: run.date, distanceM: run.distanceM, line });
  }
  return groupRoutes(lines).routes;
}

/** Where a runner's grouping stood, as stored: each route's founding run and runs, and the runs on no route. */
export interface StoredGrouping {
  routes: { founder: StoredRun; runs: number[] }[];
  alone: StoredRun[];
}

/**
 * The routes once `runs`, all later in (date, id) order than the runs of `from`, are taken into
 * it: the same as grouping every run from the start (extendRoutes). A run that cannot be read is
 * left out, as groupStoredRuns leaves it.
 */
export function extendStoredGrouping(
  from: StoredGrouping,
  runs: readonly StoredRun[],
): { founder: number; runs: number[] }[] {
  const routeRun = (run: StoredRun): RouteRun | null => {
    const line = safeLine(run.data);
    return line ? { id: run.id, date: run.date, distanceM: run.distanceM, line } : null;
  };
  const state: RouteState = { routes: [], alone: [] };
  for (const route of from.routes) {
    const founder = routeRun(route.founder);
    if (founder) state.routes.push({ founder, runs: [...route.runs] });
  }
  for (const run of from.alone) {
    const read = routeRun(run);
    if (read) state.alone.push(read);
  }
  const added: RouteRun[] = [];
  for (const run of runs) {
    const read = routeRun(run);
    if (read) added.push(read);
  }
  extendRoutes(state, added);
  return state.routes.map((route) => ({ founder: route.founder.id, runs: route.runs }));
}

/** Every effort of these runs over these segments (a run that cannot be read has none). */
export function effortsOfRuns(
  segments: readonly StoredSegment[],
  runs: readonly Pick<StoredRun, 'id' | 'data'>[],
): FoundEffort[] {
  const prepared = segments.map((s) => ({ id: s.id, segment: preparedSegmentOf(s.path) }));
  const found: FoundEffort[] = [];
  for (const run of runs) {
    let track;
    try {
      track = decodeTrack(run.data);
    } catch {
      continue;
    }
    const segmentRun = prepareSegmentRun(track);
    if (!segmentRun) continue;
    for (const { id, segment } of prepared) {
      for (const effort of segmentEfforts(segment, segmentRun)) {
        found.push({ segmentId: id, entryId: run.id, seconds: effort.seconds, startSample: effort.startSample });
      }
    }
  }
  return found;
}

export function preparedSegmentOf(path: readonly [number, number][]): PreparedSegment {
  return prepareSegment(lineOfPath(path));
}

export const lineOfPath = (path: readonly [number, number][]): Line =>
  lineFrom(
    path.map((p) => p[0]),
    path.map((p) => p[1]),
  );

function safeLine(data: Uint8Array): Line | null {
  try {
    return lineOfTrack(decodeTrack(data));
  } catch {
    return null;
  }
}

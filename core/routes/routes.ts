/**
 * Routes (CONTRACT.md §22): when two runs went the same way, and which runs of a runner form a route.
 *
 * Run B matches run A when their starts lie within 200 m and their ends within 200 m, their
 * distances differ by at most 10% of the larger, and at least 90% of A's points every 10 m lie within
 * 50 m of B's line at a point whose fraction of B's length is within 0.15 of the point's own fraction
 * of A's length, and the same with A and B swapped (so a loop run backwards does not match).
 *
 * The share of a match is the smaller of the two shares of points: the same whichever run is asked
 * first, so grouping can compare it between routes.
 */
import { greatCircleMetres, resample, type Line } from './geometry.js';
import { LineIndex } from './line-index.js';

export const ROUTE_END_RADIUS_M = 200;
export const ROUTE_DISTANCE_TOLERANCE = 0.1;
export const ROUTE_LINE_RADIUS_M = 50;
export const ROUTE_FRACTION_WINDOW = 0.15;

/** A run as route matching sees it. */
export interface RouteRun {
  id: number;
  /** YYYY-MM-DD: runs are taken in (date, id) order. */
  date: string;
  /** The run's distance in metres (the entry's, which routes' `distance` reports). */
  distanceM: number;
  /** Its positions joined into a line. */
  line: Line;
}

/** A run made ready for many comparisons: its points every 10 m and its indexed line, built once. */
export interface PreparedRouteRun extends RouteRun {
  readonly points: Line;
  readonly index: LineIndex;
}

export function prepareRouteRun(run: RouteRun): PreparedRouteRun {
  return { ...run, points: resample(run.line), index: new LineIndex(run.line) };
}

export interface RouteMatch {
  matches: boolean;
  /**
   * The smaller of the two shares of points (0-1), the same whichever run comes first; 0 when the ends
   * or distances already differ, and short of the truth when a share fell below 90% on the way.
   */
  share: number;
}

/**
 * How many of `from`'s points every 10 m lie within 50 m of `to`'s line at a fraction of its length
 * within 0.15 of their own, of how many. Unless asked for the exact count, stops as soon as 90% can
 * no longer be reached (`near` is then short of it).
 */
export function pointsNear(
  from: PreparedRouteRun,
  to: PreparedRouteRun,
  exact = false,
): { near: number; count: number } {
  const { points } = from;
  const count = points.lat.length;
  const fromLength = from.line.length;
  const toLength = to.line.length;
  const allowedMisses = exact ? count : count - Math.ceil((count * 9) / 10);
  let near = 0;
  let misses = 0;
  for (let k = 0; k < count; k++) {
    const fraction = fromLength > 0 ? points.cum[k]! / fromLength : 0;
    const fromMetres = (fraction - ROUTE_FRACTION_WINDOW) * toLength;
    const toMetres = (fraction + ROUTE_FRACTION_WINDOW) * toLength;
    if (to.index.reaches(points.lat[k]!, points.lon[k]!, ROUTE_LINE_RADIUS_M, fromMetres, toMetres)) near++;
    else if (++misses > allowedMisses) break;
  }
  return { near, count };
}

/** At least 90% (10 x near >= 9 x count, in integers), of at least one point. */
const isEnough = ({ near, count }: { near: number; count: number }) => count > 0 && 10 * near >= 9 * count;

/** Whether two runs match as one route (§22), and the share of points that says how well. */
export function routesMatch(a: PreparedRouteRun, b: PreparedRouteRun): RouteMatch {
  if (!mayMatch(a, b)) return { matches: false, share: 0 };
  const aOnB = pointsNear(a, b);
  if (!isEnough(aOnB)) return { matches: false, share: aOnB.near / Math.max(aOnB.count, 1) };
  const bOnA = pointsNear(b, a);
  const share = Math.min(aOnB.near / aOnB.count, bOnA.near / Math.max(bOnA.count, 1));
  return { matches: isEnough(bOnA), share };
}

/** The tests of §22 that need no points: distances, starts and ends. */
export function mayMatch(a: RouteRun, b: RouteRun): boolean {
  if (a.line.lat.length === 0 || b.line.lat.length === 0) return false;
  if (Math.abs(a.distanceM - b.distanceM) > ROUTE_DISTANCE_TOLERANCE * Math.max(a.distanceM, b.distanceM)) return false;
  return endsNear(a.line, b.line, first) && endsNear(a.line, b.line, last);
}

const endsNear = (a: Line, b: Line, at: (line: Line) => number): boolean =>
  greatCircleMetres(a.lat[at(a)]!, a.lon[at(a)]!, b.lat[at(b)]!, b.lon[at(b)]!) <= ROUTE_END_RADIUS_M;
const first = () => 0;
const last = (line: Line) => line.lat.length - 1;

/** A route: its founding run (its earliest) and its runs in (date, id) order. */
export interface RouteGroup {
  founder: number;
  runs: number[];
}

export interface RouteGrouping {
  routes: RouteGroup[];
  /** Each run's route, by the route's founding run; null for a run on no route. */
  founderOf: Map<number, number | null>;
}

/** (date, id) order. */
export function byDateThenId(a: Pick<RouteRun, 'date' | 'id'>, b: Pick<RouteRun, 'date' | 'id'>): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id;
}

/**
 * Groups runs into routes (§22), taking them in (date, id) order whatever the order given: a run
 * joins the route whose founding run it matches with the highest share (ties: the older route, the
 * one whose founding run comes first);
 * else, if it matches an earlier run on no route, the two found a route (of several such runs, the
 * one with the highest share, ties the earliest); else it stays on no route, for a later run to
 * pair with. Routes come in their founding runs' order.
 *
 * Cheap tests first: two runs are compared point by point only when their distances, starts and
 * ends allow a match.
 */
export function groupRoutes(runs: readonly RouteRun[], prepare = prepareRouteRun): RouteGrouping {
  const state: RouteState = { routes: [], alone: [] };
  const founderOf = new Map<number, number | null>();
  extendRoutes(state, runs, prepare, founderOf);
  return { routes: state.routes.map((route) => ({ founder: route.founder.id, runs: route.runs })), founderOf };
}

/**
 * Where grouping stands after some runs: the routes (their founding runs, in (date, id) order, and
 * their runs) and the runs on no route, in (date, id) order.
 */
export interface RouteState {
  routes: { founder: RouteRun; runs: number[] }[];
  alone: RouteRun[];
}

/**
 * Takes `runs` in (date, id) order into a grouping (groupRoutes' step, which it repeats for each
 * run). Given the state that grouping some runs left, and runs that all come after them in (date,
 * id) order, it leaves what grouping all of them from the start would: a run is only ever compared
 * with the routes' founding runs and the runs on no route before it. Changes `state` in place.
 */
export function extendRoutes(
  state: RouteState,
  runs: readonly RouteRun[],
  prepare = prepareRouteRun,
  founderOf = new Map<number, number | null>(),
): RouteState {
  const ordered = [...runs].sort(byDateThenId);
  const prepared = new Map<number, PreparedRouteRun>();
  const preparedOf = (run: RouteRun) => {
    let p = prepared.get(run.id);
    if (!p) prepared.set(run.id, (p = prepare(run)));
    return p;
  };
  const { routes, alone } = state;
  for (const run of ordered) {
    const best = bestMatch(run, routes, (route) => route.founder, preparedOf);
    if (best) {
      best.runs.push(run.id);
      founderOf.set(run.id, best.founder.id);
      continue;
    }
    const partner = bestMatch(run, alone, (other) => other, preparedOf);
    if (partner) {
      alone.splice(alone.indexOf(partner), 1);
      routes.push({ founder: partner, runs: [partner.id, run.id] });
      routes.sort((x, y) => byDateThenId(x.founder, y.founder));
      founderOf.set(partner.id, partner.id);
      founderOf.set(run.id, partner.id);
      continue;
    }
    alone.push(run);
    founderOf.set(run.id, null);
  }
  return state;
}

/** Of candidates in order, the one whose run `run` matches with the highest share (ties: the first). */
function bestMatch<T>(
  run: RouteRun,
  candidates: readonly T[],
  runOf: (candidate: T) => RouteRun,
  preparedOf: (run: RouteRun) => PreparedRouteRun,
): T | null {
  let best: T | null = null;
  let bestShare = -1;
  for (const candidate of candidates) {
    const other = runOf(candidate);
    if (!mayMatch(run, other)) continue;
    const match = routesMatch(preparedOf(run), preparedOf(other));
    if (match.matches && match.share > bestShare) {
      best = candidate;
      bestShare = match.share;
    }
  }
  return best;
}

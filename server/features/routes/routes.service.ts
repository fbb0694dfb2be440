/**
 * Routes and segments (CONTRACT.md §22, decision 043): a runner's own, read and renamed here, made
 * by matching off the request path. The matcher (one per app, in `ctx.memory.routes`) keeps a job
 * per runner: segments to match against all their runs, runs not yet matched against their
 * segments (`tracks.segments_matched`), and their routes to regroup from the start. The CPU work
 * runs on the matching thread (matching-thread.ts); its results are written in short transactions
 * of at most MATCH_BATCH runs, so that on SQLite no other writer waits long.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../../../core/permissions.js';
import { segmentPath } from '../../../core/routes/geometry.js';
import { SEGMENT_RADIUS_M } from '../../../core/routes/segments.js';
import {
  MAX_SEGMENTS,
  SEGMENT_BEYOND_TRACK_MESSAGE,
  SEGMENT_RUN_MESSAGE,
  TOO_MANY_SEGMENTS,
  type Effort,
  type NameBody,
  type RouteSummary,
  type SegmentBody,
  type SegmentSummary,
} from '../../../core/routes/schemas.js';
import { formatDuration, paceMinPerKm, round2, roundKm } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext, type RunsFollower } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { moveAnswerRevision } from '../../db/tallies.js';
import { invalid, notFound } from '../../errors.js';
import { decodeTrack } from '../tracks/tracks.service.js';
import {
  effortsOfRuns,
  extendStoredGrouping,
  groupStoredRuns,
  type FoundEffort,
  type StoredGrouping,
  type StoredRun,
  type StoredSegment,
} from './compute.js';
import { MatchingThread } from './matching-thread.js';
import * as repo from './routes.repository.js';

/** Runs matched against segments, and tracks read for grouping, per transaction or message. */
export const MATCH_BATCH = 50;
/** How long matching waits before it starts: the request that brought the work answers first. */
const START_DELAY_MS = 20;

// ---- Matching ----

interface Job {
  regroup: boolean;
  segments: Set<number>;
  unmatched: boolean;
}

/** What matching computes: on the matching thread in the app, inline in a script. */
export interface MatchingWork {
  group(runs: StoredRun[]): Promise<{ founder: number; runs: number[] }[]>;
  extend(from: StoredGrouping, runs: StoredRun[]): Promise<{ founder: number; runs: number[] }[]>;
  efforts(segments: StoredSegment[], runs: Pick<StoredRun, 'id' | 'data'>[]): Promise<FoundEffort[]>;
  close(): Promise<void>;
}

export const inlineWork: MatchingWork = {
  group: async (runs) => groupStoredRuns(runs),
  extend: async (from, runs) => extendStoredGrouping(from, runs),
  efforts: async (segments, runs) => effortsOfRuns(segments, runs),
  close: async () => undefined,
};

export class RoutesMatcher implements RunsFollower {
  private readonly jobs = new Map<number, Job>();
  private running: Promise<void> | null = null;
  private closed = false;
  /** The last failure of a job (its runner's flags stay set: the next start matches again). */
  lastError: unknown = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly work: MatchingWork = new MatchingThread(),
    private readonly log: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * A runner's runs changed (stored, edited, deleted): their routes regroup, and runs not yet
   * matched against their segments are. Their `matching` flags are set before this resolves.
   */
  async runsChanged(userId: number): Promise<void> {
    await inTransaction(this.ctx, async (trx) => {
      await repo.setRoutesMatching(trx, userId, true);
      if ((await repo.unmatchedRuns(trx, userId, 1)).length > 0)
        await repo.setSegmentsMatching(trx, userId, 'all', true);
      // Kept answers of routes and segments show `matching`.
      await moveAnswerRevision(trx, [userId]);
    });
    this.add(userId, { regroup: true, unmatched: true });
  }

  trackMembers(db: Executor, entryId: number): Promise<string> {
    return trackMembers(db, entryId);
  }

  /** A new segment (stored with `matching` set) is matched against all its owner's runs. */
  segmentAdded(userId: number, segmentId: number): void {
    this.add(userId, { segments: [segmentId] });
  }

  /** Jobs left by a server that stopped during them (their flags still set). */
  async resume(): Promise<void> {
    for (const userId of await repo.usersMatching(this.ctx.db)) {
      const segments = (await repo.segmentsOf(this.ctx.db, userId)).filter((s) => s.matching).map((s) => s.id);
      this.add(userId, { regroup: true, unmatched: true, segments });
    }
  }

  /** Resolves once no job is left (tests, scripts). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle().catch(() => undefined);
    await this.work.close();
  }

  private add(userId: number, job: { regroup?: boolean; unmatched?: boolean; segments?: number[] }): void {
    if (this.closed) return;
    const pending = this.jobs.get(userId) ?? { regroup: false, unmatched: false, segments: new Set<number>() };
    pending.regroup ||= job.regroup ?? false;
    pending.unmatched ||= job.unmatched ?? false;
    for (const id of job.segments ?? []) pending.segments.add(id);
    this.jobs.set(userId, pending);
    // A moment's wait first: the request that brought the work answers before matching reads anything.
    this.running ??= new Promise((resolve) => setTimeout(resolve, START_DELAY_MS))
      .then(() => this.drain())
      .finally(() => {
        this.running = null;
      });
  }

  private async drain(): Promise<void> {
    while (!this.closed && this.jobs.size > 0) {
      const [userId, job] = this.jobs.entries().next().value as [number, Job];
      this.jobs.delete(userId);
      try {
        await runJob(this.ctx, this.work, userId, job, () => this.jobs.get(userId));
      } catch (error) {
        this.lastError = error;
        this.log(error);
      }
    }
  }
}

async function runJob(
  ctx: AppContext,
  work: MatchingWork,
  userId: number,
  job: Job,
  next: () => Job | undefined,
): Promise<void> {
  // The segments this job leaves matched: a segment made meanwhile keeps `matching` for its own job.
  const known = (await repo.segmentsOf(ctx.db, userId)).map((s) => s.id);
  if (job.segments.size > 0) await matchSegments(ctx, work, userId, [...job.segments]);
  if (job.unmatched) await matchUnmatchedRuns(ctx, work, userId);
  if (!next()?.unmatched) {
    await inTransaction(ctx, async (trx) => {
      if ((await repo.unmatchedRuns(trx, userId, 1)).length > 0) return;
      const pending = next()?.segments ?? new Set<number>();
      await repo.setSegmentsMatching(
        trx,
        userId,
        known.filter((id) => !pending.has(id)),
        false,
      );
      await moveAnswerRevision(trx, [userId]);
    });
  }
  if (job.regroup) await regroup(ctx, work, userId, () => Boolean(next()?.regroup));
}

/**
 * New segments against every run of their owner whose bounds hold both ends of one of them: each
 * run decoded once for all of them (a segment whose start the run never nears costs microseconds).
 */
async function matchSegments(ctx: AppContext, work: MatchingWork, userId: number, ids: number[]): Promise<void> {
  const wanted = new Set(ids);
  const segments = (await repo.segmentsOf(ctx.db, userId)).filter((s) => wanted.has(s.id));
  if (segments.length === 0) return;
  const candidates = new Set<number>();
  for (const segment of segments) {
    const first = segment.path[0]!;
    const last = segment.path[segment.path.length - 1]!;
    const lat = (SEGMENT_RADIUS_M * 2) / 111_000;
    const lon = lat / Math.max(0.01, Math.cos((Math.max(Math.abs(first[0]), Math.abs(last[0])) * Math.PI) / 180));
    for (const id of await repo.runsNear(ctx.db, userId, first, last, { lat, lon })) candidates.add(id);
  }
  const ordered = [...candidates].sort((a, b) => a - b);
  const stored: StoredSegment[] = segments.map((s) => ({ id: s.id, path: s.path }));
  const segmentIds = segments.map((s) => s.id);
  for (let i = 0; i < ordered.length; i += MATCH_BATCH) {
    const runIds = ordered.slice(i, i + MATCH_BATCH);
    const runs = await repo.trackData(ctx.db, userId, runIds);
    const efforts = await work.efforts(stored, runs);
    await inTransaction(ctx, async (trx) => {
      await repo.replaceEfforts(trx, userId, segmentIds, runIds, efforts);
      await moveAnswerRevision(trx, [userId]);
    });
  }
}

/** The runs not yet matched against their owner's segments, MATCH_BATCH at a time. */
async function matchUnmatchedRuns(ctx: AppContext, work: MatchingWork, userId: number): Promise<void> {
  for (;;) {
    const ids = await repo.unmatchedRuns(ctx.db, userId, MATCH_BATCH);
    if (ids.length === 0) return;
    const segments = (await repo.segmentsOf(ctx.db, userId)).map((s) => ({ id: s.id, path: s.path }));
    const runs = segments.length > 0 ? await repo.trackData(ctx.db, userId, ids) : [];
    const efforts = segments.length > 0 ? await work.efforts(segments, runs) : [];
    await inTransaction(ctx, async (trx) => {
      await repo.replaceEfforts(
        trx,
        userId,
        segments.map((s) => s.id),
        ids,
        efforts,
      );
      await repo.markRunsMatched(trx, ids);
      if (efforts.length > 0) await moveAnswerRevision(trx, [userId]);
    });
  }
}

type Listed = Awaited<ReturnType<typeof repo.trackedRuns>>;
type Groups = { founder: number; runs: number[] }[];

/** What grouping reads of these runs, in their order, as a SHA-256 (route_owners.grouped_hash). */
function fingerprint(runs: Listed): string {
  const hash = createHash('sha256');
  for (const run of runs) hash.update(`${run.id}|${run.date}|${run.distanceM}|${run.track}\n`);
  return hash.digest('hex');
}

/** The packed tracks of these runs, MATCH_BATCH at a time. */
async function storedRuns(ctx: AppContext, userId: number, ids: readonly number[]): Promise<StoredRun[]> {
  const byId = new Map<number, StoredRun>();
  for (let i = 0; i < ids.length; i += MATCH_BATCH) {
    for (const run of await repo.trackData(ctx.db, userId, ids.slice(i, i + MATCH_BATCH))) byId.set(run.id, run);
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The runner's routes (§22): grouped again from the start, unless the runs their stored routes
 * were grouped from are still the first ones in (date, id) order, unchanged (route_owners'
 * grouped_count and grouped_hash): then the runs after them are taken into the stored routes,
 * which reads only the routes' founding runs and the runs on no route (extendRoutes gives what
 * grouping from the start would). Nothing is written when another regroup is already due.
 */
async function regroup(ctx: AppContext, work: MatchingWork, userId: number, again: () => boolean): Promise<void> {
  const listed = await repo.trackedRuns(ctx.db, userId);
  const { grouped } = await repo.routeOwner(ctx.db, userId);
  const groups =
    grouped && grouped.count <= listed.length && grouped.hash === fingerprint(listed.slice(0, grouped.count))
      ? await extendGrouping(ctx, work, userId, listed, grouped.count)
      : null;
  const made =
    groups ??
    (await work.group(
      await storedRuns(
        ctx,
        userId,
        listed.map((r) => r.id),
      ),
    ));
  if (again()) return;
  await inTransaction(ctx, async (trx) => {
    await repo.writeGrouping(trx, userId, made, nowIso(ctx), { count: listed.length, hash: fingerprint(listed) });
    await moveAnswerRevision(trx, [userId]);
  });
}

/**
 * The stored routes of the first `count` runs with the runs after them taken in; null when the
 * stored routes do not hold only those runs (then the caller groups from the start).
 */
async function extendGrouping(
  ctx: AppContext,
  work: MatchingWork,
  userId: number,
  listed: Listed,
  count: number,
): Promise<Groups | null> {
  const position = new Map(listed.slice(0, count).map((run, i) => [run.id, i]));
  const [routes, members] = await Promise.all([repo.routesOf(ctx.db, userId), repo.routeMembers(ctx.db, userId)]);
  const runsOf = new Map<number, number[]>();
  for (const member of members) {
    if (!position.has(member.entryId)) return null;
    const list = runsOf.get(member.routeId);
    if (list) list.push(member.entryId);
    else runsOf.set(member.routeId, [member.entryId]);
  }
  const stored: Groups = [];
  for (const route of routes) {
    const runs = runsOf.get(route.id);
    if (!runs) continue;
    if (!position.has(route.founderId) || !runs.includes(route.founderId)) return null;
    runs.sort((a, b) => position.get(a)! - position.get(b)!);
    if (runs[0] !== route.founderId) return null;
    stored.push({ founder: route.founderId, runs });
  }
  stored.sort((a, b) => position.get(a.founder)! - position.get(b.founder)!);
  const added = listed.slice(count);
  if (added.length === 0) return stored;
  const onRoute = new Set(members.map((m) => m.entryId));
  const alone = listed.slice(0, count).filter((run) => !onRoute.has(run.id));
  const read = await storedRuns(ctx, userId, [
    ...stored.map((g) => g.founder),
    ...alone.map((r) => r.id),
    ...added.map((r) => r.id),
  ]);
  const byId = new Map(read.map((run) => [run.id, run]));
  const from: StoredGrouping = {
    routes: stored.flatMap((g) => {
      const founder = byId.get(g.founder);
      return founder ? [{ founder, runs: g.runs }] : [];
    }),
    alone: alone.flatMap((r) => byId.get(r.id) ?? []),
  };
  // A founding run no longer read (its track gone meanwhile): group from the start.
  if (from.routes.length !== stored.length) return null;
  return work.extend(
    from,
    added.flatMap((r) => byId.get(r.id) ?? []),
  );
}

/** Every runner's routes and segment efforts made again from their tracks alone (the repair command). */
export async function rebuildRoutes(ctx: AppContext, work: MatchingWork = inlineWork): Promise<void> {
  await repo.markAllRunsUnmatched(ctx.db);
  for (const userId of await repo.usersWithTracks(ctx.db)) {
    await ctx.db.deleteFrom('segment_efforts').where('user_id', '=', userId).execute();
    await repo.forgetGrouped(ctx.db, userId);
    await runJob(ctx, work, userId, { regroup: true, unmatched: true, segments: new Set() }, () => undefined);
    await inTransaction(ctx, async (trx) => {
      await repo.setRoutesMatching(trx, userId, false);
      await moveAnswerRevision(trx, [userId]);
    });
  }
}

// ---- Answers ----

const timeOf = (seconds: number) => formatDuration(seconds);
const paceOf = (metres: number, seconds: number) => round2(paceMinPerKm(metres / 1000, seconds));

/** Ranked fastest first: ties by date, then run id; rank = 1 + the number of strictly faster. */
function ranked<T extends { entryId: number; date: string; seconds: number }>(
  rows: readonly T[],
): (T & { rank: number })[] {
  const sorted = [...rows].sort(
    (a, b) => a.seconds - b.seconds || (a.date < b.date ? -1 : a.date > b.date ? 1 : a.entryId - b.entryId),
  );
  let rank = 1;
  return sorted.map((row, i) => {
    if (i > 0 && row.seconds > sorted[i - 1]!.seconds) rank = i + 1;
    return { ...row, rank };
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type RouteRunRow = Awaited<ReturnType<typeof repo.routeRuns>>[number];

function routeSummary(
  route: { id: number; name: string; polyline: string },
  runs: RouteRunRow[],
  matching: boolean,
): RouteSummary {
  const [best] = ranked(runs);
  const lastDate = runs.reduce((last, r) => (r.date > last ? r.date : last), '');
  return {
    id: route.id,
    name: route.name,
    run_count: runs.length,
    distance: roundKm(median(runs.map((r) => r.distanceM)) / 1000),
    best: best
      ? { entry_id: best.entryId, date: best.date, time: timeOf(best.seconds) }
      : { entry_id: 0, date: '', time: '00:00:00' },
    last_date: lastDate,
    polyline: route.polyline,
    matching,
  };
}

/** GET /routes: the caller's routes, newest last run first (ties: the newer route). */
export async function listRoutes(ctx: AppContext, actor: Actor): Promise<RouteSummary[]> {
  const [routes, runs, owner] = await Promise.all([
    repo.routeRows(ctx.db, actor.id),
    repo.routeRuns(ctx.db, actor.id),
    repo.routeOwner(ctx.db, actor.id),
  ]);
  const byRoute = new Map<number, RouteRunRow[]>();
  for (const run of runs) {
    const list = byRoute.get(run.routeId);
    if (list) list.push(run);
    else byRoute.set(run.routeId, [run]);
  }
  return routes
    .filter((route) => byRoute.has(route.id))
    .map((route) => routeSummary(route, byRoute.get(route.id)!, owner.matching))
    .sort((a, b) => (a.last_date < b.last_date ? 1 : a.last_date > b.last_date ? -1 : b.id - a.id));
}

/** GET /routes/{id}: the route and its runs' efforts, fastest first. */
export async function showRoute(ctx: AppContext, actor: Actor, id: number) {
  const [route] = await repo.routeRows(ctx.db, actor.id, id);
  if (!route) throw notFound();
  const runs = await repo.routeRuns(ctx.db, actor.id, id);
  if (runs.length === 0) throw notFound();
  const owner = await repo.routeOwner(ctx.db, actor.id);
  const efforts: Effort[] = ranked(runs).map((r) => ({
    entry_id: r.entryId,
    date: r.date,
    time: timeOf(r.seconds),
    pace: paceOf(r.distanceM, r.seconds),
    rank: r.rank,
  }));
  return { ...routeSummary(route, runs, owner.matching), efforts };
}

/** PUT /routes/{id} {name}. */
export async function renameRoute(ctx: AppContext, actor: Actor, id: number, body: NameBody) {
  const renamed = await inTransaction(ctx, async (trx) => {
    const done = await repo.renameRoute(trx, actor.id, id, body.name);
    if (done) await moveAnswerRevision(trx, [actor.id]);
    return done;
  });
  if (!renamed) throw notFound();
  return showRoute(ctx, actor, id);
}

function segmentSummary(row: Awaited<ReturnType<typeof repo.segmentSummaries>>[number]): SegmentSummary {
  return {
    id: row.id,
    name: row.name,
    distance_m: round2(row.distanceM),
    effort_count: row.effortCount,
    best: row.best ? { entry_id: row.best.entryId, date: row.best.date, time: timeOf(row.best.seconds) } : null,
    matching: row.matching,
  };
}

/** GET /segments: the caller's segments, oldest first. */
export async function listSegments(ctx: AppContext, actor: Actor): Promise<SegmentSummary[]> {
  return (await repo.segmentSummaries(ctx.db, actor.id)).map(segmentSummary);
}

/** GET /segments/{id}: the segment and its efforts, fastest first. */
export async function showSegment(ctx: AppContext, actor: Actor, id: number) {
  const [row] = await repo.segmentSummaries(ctx.db, actor.id, id);
  if (!row) throw notFound();
  const efforts: Effort[] = ranked(await repo.segmentEffortRows(ctx.db, id)).map((r) => ({
    entry_id: r.entryId,
    date: r.date,
    time: timeOf(r.seconds),
    pace: paceOf(row.distanceM, r.seconds),
    rank: r.rank,
  }));
  return { ...segmentSummary(row), efforts };
}

/** POST /segments: stored at once with `matching` set; its efforts fill in from the matching thread. */
export async function createSegment(ctx: AppContext, actor: Actor, body: SegmentBody) {
  const run = await repo.runWithTrack(ctx.db, body.entry_id);
  if (!run || run.userId !== actor.id || !run.data || !run.hasPositions) throw invalid('entry_id', SEGMENT_RUN_MESSAGE);
  const track = decodeTrack(run.data);
  const d = track.d;
  const lastD = d && d.length > 0 ? d[d.length - 1]! - d[0]! : 0;
  if (body.end_m > lastD) throw invalid('end_m', SEGMENT_BEYOND_TRACK_MESSAGE);
  const line = segmentPath(track, body.start_m, body.end_m);
  if (!line || line.lat.length < 2) throw invalid('end_m', SEGMENT_BEYOND_TRACK_MESSAGE);
  const path: [number, number][] = [];
  let [south, west, north, east] = [90, 180, -90, -180];
  for (let i = 0; i < line.lat.length; i++) {
    const lat = Math.round(line.lat[i]! * 1e7) / 1e7;
    const lon = Math.round(line.lon[i]! * 1e7) / 1e7;
    path.push([lat, lon]);
    [south, west, north, east] = [Math.min(south, lat), Math.min(west, lon), Math.max(north, lat), Math.max(east, lon)];
  }
  const id = await inTransaction(ctx, async (trx) => {
    // The runner's row locked (PostgreSQL): two creations at once cannot both be the 200th.
    await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', actor.id)
      .forUpdate()
      .execute()
      .catch(() => undefined);
    if ((await repo.countSegments(trx, actor.id)) >= MAX_SEGMENTS) throw invalid('segment', TOO_MANY_SEGMENTS);
    const made = await repo.insertSegment(
      trx,
      {
        userId: actor.id,
        entryId: body.entry_id,
        name: body.name,
        startM: body.start_m,
        endM: body.end_m,
        path,
        bounds: [
          [south, west],
          [north, east],
        ],
      },
      nowIso(ctx),
    );
    await moveAnswerRevision(trx, [actor.id]);
    return made;
  });
  matcherOf(ctx)?.segmentAdded(actor.id, id);
  return showSegment(ctx, actor, id);
}

/** PUT /segments/{id} {name}. */
export async function renameSegment(ctx: AppContext, actor: Actor, id: number, body: NameBody) {
  const renamed = await inTransaction(ctx, async (trx) => {
    const done = await repo.renameSegment(trx, actor.id, id, body.name, nowIso(ctx));
    if (done) await moveAnswerRevision(trx, [actor.id]);
    return done;
  });
  if (!renamed) throw notFound();
  return showSegment(ctx, actor, id);
}

/** DELETE /segments/{id}: the segment and its efforts. */
export async function deleteSegment(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const deleted = await inTransaction(ctx, async (trx) => {
    const done = await repo.deleteSegment(trx, actor.id, id);
    if (done) await moveAnswerRevision(trx, [actor.id]);
    return done;
  });
  if (!deleted) throw notFound();
}

/**
 * §22's members of a run's track page: `"route":...,"segments":[...]` as JSON text, ranked among
 * the route's runs and the segments' efforts.
 */
export async function trackMembers(db: Executor, entryId: number): Promise<string> {
  const found = await repo.runMembership(db, entryId);
  let route = null;
  if (found.route) {
    const runs = ranked(await repo.routeRuns(db, found.route.userId, found.route.id));
    const own = runs.find((r) => r.entryId === entryId);
    const best = runs[0];
    route = {
      id: found.route.id,
      name: found.route.name,
      rank: own?.rank ?? null,
      best: best ? { entry_id: best.entryId, date: best.date, time: timeOf(best.seconds) } : null,
    };
  }
  const segments = found.efforts.map((e) => ({ id: e.id, name: e.name, time: timeOf(e.seconds), rank: e.faster + 1 }));
  return `"route":${JSON.stringify(route)},"segments":${JSON.stringify(segments)}`;
}

const matcherOf = (ctx: AppContext): RoutesMatcher | null =>
  ctx.memory.runs instanceof RoutesMatcher ? ctx.memory.runs : null;

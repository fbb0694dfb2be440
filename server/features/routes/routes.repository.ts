/**
 * SQL of routes and segments (migration 025, decision 043). Every read keeps to shown runs
 * (db/staged.ts): a run an import has stored but not landed is on no route and has no effort yet.
 */
import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import { shown } from '../../db/staged.js';

// ---- Runs, for matching ----

/**
 * A runner's tracked runs with positions (their ids, dates and distances, and what tells their
 * tracks apart without reading them: samples, start and bounds), in (date, id) order.
 */
export async function trackedRuns(db: Executor, userId: number) {
  const rows = await db
    .selectFrom('tracks as t')
    .innerJoin('entries as e', 'e.id', 't.entry_id')
    .select([
      't.entry_id',
      'e.date',
      'e.distance_m',
      't.samples',
      't.started_at',
      't.south',
      't.west',
      't.north',
      't.east',
    ])
    .where('t.user_id', '=', userId)
    .where('t.south', 'is not', null)
    .where(shown('e.staged'))
    .orderBy('e.date')
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.entry_id),
    date: r.date,
    distanceM: Number(r.distance_m),
    track: `${Number(r.samples)}|${r.started_at}|${Number(r.south)}|${Number(r.west)}|${Number(r.north)}|${Number(r.east)}`,
  }));
}

/** The packed tracks of these runs of a runner (shown, with positions), with their dates and distances. */
export async function trackData(db: Executor, userId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('tracks as t')
    .innerJoin('entries as e', 'e.id', 't.entry_id')
    .select(['t.entry_id', 'e.date', 'e.distance_m', 't.data'])
    .where('t.user_id', '=', userId)
    .where('t.entry_id', 'in', [...ids])
    .where('t.south', 'is not', null)
    .where(shown('e.staged'))
    .execute();
  return rows.map((r) => ({ id: Number(r.entry_id), date: r.date, distanceM: Number(r.distance_m), data: r.data }));
}

/**
 * The runner's tracked runs whose bounds, widened by `margin` degrees, hold both points: the
 * only runs that can pass over a segment from the first to the second.
 */
export async function runsNear(
  db: Executor,
  userId: number,
  first: [number, number],
  last: [number, number],
  margin: { lat: number; lon: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .innerJoin('entries as e', 'e.id', 't.entry_id')
    .select('t.entry_id')
    .where('t.user_id', '=', userId)
    .where('t.south', 'is not', null)
    .where(shown('e.staged'))
    .where('t.south', '<=', Math.min(first[0], last[0]) + margin.lat)
    .where('t.north', '>=', Math.max(first[0], last[0]) - margin.lat)
    .where('t.west', '<=', Math.min(first[1], last[1]) + margin.lon)
    .where('t.east', '>=', Math.max(first[1], last[1]) - margin.lon)
    .orderBy('t.entry_id')
    .execute();
  return rows.map((r) => Number(r.entry_id));
}

/** A run of the runner (shown) and its packed track, when it has one. */
export async function runWithTrack(db: Executor, id: number) {
  const row = await db
    .selectFrom('entries as e')
    .leftJoin('tracks as t', 't.entry_id', 'e.id')
    .select(['e.user_id', 't.data', 't.south'])
    .where('e.id', '=', id)
    .where(shown('e.staged'))
    .executeTakeFirst();
  return row
    ? {
        userId: Number(row.user_id),
        data: row.data ?? null,
        hasPositions: row.south !== null && row.south !== undefined,
      }
    : null;
}

// ---- Routes ----

export async function routesOf(db: Executor, userId: number) {
  const rows = await db
    .selectFrom('routes')
    .select(['id', 'founder_id', 'name'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), founderId: Number(r.founder_id), name: r.name }));
}

/** Each route's runs of a runner (one route, or all), with what their efforts show. */
export async function routeRuns(db: Executor, userId: number, routeId?: number) {
  let query = db
    .selectFrom('route_runs as rr')
    .innerJoin('entries as e', 'e.id', 'rr.entry_id')
    .select(['rr.route_id', 'rr.entry_id', 'e.date', 'e.distance_m', 'e.seconds'])
    .where('rr.user_id', '=', userId)
    .where(shown('e.staged'));
  if (routeId !== undefined) query = query.where('rr.route_id', '=', routeId);
  const rows = await query.execute();
  return rows.map((r) => ({
    routeId: Number(r.route_id),
    entryId: Number(r.entry_id),
    date: r.date,
    distanceM: Number(r.distance_m),
    seconds: Number(r.seconds),
  }));
}

/** The runner's routes with their founding runs' lines (§16's polylines). */
export async function routeRows(db: Executor, userId: number, routeId?: number) {
  let query = db
    .selectFrom('routes as r')
    .leftJoin('tracks as t', 't.entry_id', 'r.founder_id')
    .select(['r.id', 'r.name', 'r.founder_id', 't.map_route'])
    .where('r.user_id', '=', userId);
  if (routeId !== undefined) query = query.where('r.id', '=', routeId);
  const rows = await query.orderBy('r.id').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, polyline: r.map_route ?? '' }));
}

export async function renameRoute(db: Executor, userId: number, id: number, name: string): Promise<boolean> {
  const result = await db
    .updateTable('routes')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Each route's runs of a runner, as stored (entry, route). */
export async function routeMembers(db: Executor, userId: number) {
  const rows = await db
    .selectFrom('route_runs')
    .select(['entry_id', 'route_id'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ entryId: Number(r.entry_id), routeId: Number(r.route_id) }));
}

/**
 * Whether the runner's routes are being regrouped, how many routes they have ever had, and the
 * runs their stored routes were grouped from (migration 032; null: unknown, group from the start).
 */
export async function routeOwner(db: Executor, userId: number) {
  const row = await db
    .selectFrom('route_owners')
    .select(['routes_made', 'matching', 'grouped_count', 'grouped_hash'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    made: Number(row?.routes_made ?? 0),
    matching: Number(row?.matching ?? 0) === 1,
    grouped:
      row && row.grouped_count !== null && row.grouped_hash !== null
        ? { count: Number(row.grouped_count), hash: row.grouped_hash }
        : null,
  };
}

/** The runner's stored routes are grouped from the start next time (the rebuild). */
export async function forgetGrouped(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable('route_owners')
    .set({ grouped_count: null, grouped_hash: null })
    .where('user_id', '=', userId)
    .execute();
}

export async function setRoutesMatching(db: Executor, userId: number, matching: boolean): Promise<void> {
  await db
    .insertInto('route_owners')
    .values({ user_id: userId, matching: matching ? 1 : 0 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ matching: matching ? 1 : 0 }))
    .execute();
}

/**
 * The runner's routes made again from a grouping (founding run, runs): a route whose founding run
 * founds a route still keeps its id and name; a new one is named "Route N"; the others go.
 */
export async function writeGrouping(
  db: Executor,
  userId: number,
  groups: readonly { founder: number; runs: readonly number[] }[],
  now: string,
  grouped: { count: number; hash: string },
): Promise<void> {
  const existing = await routesOf(db, userId);
  const byFounder = new Map(existing.map((r) => [r.founderId, r]));
  const founders = new Set(groups.map((g) => g.founder));
  const gone = existing.filter((r) => !founders.has(r.founderId)).map((r) => r.id);
  if (gone.length > 0) await db.deleteFrom('routes').where('id', 'in', gone).execute();
  await db.deleteFrom('route_runs').where('user_id', '=', userId).execute();
  let made = (await routeOwner(db, userId)).made;
  const rows: { entry_id: number; route_id: number; user_id: number }[] = [];
  for (const group of groups) {
    let id = byFounder.get(group.founder)?.id;
    if (id === undefined) {
      made++;
      const inserted = await db
        .insertInto('routes')
        .values({ user_id: userId, founder_id: group.founder, name: `Route ${made}`, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(inserted.id);
    }
    for (const entryId of group.runs) rows.push({ entry_id: entryId, route_id: id, user_id: userId });
  }
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('route_runs')
      .values(rows.slice(i, i + 200))
      .execute();
  await db
    .insertInto('route_owners')
    .values({
      user_id: userId,
      routes_made: made,
      matching: 0,
      grouped_count: grouped.count,
      grouped_hash: grouped.hash,
    })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ routes_made: made, matching: 0, grouped_count: grouped.count, grouped_hash: grouped.hash }),
    )
    .execute();
}

// ---- Segments ----

export interface SegmentRow {
  id: number;
  entryId: number;
  name: string;
  distanceM: number;
  path: [number, number][];
  matching: boolean;
}

export async function countSegments(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('segments')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertSegment(
  db: Executor,
  values: {
    userId: number;
    entryId: number;
    name: string;
    startM: number;
    endM: number;
    path: [number, number][];
    bounds: [[number, number], [number, number]];
  },
  now: string,
): Promise<number> {
  const row = await db
    .insertInto('segments')
    .values({
      user_id: values.userId,
      entry_id: values.entryId,
      name: values.name,
      start_m: values.startM,
      end_m: values.endM,
      distance_m: values.endM - values.startM,
      path: JSON.stringify(values.path),
      south: values.bounds[0][0],
      west: values.bounds[0][1],
      north: values.bounds[1][0],
      east: values.bounds[1][1],
      matching: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The runner's segments (one, or all), oldest first, with their paths. */
export async function segmentsOf(db: Executor, userId: number, id?: number): Promise<SegmentRow[]> {
  let query = db
    .selectFrom('segments')
    .select(['id', 'entry_id', 'name', 'distance_m', 'path', 'matching'])
    .where('user_id', '=', userId);
  if (id !== undefined) query = query.where('id', '=', id);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({
    id: Number(r.id),
    entryId: Number(r.entry_id),
    name: r.name,
    distanceM: Number(r.distance_m),
    path: JSON.parse(r.path) as [number, number][],
    matching: Number(r.matching) === 1,
  }));
}

/**
 * The runner's segments (one, or all) for a list: no paths; their effort counts and best efforts.
 * Efforts exist only for shown runs (matching reads shown tracks alone; a staged run's deletion
 * takes its efforts), so counts and minimums come from segment_efforts' own index.
 */
export async function segmentSummaries(db: Executor, userId: number, id?: number) {
  let query = db
    .selectFrom('segments as s')
    .select(['s.id', 's.name', 's.distance_m', 's.matching'])
    .where('s.user_id', '=', userId);
  if (id !== undefined) query = query.where('s.id', '=', id);
  const rows = await query.orderBy('s.id').execute();
  const ids = rows.map((r) => Number(r.id));
  const best = await bestEfforts(db, userId, ids);
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    distanceM: Number(r.distance_m),
    matching: Number(r.matching) === 1,
    effortCount: best.get(Number(r.id))?.count ?? 0,
    best: best.get(Number(r.id))?.best ?? null,
  }));
}

/** Each segment's effort count and fastest effort (ties: the earliest date, then the lowest run id). */
async function bestEfforts(db: Executor, userId: number, ids: number[]) {
  const found = new Map<number, { count: number; best: { entryId: number; date: string; seconds: number } | null }>();
  if (ids.length === 0) return found;
  const totals = db
    .selectFrom('segment_efforts')
    .select(['segment_id', sql<number | string>`count(*)`.as('n'), sql<number>`min(seconds)`.as('fastest')])
    .where('segment_id', 'in', ids)
    .groupBy('segment_id');
  const fastest = new Map<number, number>();
  for (const r of await totals.execute()) {
    found.set(Number(r.segment_id), { count: Number(r.n), best: null });
    fastest.set(Number(r.segment_id), Number(r.fastest));
  }
  if (fastest.size === 0) return found;
  const ties = await db
    .selectFrom('segment_efforts as x')
    .innerJoin('entries as y', 'y.id', 'x.entry_id')
    .select(['x.segment_id', 'x.entry_id', 'y.date', 'x.seconds'])
    .where('x.user_id', '=', userId)
    .where((eb) =>
      eb.or(
        [...fastest].map(([segmentId, seconds]) =>
          eb.and([eb('x.segment_id', '=', segmentId), eb('x.seconds', '=', seconds)]),
        ),
      ),
    )
    .execute();
  for (const r of ties) {
    const entry = found.get(Number(r.segment_id));
    if (!entry) continue;
    const candidate = { entryId: Number(r.entry_id), date: r.date, seconds: Number(r.seconds) };
    const current = entry.best;
    if (
      !current ||
      candidate.date < current.date ||
      (candidate.date === current.date && candidate.entryId < current.entryId)
    ) {
      entry.best = candidate;
    }
  }
  return found;
}

/** A segment's efforts with their runs' dates. */
export async function segmentEffortRows(db: Executor, segmentId: number) {
  const rows = await db
    .selectFrom('segment_efforts as x')
    .innerJoin('entries as y', 'y.id', 'x.entry_id')
    .select(['x.entry_id', 'y.date', 'x.seconds'])
    .where('x.segment_id', '=', segmentId)
    .where(shown('y.staged'))
    .execute();
  return rows.map((r) => ({ entryId: Number(r.entry_id), date: r.date, seconds: Number(r.seconds) }));
}

export async function renameSegment(db: Executor, userId: number, id: number, name: string, now: string) {
  const result = await db
    .updateTable('segments')
    .set({ name, updated_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSegment(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('segments').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function setSegmentsMatching(db: Executor, userId: number, ids: number[] | 'all', matching: boolean) {
  let query = db
    .updateTable('segments')
    .set({ matching: matching ? 1 : 0 })
    .where('user_id', '=', userId);
  if (ids !== 'all') {
    if (ids.length === 0) return;
    query = query.where('id', 'in', ids);
  }
  await query.execute();
}

/**
 * The efforts of these runs over these segments replaced by `efforts` (those still there: a
 * segment or run deleted meanwhile takes its efforts with it).
 */
export async function replaceEfforts(
  db: Executor,
  userId: number,
  segmentIds: readonly number[],
  entryIds: readonly number[],
  efforts: readonly { segmentId: number; entryId: number; seconds: number; startSample: number }[],
): Promise<void> {
  if (segmentIds.length === 0 || entryIds.length === 0) return;
  await db
    .deleteFrom('segment_efforts')
    .where('user_id', '=', userId)
    .where('segment_id', 'in', [...segmentIds])
    .where('entry_id', 'in', [...entryIds])
    .execute();
  if (efforts.length === 0) return;
  const liveSegments = new Set(
    (
      await db
        .selectFrom('segments')
        .select('id')
        .where('id', 'in', [...segmentIds])
        .execute()
    ).map((r) => Number(r.id)),
  );
  const liveRuns = new Set(
    (
      await db
        .selectFrom('entries')
        .select('id')
        .where('id', 'in', [...entryIds])
        .execute()
    ).map((r) => Number(r.id)),
  );
  const rows = efforts
    .filter((e) => liveSegments.has(e.segmentId) && liveRuns.has(e.entryId))
    .map((e) => ({
      segment_id: e.segmentId,
      entry_id: e.entryId,
      user_id: userId,
      seconds: e.seconds,
      start_sample: e.startSample,
    }));
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('segment_efforts')
      .values(rows.slice(i, i + 200))
      .execute();
}

// ---- A run's page ----

/** The run's route (with the route's runs' times) and its segment efforts with their segments' efforts' times. */
export async function runMembership(db: Executor, entryId: number) {
  const route = await db
    .selectFrom('route_runs as rr')
    .innerJoin('routes as r', 'r.id', 'rr.route_id')
    .select(['r.id', 'r.name', 'rr.user_id'])
    .where('rr.entry_id', '=', entryId)
    .executeTakeFirst();
  const efforts = await db
    .selectFrom('segment_efforts as x')
    .innerJoin('segments as s', 's.id', 'x.segment_id')
    .select(['s.id', 's.name', 'x.seconds'])
    .select(
      sql<number | string>`(select count(*) from segment_efforts o inner join entries y on y.id = o.entry_id
        where o.segment_id = x.segment_id and o.seconds < x.seconds and ${shown('y.staged')})`.as('faster'),
    )
    .where('x.entry_id', '=', entryId)
    .orderBy('s.id')
    .orderBy('x.start_sample')
    .execute();
  return {
    route: route ? { id: Number(route.id), name: route.name, userId: Number(route.user_id) } : null,
    efforts: efforts.map((e) => ({
      id: Number(e.id),
      name: e.name,
      seconds: Number(e.seconds),
      faster: Number(e.faster),
    })),
  };
}

// ---- Rebuild ----

export async function usersWithTracks(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('tracks').select('user_id').distinct().orderBy('user_id').execute();
  const segmentOwners = await db.selectFrom('segments').select('user_id').distinct().execute();
  return [...new Set([...rows, ...segmentOwners].map((r) => Number(r.user_id)))].sort((a, b) => a - b);
}

export async function usersMatching(db: Executor): Promise<number[]> {
  const a = await db.selectFrom('route_owners').select('user_id').where('matching', '=', 1).execute();
  const b = await db.selectFrom('segments').select('user_id').where('matching', '=', 1).distinct().execute();
  return [...new Set([...a, ...b].map((r) => Number(r.user_id)))];
}

/** Up to `limit` of the runner's tracked runs with positions not yet matched against their segments. */
export async function unmatchedRuns(db: Executor, userId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('tracks as t')
    .innerJoin('entries as e', 'e.id', 't.entry_id')
    .select('t.entry_id')
    .where('t.user_id', '=', userId)
    .where('t.segments_matched', '=', 0)
    .where(shown('e.staged'))
    .orderBy('t.entry_id')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.entry_id));
}

export async function markRunsMatched(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('tracks')
    .set({ segments_matched: 1 })
    .where('entry_id', 'in', [...ids])
    .execute();
}

export async function markAllRunsUnmatched(db: Executor): Promise<void> {
  await db.updateTable('tracks').set({ segments_matched: 0 }).execute();
}

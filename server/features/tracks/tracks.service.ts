/**
 * Tracks (CONTRACT.md §13, §14, §16): a run's track stored with its original file, its page
 * answered from what was computed when it was stored, its GPX, its file, and the map of every run.
 * Who may read a run's track is who may read the run (§5).
 */
import type { Actor } from '../../../core/permissions.js';
import { heartRateSection, observedMaxUsed, type HeartRateSummary } from '../../../core/tracks/heart-rate.js';
import { gpxChunks } from '../../../core/tracks/gpx.js';
import type { RoutesMap } from '../../../core/tracks/schemas.js';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { AppError, notFound, requirePermission } from '../../errors.js';
import { trackStored } from '../entries/entries.service.js';
import { decodeTrack } from './codec.js';
import { MAX_ORIGINAL_BYTES, type OriginalFile, type PreparedTrack } from './prepare.js';
import { pageMembers } from './page.js';
import * as tracks from './tracks.repository.js';

export { prepareTrack, packTrack, packedSummary, unpackTrack, MAX_ORIGINAL_BYTES } from './prepare.js';
export type { OriginalFile, PreparedTrack } from './prepare.js';
export { decodeTrack } from './codec.js';

export const NO_TRACK = 'This run has no track.';
export const NO_ORIGINAL = 'This run has no original file.';
export const NO_POSITIONS = "This run's track has no positions.";

/**
 * Stores a run's track and its original (kept when at most 32 MiB), on `db`: the transaction that
 * stores the run, or attaches the track to a stored run (§13 track_added). The run gains the
 * track's summary; its own numbers and text stay as they are.
 */
export async function storeTrack(
  db: Executor,
  run: { id: number; userId: number },
  prepared: PreparedTrack,
  original: OriginalFile | null,
): Promise<void> {
  const kept = original && original.bytes.length <= MAX_ORIGINAL_BYTES ? original : null;
  await tracks.insertTrack(db, run, prepared, kept);
  await trackStored(db, run.id, prepared.entry, prepared.hasDistances ? prepared.efforts : null);
}

/**
 * Stores the tracks of runs just stored with their summaries (an import: insertManyRuns wrote the
 * summaries in the runs' rows and counted their efforts), each with its original when kept.
 */
export async function insertTracks(
  db: Executor,
  tracked: readonly { run: { id: number; userId: number }; prepared: PreparedTrack; original: OriginalFile | null }[],
): Promise<void> {
  for (const { run, prepared, original } of tracked) {
    const kept = original && original.bytes.length <= MAX_ORIGINAL_BYTES ? original : null;
    await tracks.insertTrack(db, run, prepared, kept);
  }
}

/** A run of `id` the actor may read, or 404/403 as for the run itself. */
function readable<T extends { userId: number }>(actor: Actor, found: T | null): T {
  if (!found) throw notFound();
  requirePermission(actor, { type: 'entry.manage', ownerId: found.userId });
  return found;
}

/**
 * `GET /entry/{id}/track` as JSON text, and the run's owner: the page stored with the track, and
 * its heart-rate section for the owner's maximum heart rate now (the profile's, else the highest of
 * their tracks, at most 220).
 */
export async function trackPage(ctx: AppContext, actor: Actor, id: number): Promise<{ ownerId: number; text: string }> {
  const found = readable(actor, await tracks.findTrackPage(ctx.db, id));
  if (!found.page) throw new AppError(404, NO_TRACK);
  let heartRate = null;
  if (found.hrSummary) {
    const summary = JSON.parse(found.hrSummary) as HeartRateSummary;
    heartRate =
      found.profileMax !== null
        ? heartRateSection(summary, found.profileMax, 'profile')
        : heartRateSection(summary, observedMaxUsed(found.observedMax ?? summary.max), 'observed');
  }
  const routes = ctx.memory.runs ? await ctx.memory.runs.trackMembers(ctx.db, id) : '"route":null,"segments":[]';
  // §22's route and segments beside the track: the track's own `route` is its line (§14).
  const text = `{"track":{"entry_id":${id},${pageMembers(found.page)},"heart_rate":${JSON.stringify(heartRate)}},${routes}}`;
  return { ownerId: found.userId, text };
}

/** The run's original file, as uploaded. */
export async function originalFile(ctx: AppContext, actor: Actor, id: number): Promise<OriginalFile> {
  const found = readable(actor, await tracks.findOriginal(ctx.db, id));
  if (!found.original) throw new AppError(404, NO_ORIGINAL);
  return found.original;
}

/** The run's track as GPX 1.1 (§16), in chunks. */
export async function trackGpx(
  ctx: AppContext,
  actor: Actor,
  id: number,
): Promise<{ name: string; chunks: Iterable<string> }> {
  const found = readable(actor, await tracks.findTrackData(ctx.db, id));
  if (!found.track) throw new AppError(404, NO_TRACK);
  if (!found.track.hasPositions) throw new AppError(404, NO_POSITIONS);
  return { name: `${id}.gpx`, chunks: gpxOf(found.title, found.track) };
}

function gpxOf(title: string | null, track: { data: Uint8Array; startedAt: string }): Iterable<string> {
  return gpxChunks(decodeTrack(track.data), { name: title, startMs: Date.parse(track.startedAt) });
}

// ---- A runner's own tracks, for the export of their data (§16) ----

/** The names of the originals kept for these runs of the runner, by run (a run without one is absent). */
export function originalNamesOf(ctx: AppContext, userId: number, ids: number[]): Promise<Map<number, string>> {
  return tracks.originalNames(ctx.db, userId, ids);
}

/** The first `length` bytes of the originals of these runs of the runner (what kind of file each is). */
export function originalHeadsOf(
  ctx: AppContext,
  userId: number,
  ids: number[],
  length: number,
): Promise<Map<number, Uint8Array>> {
  return tracks.originalHeads(ctx.db, userId, ids, length);
}

/**
 * `length` bytes of the runner's own run's original from byte `from` (0 the first), fewer at its
 * end, and its whole size: an original (up to 32 MiB) read a slice at a time, never whole. Null
 * when none is kept (any more: the run or its track deleted meanwhile).
 */
export function ownOriginalSlice(
  ctx: AppContext,
  userId: number,
  id: number,
  from: number,
  length: number,
): Promise<{ size: number; bytes: Uint8Array } | null> {
  return tracks.originalSlice(ctx.db, userId, id, from, length);
}

/**
 * The runner's own run's track as GPX 1.1, in chunks (a track without positions gives a GPX
 * without points), or null without a track.
 */
export async function ownTrackGpx(ctx: AppContext, userId: number, id: number): Promise<Iterable<string> | null> {
  const found = await tracks.findTrackData(ctx.db, id);
  return found?.userId === userId && found.track ? gpxOf(found.title, found.track) : null;
}

/** §16: the caller's tracked runs with positions, of one year or all, oldest first, and their bounds together. */
export async function routes(ctx: AppContext, actor: Actor, year: number | undefined): Promise<RoutesMap> {
  const [from, to] = year === undefined ? ['0000-00-00', '9999-99-99'] : [`${year}-01-01`, `${year}-12-31`];
  const runs = await tracks.listRoutes(ctx.db, actor.id, from, to);
  let bounds: RoutesMap['bounds'] = null;
  for (const run of runs) {
    const [[s, w], [n, e]] = run.bounds;
    bounds = bounds
      ? [
          [Math.min(bounds[0][0], s), Math.min(bounds[0][1], w)],
          [Math.max(bounds[1][0], n), Math.max(bounds[1][1], e)],
        ]
      : run.bounds;
  }
  return {
    bounds,
    runs: runs.map((r) => ({ entry_id: r.entryId, date: r.date, distance: r.distanceM / 1000, polyline: r.polyline })),
  };
}

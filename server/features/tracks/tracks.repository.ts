/**
 * SQL of tracks (migration 018): a track and its original are written once with their run; the
 * original is read whole for its own download, and a slice at a time for the zip export.
 */
import { sql } from 'kysely';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';
import type { OriginalFile, PreparedTrack } from './prepare.js';
import { shown } from '../../db/staged.js';

export async function insertTrack(
  db: Executor,
  run: { id: number; userId: number },
  prepared: PreparedTrack,
  original: OriginalFile | null,
): Promise<void> {
  await db
    .insertInto('tracks')
    .values({
      entry_id: run.id,
      user_id: run.userId,
      samples: prepared.samples,
      started_at: prepared.startedAt,
      max_heart_rate: prepared.hrSummary ? Math.round(prepared.hrSummary.max) : null,
      map_route: prepared.mapRoute,
      south: prepared.bounds?.[0][0] ?? null,
      west: prepared.bounds?.[0][1] ?? null,
      north: prepared.bounds?.[1][0] ?? null,
      east: prepared.bounds?.[1][1] ?? null,
      hr_summary: prepared.hrSummary && JSON.stringify(prepared.hrSummary),
      analysis: prepared.page,
      data: prepared.data,
      efforts: prepared.hasDistances ? JSON.stringify(prepared.efforts) : null,
    })
    .execute();
  if (original) {
    await db
      .insertInto('track_files')
      .values({ entry_id: run.id, name: original.name, content: original.bytes })
      .execute();
  }
}

/**
 * A run and what its page needs of its track (nulls without one): the stored page, the heart-rate
 * summary, and the owner's maximum heart rate, set and observed over all their tracks.
 */
const trackPage = compiled<{ id: number }>()((db, param) =>
  db
    .selectFrom('entries as e')
    .innerJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('tracks as t', 't.entry_id', 'e.id')
    .select([
      'e.user_id',
      't.analysis',
      't.hr_summary',
      'u.max_heart_rate as profile_max',
      sql<number | null>`(select max(x.max_heart_rate) from tracks x inner join entries y on y.id = x.entry_id
        where x.user_id = e.user_id and ${shown('y.staged')})`.as('observed_max'),
    ])
    .where('e.id', '=', param('id'))
    .where(shown('e.staged')),
);

export async function findTrackPage(db: Executor, id: number) {
  const [row] = await trackPage(db, { id });
  if (!row) return null;
  return {
    userId: Number(row.user_id),
    page: row.analysis ?? null,
    hrSummary: row.hr_summary ?? null,
    profileMax: row.profile_max === null ? null : Number(row.profile_max),
    observedMax: row.observed_max === null ? null : Number(row.observed_max),
  };
}

/** A run, and its track's samples (whether they hold positions: a GPX needs them). */
export async function findTrackData(db: Executor, id: number) {
  const row = await db
    .selectFrom('entries as e')
    .leftJoin('tracks as t', 't.entry_id', 'e.id')
    .select(['e.user_id', 'e.title', 't.data', 't.started_at', 't.south'])
    .where('e.id', '=', id)
    .where(shown('e.staged'))
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: Number(row.user_id),
    title: row.title,
    track:
      row.data && row.started_at
        ? { data: row.data, startedAt: row.started_at, hasPositions: row.south !== null }
        : null,
  };
}

/** A run, and its original file when one is kept. */
export async function findOriginal(db: Executor, id: number) {
  const row = await db
    .selectFrom('entries as e')
    .leftJoin('track_files as f', 'f.entry_id', 'e.id')
    .select(['e.user_id', 'f.name', 'f.content'])
    .where('e.id', '=', id)
    .where(shown('e.staged'))
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: Number(row.user_id),
    original: row.name && row.content ? { name: row.name, bytes: row.content } : null,
  };
}

const originalSliceOf = compiled<{ userId: number; id: number; from: number; length: number }>()((db, param) =>
  db
    .selectFrom('track_files as f')
    .innerJoin('tracks as t', 't.entry_id', 'f.entry_id')
    .select([
      sql<number | string>`length(f.content)`.as('size'),
      sql<Uint8Array>`substr(f.content, ${param('from')}, ${param('length')})`.as('bytes'),
    ])
    .where('t.user_id', '=', param('userId'))
    .where('f.entry_id', '=', param('id')),
);

/**
 * `length` bytes of the original kept for a run of a runner from byte `from` (0 the first), fewer
 * at its end, and its whole size; null when none is kept (any more), or the run is not theirs.
 * Only the slice comes to the process: `length` and `substr` count bytes on a BLOB (SQLite) and a
 * bytea (PostgreSQL). SQLite still reads the whole value from its pages to cut it (about 1 ms a
 * MiB of the original, on the event loop): the caller decides how many slices a file is read in.
 */
export async function originalSlice(
  db: Executor,
  userId: number,
  id: number,
  from: number,
  length: number,
): Promise<{ size: number; bytes: Uint8Array } | null> {
  const [row] = await originalSliceOf(db, { userId, id, from: Math.trunc(from) + 1, length: Math.trunc(length) });
  return row ? { size: Number(row.size), bytes: row.bytes } : null;
}

/** The names of the originals kept for these runs of a runner, by run (a run without one is absent). */
export async function originalNames(db: Executor, userId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('track_files as f')
    .innerJoin('tracks as t', 't.entry_id', 'f.entry_id')
    .select(['f.entry_id', 'f.name'])
    .where('t.user_id', '=', userId)
    .where('f.entry_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [Number(r.entry_id), r.name]));
}

/** The first `length` bytes of the originals of these runs of a runner, by run. */
export async function originalHeads(
  db: Executor,
  userId: number,
  ids: number[],
  length: number,
): Promise<Map<number, Uint8Array>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('track_files as f')
    .innerJoin('tracks as t', 't.entry_id', 'f.entry_id')
    .select(['f.entry_id', sql<Uint8Array>`substr(f.content, 1, ${sql.lit(Math.trunc(length))})`.as('head')])
    .where('t.user_id', '=', userId)
    .where('f.entry_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [Number(r.entry_id), r.head]));
}

const routesBetween = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('tracks as t')
    .innerJoin('entries as e', 'e.id', 't.entry_id')
    .select(['t.entry_id', 'e.date', 'e.distance_m', 't.map_route', 't.south', 't.west', 't.north', 't.east'])
    .where('t.user_id', '=', param('userId'))
    .where('t.map_route', 'is not', null)
    .where(shown('e.staged'))
    .where('e.date', '>=', param('from'))
    .where('e.date', '<=', param('to'))
    .orderBy('e.date')
    .orderBy('e.id'),
);

/** A runner's tracked runs with positions between two dates, oldest first, with the map's route and bounds. */
export async function listRoutes(db: Executor, userId: number, from: string, to: string) {
  return (await routesBetween(db, { userId, from, to })).map((r) => ({
    entryId: Number(r.entry_id),
    date: r.date,
    distanceM: Number(r.distance_m),
    polyline: r.map_route!,
    bounds: [
      [Number(r.south), Number(r.west)],
      [Number(r.north), Number(r.east)],
    ] as [[number, number], [number, number]],
  }));
}

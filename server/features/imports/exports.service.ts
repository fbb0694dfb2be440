/**
 * The exports of a runner's data (CONTRACT.md §9, §16): CSV, JSON, and the zip of the JSON with
 * each tracked run's activity file. Each is streamed: runs are read a page at a time by key, and
 * the zip's files one at a time, each written and let go before the next is read, so memory does
 * not grow with the number of runs; other requests go first between pages and between files.
 */
import type { Readable } from 'node:stream';
import {
  EXPORT_CSV_COLUMNS,
  EXPORT_FORMAT_NAME,
  EXPORT_VERSION,
  exportedCsvText,
  ZIP_EXPORT_ACTIVITIES,
  ZIP_EXPORT_INDEX,
} from '../../../core/imports.js';
import type { Entry, User } from '../../../core/schemas.js';
import { nowIso, type AppContext } from '../../context.js';
import { ownRunsAfter } from '../entries/entries.service.js';
import { listGoals } from '../goals/goals.service.js';
import { listShoes } from '../shoes/shoes.service.js';
import { originalHeadsOf, originalNamesOf, ownOriginal, ownTrackGpx } from '../tracks/tracks.service.js';
import { activityKind, activityKindOfName, KIND_BYTES, type ActivityKind } from './parsers/files.js';
import { zipStream, type LazyMember } from './zip-writer.js';

type Exporter = Pick<User, 'id' | 'name' | 'email' | 'timezone' | 'units'>;

/** Runs a page of the export: a page is read, written and let go before the next is read. */
const PAGE = 1000;

/**
 * Lets other requests go first. On SQLite a page of runs (or a file) is read at once, and a socket
 * that takes each piece as fast as it is written (a client on the same machine) would otherwise
 * keep the event loop from ever serving them until the export ends, for a million runs.
 */
const letOthersIn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every run of the runner, oldest first, a page at a time, other requests let in between pages. */
async function* everyRun(ctx: AppContext, userId: number): AsyncGenerator<Entry[]> {
  let after: { date: string; id: number } | null = null;
  for (;;) {
    const page = await ownRunsAfter(ctx, userId, after, PAGE);
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    const last = page.at(-1)!;
    after = { date: last.date, id: last.id };
    await letOthersIn();
  }
}

/** A text cell: RFC 4180 (a field with a comma, a quote or a line break is quoted, its quotes doubled), never a formula (§18). */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = exportedCsvText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV export, in chunks of text. */
export async function* exportCsv(ctx: AppContext, userId: number): AsyncGenerator<string> {
  const shoeNames = new Map((await listShoes(ctx, userId)).map((s) => [s.id, s.name]));
  yield `${EXPORT_CSV_COLUMNS.join(',')}\r\n`;
  for await (const page of everyRun(ctx, userId)) {
    let chunk = '';
    for (const e of page) {
      const shoe = e.shoe_id === null ? null : (shoeNames.get(e.shoe_id) ?? null);
      chunk += `${e.date},${e.distance},${e.time},${csvField(e.title)},${csvField(e.notes)},${e.kind ?? ''},${e.effort ?? ''},${csvField(shoe)}\r\n`;
    }
    yield chunk;
  }
}

/** One run of the JSON export: the fields of an Entry, in its order, its shoe's name, and its file in the zip export. */
function jsonRun(e: Entry, shoe: string | null, file: string | undefined): string {
  const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
  return (
    `{"id":${e.id},"user_id":${e.user_id},"date":"${e.date}","distance":${e.distance},"time":"${e.time}",` +
    `"speed":${e.speed},"pace":${e.pace},"title":${text(e.title)},"notes":${text(e.notes)},` +
    `"kind":${text(e.kind)},"effort":${e.effort ?? 'null'},"shoe_id":${e.shoe_id ?? 'null'},` +
    `"created_at":${text(e.created_at)},"updated_at":${text(e.updated_at)},"has_track":${e.has_track},` +
    `"elevation_gain":${e.elevation_gain ?? 'null'},"elevation_loss":${e.elevation_loss ?? 'null'},` +
    `"avg_heart_rate":${e.avg_heart_rate ?? 'null'},"max_heart_rate":${e.max_heart_rate ?? 'null'},` +
    `"avg_cadence":${e.avg_cadence ?? 'null'},"shoe":${text(shoe)}${file === undefined ? '' : `,"file":${text(file)}`}}`
  );
}

/** The files of a page of runs in the zip export, by run (a run without a file is absent). */
type FilesOfPage = (page: Entry[]) => Promise<Map<number, string>>;

/**
 * The JSON export, in chunks of text: the runner, their shoes and goals, then every run, one
 * chunk per page of runs (read by key, never by offset), each written as it is read. In the zip
 * export each run with a file gains `file`, its member's name (`filesOf`).
 */
export async function* exportJson(ctx: AppContext, user: Exporter, filesOf?: FilesOfPage): AsyncGenerator<string> {
  const shoes = await listShoes(ctx, user.id);
  const goals = await listGoals(ctx, user);
  const shoeNames = new Map(shoes.map((s) => [s.id, s.name]));
  const head = {
    format: EXPORT_FORMAT_NAME,
    version: EXPORT_VERSION,
    exported_at: nowIso(ctx),
    user: { name: user.name, email: user.email, timezone: user.timezone, units: user.units },
    shoes,
    goals,
  };
  yield `${JSON.stringify(head).slice(0, -1)},"entries":[`;
  let separator = '\n';
  for await (const page of everyRun(ctx, user.id)) {
    const files = filesOf ? await filesOf(page) : null;
    let chunk = '';
    for (const e of page) {
      const shoe = e.shoe_id === null ? null : (shoeNames.get(e.shoe_id) ?? null);
      chunk += separator + jsonRun(e, shoe, files?.get(e.id));
      separator = ',\n';
    }
    yield chunk;
  }
  yield '\n]}\n';
}

// ---- The zip export (§16) ----

/** A tracked run's file in the zip: its original (under its own kind's extension), else its track as GPX. */
interface ActivityFile {
  entryId: number;
  name: string;
  kind: ActivityKind;
  original: boolean;
}

/** How many activity files the last zip export has read from the database so far (the tests read it). */
export const zipProgress = { filesRead: 0 };

/** The files of a page's tracked runs: each original's kind from its name, else from its first bytes. */
async function activityFilesOf(ctx: AppContext, userId: number, page: Entry[]): Promise<ActivityFile[]> {
  const tracked = page.filter((e) => e.has_track).map((e) => e.id);
  if (tracked.length === 0) return [];
  const originals = await originalNamesOf(ctx, userId, tracked);
  const untold = [...originals].filter(([, name]) => activityKindOfName(name) === null).map(([id]) => id);
  const heads =
    untold.length > 0 ? await originalHeadsOf(ctx, userId, untold, KIND_BYTES) : new Map<number, Uint8Array>();
  return tracked.map((entryId) => {
    const name = originals.get(entryId);
    const kind =
      name === undefined
        ? null
        : (activityKindOfName(name) ?? activityKind(name, heads.get(entryId) ?? new Uint8Array()));
    return {
      entryId,
      name: `${ZIP_EXPORT_ACTIVITIES}${entryId}.${kind ?? 'gpx'}`,
      kind: kind ?? 'gpx',
      original: kind !== null,
    };
  });
}

/** Bytes handed on at once: a 32 MiB original goes through the CRC a slice at a time, other work in between. */
const SLICE = 64 * 1024;

/** A file's content, read when the archive comes to it, after other requests have had their turn. */
async function* activityContent(
  ctx: AppContext,
  userId: number,
  file: ActivityFile,
): AsyncGenerator<Uint8Array | string> {
  await letOthersIn();
  // A run deleted (or its track) since the JSON named its file leaves the file empty: its row imports without a track.
  if (file.original) {
    const original = await ownOriginal(ctx, userId, file.entryId);
    zipProgress.filesRead += 1;
    if (!original) return;
    for (let at = 0; at < original.bytes.length; at += SLICE) yield original.bytes.subarray(at, at + SLICE);
    return;
  }
  const gpx = await ownTrackGpx(ctx, userId, file.entryId);
  zipProgress.filesRead += 1;
  if (gpx) yield* gpx;
}

/**
 * The zip export: `running-times.json` (the JSON export, each tracked run naming its file) and
 * `activities/<id>.<ext>`, each tracked run's original, or its track as GPX where none is kept.
 * The JSON is written first, noting the file of each tracked run as its page is read (a few bytes
 * a tracked run); then the files, in the same order, each read from the database when the archive
 * comes to it.
 */
export function exportZip(ctx: AppContext, user: Exporter): Readable {
  zipProgress.filesRead = 0;
  const files: ActivityFile[] = [];
  const filesOf: FilesOfPage = async (page) => {
    const found = await activityFilesOf(ctx, user.id, page);
    files.push(...found);
    return new Map(found.map((f) => [f.entryId, f.name]));
  };
  async function* members(): AsyncGenerator<LazyMember> {
    yield { name: ZIP_EXPORT_INDEX, content: () => exportJson(ctx, user, filesOf), deflate: true };
    // The JSON is written whole by now (the archive asks for the next member then): `files` are all its files.
    for (const file of files) {
      // FIT is compact binary: deflate saves two fifths of it for most of the export's time (decision 027).
      const deflate = file.kind !== 'fit';
      yield { name: file.name, content: () => activityContent(ctx, user.id, file), deflate };
    }
  }
  return zipStream(members(), ctx.config.now());
}

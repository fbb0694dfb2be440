/**
 * The exports of a runner's data (CONTRACT.md §9, §16): CSV, JSON, and the zip of the JSON with
 * each tracked run's activity file. Each is streamed: runs are read a page at a time by key, and
 * the zip's files one at a time, each written and let go before the next is read, so memory does
 * not grow with the number of runs; other requests go first between pages and between files.
 * Each original goes into the zip a slice at a time, read from the database only when the client
 * has taken the one before. A runner has at most 2 exports under way at once (`exportSlot`).
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
import { AppError } from '../../errors.js';
import { ownRunsAfter } from '../entries/entries.service.js';
import { listGoals } from '../goals/goals.service.js';
import { listShoes } from '../shoes/shoes.service.js';
import { originalHeadsOf, originalNamesOf, ownOriginalSlice, ownTrackGpx } from '../tracks/tracks.service.js';
import { activityKind, activityKindOfName, KIND_BYTES, type ActivityKind } from '../imports/imports.service.js';
import { zipStream, type LazyMember } from './zip-writer.js';

type Exporter = Pick<User, 'id' | 'name' | 'email' | 'timezone' | 'units'>;

// ---- Exports under way ----

/** Exports of one runner under way at once, at most, whatever their format. */
export const MAX_EXPORTS_PER_RUNNER = 2;
/** Seconds a refused export is told to wait (`Retry-After`): an export of years of files takes a while. */
export const EXPORT_RETRY_SECONDS = 30;
export const EXPORTS_UNDER_WAY = `You already have ${MAX_EXPORTS_PER_RUNNER} exports under way: wait for one to finish, then try again.`;

/**
 * A place among the runner's exports under way, or 429 when they have MAX_EXPORTS_PER_RUNNER
 * already: a slow client holds its export's buffers (a slice of an original or a few) for as long
 * as it takes, and many of them at once held the server's memory and another runner's requests.
 * The function answered gives the place back, once however often it is called: the route calls
 * it when the answer ends, fails or its client goes. Counted in this process (as its memory is).
 */
export function exportSlot(ctx: AppContext, userId: number): () => void {
  const underWay = ctx.memory.exportsUnderWay;
  const count = underWay.get(userId) ?? 0;
  if (count >= MAX_EXPORTS_PER_RUNNER) {
    throw new AppError(429, EXPORTS_UNDER_WAY, undefined, { 'retry-after': String(EXPORT_RETRY_SECONDS) });
  }
  underWay.set(userId, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (underWay.get(userId) ?? 1) - 1;
    if (left > 0) underWay.set(userId, left);
    else underWay.delete(userId);
  };
}

// ---- The exports ----

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

/**
 * What the last zip export has read from the database so far (the tests read it): its activity
 * files, and the slices of originals among them.
 */
export const zipProgress = { filesRead: 0, slicesRead: 0 };

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

/** Bytes handed on at once: a slice goes through the CRC (and deflate) in pieces of this, other work in between. */
const PIECE = 64 * 1024;

/**
 * Bytes of an original read from the database at once: 256 KiB first (that read tells its size),
 * then a 32nd of the file, at least 256 KiB and at most 1 MiB. On SQLite every read costs about
 * 1 ms a MiB of the whole original (`substr` reads the value from its pages to cut it), on the
 * event loop: a 32 MiB original is about 30 ms a read, in 33 reads, where reads of 256 KiB would
 * be 128 (an hour's FIT or GPX, 0.1 to 1 MB, is one to four reads).
 */
export function originalReadSize(size: number | null): number {
  return size === null ? 256 * 1024 : Math.min(1024 * 1024, Math.max(256 * 1024, Math.ceil(size / 32)));
}

/**
 * An original, a slice at a time: the next slice is read only when the stream asks for more (the
 * client has taken what was written), after other requests have had a turn; so a slow client
 * holds a slice or two of its export, never the file. A run deleted while its file is read ends
 * the file where it was.
 */
async function* originalContent(ctx: AppContext, userId: number, entryId: number): AsyncGenerator<Uint8Array> {
  // The first read tells the original's size, and so how much each read after it takes.
  let slice = await ownOriginalSlice(ctx, userId, entryId, 0, originalReadSize(null));
  zipProgress.filesRead += 1;
  let from = 0;
  while (slice !== null && slice.bytes.length > 0) {
    zipProgress.slicesRead += 1;
    const { size, bytes } = slice;
    from += bytes.length;
    for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
    if (from >= size) return;
    await letOthersIn();
    slice = await ownOriginalSlice(ctx, userId, entryId, from, originalReadSize(size));
  }
}

/** A file's content, read when the archive comes to it, after other requests have had their turn. */
async function* activityContent(
  ctx: AppContext,
  userId: number,
  file: ActivityFile,
): AsyncGenerator<Uint8Array | string> {
  await letOthersIn();
  // A run deleted (or its track) since the JSON named its file leaves the file empty: its row imports without a track.
  if (file.original) {
    yield* originalContent(ctx, userId, file.entryId);
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
  zipProgress.slicesRead = 0;
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

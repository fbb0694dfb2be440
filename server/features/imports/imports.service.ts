/**
 * Import and export of runs (CONTRACT.md §9). An import parses every file (parsers/), turns
 * each run into the values `POST /entry` would store (same validation), tells duplicates
 * apart, and stores the new runs, shoes and goals in one transaction in which the runner is
 * locked, so that the same file sent twice at once creates each run once. Files are read where
 * they lie (the upload's temporary files), CSVs as streams, and rows go through a spool file
 * (spool.ts) a batch at a time: memory does not grow with the upload, and by a few bytes a row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { GoalBodySchema, type GoalBody } from '../../../core/goals.js';
import {
  EXPORT_CSV_COLUMNS,
  EXPORT_FORMAT_NAME,
  EXPORT_VERSION,
  type ImportMapping,
  type ImportRow,
  type ImportedEntry,
} from '../../../core/imports.js';
import { EntryBodySchema, type Entry, type User } from '../../../core/schemas.js';
import { ShoeBodySchema, type ShoeBody } from '../../../core/shoes.js';
import { dateInZone, formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { readAside } from '../../db/sqlite.js';
import { AppError } from '../../errors.js';
import { insertManyRuns, ownRunsAfter, toValues, type EntryValues } from '../entries/entries.service.js';
import { importGoals, listGoals } from '../goals/goals.service.js';
import { importShoes, listShoes, shoeForRun } from '../shoes/shoes.service.js';
import * as imports from './imports.repository.js';
import { parseUpload } from './parsers/files.js';
import { Unreadable, type ByteSource, type Candidate } from './parsers/types.js';
import { plainEntryBody, type EntryInput } from './plain-entry.js';
import { Spool, yielder } from './spool.js';

/** An uploaded file, on disk for as long as the import runs. */
export interface UploadedFile {
  name: string;
  path: string;
}

export interface ImportOptions {
  dryRun: boolean;
  mapping?: ImportMapping | undefined;
}

type Importer = Pick<User, 'id' | 'timezone' | 'units'>;

/** What an import did: the counts, and its rows, each made as the answer is written. */
export interface ImportSummary {
  created: number;
  duplicates: number;
  skipped: number;
  /** Read once: the spool is closed when they are read to the end (or given up). */
  rows(): AsyncGenerator<ImportRow>;
  /** Lets the rows go without reading them (a client gone): safe to call more than once. */
  close(): void;
}

/** Distances half-up to the metre and durations to the second, before validation and the duplicate test. */
const metresOf = (km: number) => Math.round(km * 1000 + 1e-7);

/** §9's match: same date, distances within 1% of the larger, times within max(5 s, 1% of the longer). */
export function sameRun(a: imports.StoredRun, b: imports.StoredRun): boolean {
  if (a.date !== b.date) return false;
  if (Math.abs(a.distanceM - b.distanceM) > 0.01 * Math.max(a.distanceM, b.distanceM)) return false;
  return Math.abs(a.seconds - b.seconds) <= Math.max(5, 0.01 * Math.max(a.seconds, b.seconds));
}

/** A candidate as `POST /entry` would take it, or the first validation message. */
function validate(ctx: AppContext, user: Importer, run: Candidate, today: string): EntryValues | string {
  const metres = Number.isFinite(run.distanceKm) ? metresOf(run.distanceKm) : NaN;
  const seconds = Number.isFinite(run.seconds) ? Math.round(run.seconds) : NaN;
  const body: EntryInput = {
    date: run.date ?? (run.start ? dateInZone(run.start, user.timezone) : undefined),
    distance: Number.isNaN(metres) ? undefined : metres / 1000,
    time: Number.isNaN(seconds) ? undefined : seconds < 0 ? '-' : formatDuration(seconds),
    title: run.title ?? null,
    notes: run.notes ?? null,
    kind: run.kind ?? null,
    effort: run.effort ?? null,
  };
  let valid = plainEntryBody(body);
  if (!valid) {
    const parsed = EntryBodySchema.safeParse(body);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'The run is not valid.';
    valid = parsed.data;
  }
  try {
    return toValues(ctx, user, valid, today);
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

function preview(userId: number, values: EntryValues, shoeId: number | null): ImportedEntry {
  return {
    user_id: userId,
    date: values.date,
    distance: values.distanceKm,
    time: formatDuration(values.seconds),
    speed: round2(speedKmh(values.distanceKm, values.seconds)),
    pace: round2(paceMinPerKm(values.distanceKm, values.seconds)),
    title: values.title ?? null,
    notes: values.notes ?? null,
    kind: values.kind ?? null,
    effort: values.effort ?? null,
    shoe_id: shoeId,
  };
}

const validItems = <T>(
  items: Record<string, unknown>[],
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
) =>
  items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data as T] : [];
  });

/** Reads an uploaded file where it lies, a piece at a time. */
function openUpload(path: string): ByteSource & { close(): void } {
  const fd = fs.openSync(path, 'r');
  return {
    size: fs.fstatSync(fd).size,
    read(at, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - at)));
      const read = buffer.length > 0 ? fs.readSync(fd, buffer, 0, buffer.length, at) : 0;
      return buffer.subarray(0, read);
    },
    close: () => fs.closeSync(fd),
  };
}

/** Rows stored at once (four INSERTs of 256): an import holds at most this many parsed runs in memory. */
export const IMPORT_BATCH = 1024;

/** The answer's name of a row's status, by its code in a run line of the spool. */
const DUPLICATE_STORED = 1;
const DUPLICATE_SIBLING = 2;
const STORED_REASON = 'A run of the same day, distance and time is already stored.';

/**
 * A line of the spool: a skipped row `[0, source, reason, columns]`, or a run that passed
 * validation `[1, source, group, date, distanceKm, seconds, title, notes, kind, effort, shoe]`
 * (shoe: false when the file says nothing, null for none, else the shoe's name).
 */
type SkipLine = [0, string, string, string[] | null];
type RunLine = [
  1,
  string,
  number,
  string,
  number,
  number,
  string | null | undefined,
  string | null | undefined,
  EntryValues['kind'],
  EntryValues['effort'],
  string | null | false,
];

const valuesOf = (line: RunLine): EntryValues => ({
  date: line[3],
  distanceKm: line[4],
  seconds: line[5],
  title: line[6] ?? null,
  notes: line[7] ?? null,
  kind: line[8] ?? null,
  effort: line[9] ?? null,
});

/** How many parsed runs were held at once, at most, by the last import (the tests read it). */
export const held = { peak: 0 };

/**
 * An import in two passes over a spool file (spool.ts) in `workDir`, so that memory holds one
 * batch of rows at a time whatever the size of the upload:
 * 1. outside any transaction, every file is parsed as a stream and each row validated and
 *    written to the spool (a file found damaged part-way is cut from it, and skipped whole);
 * 2. in one transaction in which the runner is locked (so that the same file sent twice at
 *    once creates each run once), the spool is read back IMPORT_BATCH rows at a time: each
 *    batch is compared with the runner's stored runs of its dates (one to one, in order; the
 *    runs this import stored are not "stored runs" to it) and with the runs that other files
 *    of this import brought, and its new runs are stored. A failure anywhere stores nothing.
 * The answer is written from the spool a third time, with the statuses and ids pass 2 kept
 * (a few bytes a row). Parsing stays out of the transaction: on SQLite a transaction has the
 * one connection to itself, so other requests' writes wait for it only while the runs are
 * stored, and their reads run meanwhile on a second connection (readAside, db/sqlite.ts).
 */
export async function importRuns(
  ctx: AppContext,
  user: Importer,
  files: UploadedFile[],
  options: ImportOptions & { workDir: string },
): Promise<ImportSummary> {
  const spool = new Spool(path.join(options.workDir, 'rows.jsonl'));
  try {
    return await importSpooled(ctx, user, files, options, spool);
  } catch (error) {
    spool.close();
    throw error;
  }
}

async function importSpooled(
  ctx: AppContext,
  user: Importer,
  files: UploadedFile[],
  options: ImportOptions,
  spool: Spool,
): Promise<ImportSummary> {
  const shoes: ShoeBody[] = [];
  const goals: GoalBody[] = [];
  const today = dateInZone(ctx.config.now(), user.timezone);
  const parseOptions = { mapping: options.mapping, accountUnits: user.units };
  const pause = yielder();
  const counts = { created: 0, duplicates: 0, skipped: 0 };
  let groups = 0;
  let defaultShoeWanted = false;
  held.peak = 0;

  // Pass 1: parse and validate, to the spool.
  for (const file of files) {
    const upload = openUpload(file.path);
    try {
      for await (const group of parseUpload(file.name, upload, parseOptions)) {
        const mark = spool.mark();
        const before: typeof counts & { defaultShoeWanted: boolean } = { ...counts, defaultShoeWanted };
        const groupIndex = groups;
        try {
          for await (const row of group.rows) {
            await pause();
            if ('run' in row) {
              const values = validate(ctx, user, row.run, today);
              if (typeof values === 'string') {
                spool.write([0, row.source, values, null] satisfies SkipLine);
                counts.skipped += 1;
                continue;
              }
              const shoe = row.run.shoe === undefined ? false : row.run.shoe;
              if (shoe === false) defaultShoeWanted = true;
              spool.write([
                1,
                row.source,
                groupIndex,
                values.date,
                values.distanceKm,
                values.seconds,
                values.title,
                values.notes,
                values.kind,
                values.effort,
                shoe,
              ] satisfies RunLine);
              counts.created += 1;
            } else if ('skip' in row) {
              spool.write([0, row.source, row.skip, row.columns ?? null] satisfies SkipLine);
              counts.skipped += 1;
            }
          }
        } catch (error) {
          if (!(error instanceof Unreadable)) throw error;
          // A file found damaged part-way is skipped whole, with the reason.
          spool.cut(mark);
          Object.assign(counts, { created: before.created, duplicates: before.duplicates, skipped: before.skipped });
          defaultShoeWanted = before.defaultShoeWanted;
          spool.write([0, error.source ?? group.group, error.message, null] satisfies SkipLine);
          counts.skipped += 1;
          continue;
        }
        groups += 1;
        const extras = group.extras?.();
        if (extras) {
          shoes.push(...validItems<ShoeBody>(extras.shoes, ShoeBodySchema));
          goals.push(...validItems<GoalBody>(extras.goals, GoalBodySchema));
        }
      }
    } finally {
      upload.close();
    }
    // Read to its end: its place on disk is given back before the runs are stored.
    await fs.promises.rm(file.path, { force: true });
  }

  const defaultShoe = defaultShoeWanted ? await shoeForRun(ctx, user.id, undefined, true) : null;
  const rowCount = spool.lines;
  /** Per row of the spool: its duplicate code (run rows), and its id once stored. */
  const status = new Uint8Array(rowCount);
  const ids = options.dryRun ? null : new Float64Array(rowCount);
  const siblings = new Map<number, string>();
  // Runs of other files are only compared when there are other files.
  const brought = groups > 1 ? new Map<string, { r: imports.StoredRun; g: number; source: string }[]>() : null;
  const usedStored = new Set<number>();
  const storedHere = new Set<number>();
  let shoeIds = new Map<string, number>();
  const shoeOf = (shoe: string | null | false) =>
    shoe === false ? (defaultShoe ?? null) : shoe === null ? null : (shoeIds.get(shoe) ?? null);

  // Pass 2: duplicates, and the new runs stored, a batch at a time. It starts from scratch each
  // time it is called: the transaction runs again after a deadlock (context.ts inTransaction).
  const parsed = { ...counts };
  const store = async (db: AppContext['db']) => {
    Object.assign(counts, parsed);
    status.fill(0);
    ids?.fill(0);
    siblings.clear();
    brought?.clear();
    usedStored.clear();
    storedHere.clear();
    let batch: { index: number; line: RunLine }[] = [];
    const flush = async () => {
      held.peak = Math.max(held.peak, batch.length);
      const dates = [...new Set(batch.map((b) => b.line[3]))];
      const byDate = new Map<string, (imports.StoredRun & { id: number })[]>();
      for (const run of await imports.storedRunsOn(db, user.id, dates)) {
        if (storedHere.has(run.id) || usedStored.has(run.id)) continue;
        const day = byDate.get(run.date);
        if (day) day.push(run);
        else byDate.set(run.date, [run]);
      }
      const fresh: { index: number; values: EntryValues }[] = [];
      for (const { index, line } of batch) {
        const me = { date: line[3], distanceM: metresOf(line[4]), seconds: line[5] };
        const day = byDate.get(me.date);
        const twinAt = day ? day.findIndex((s) => sameRun(s, me)) : -1;
        const twin = twinAt >= 0 ? day!.splice(twinAt, 1)[0] : undefined;
        const sibling = twin ? undefined : brought?.get(me.date)?.find((b) => b.g !== line[2] && sameRun(b.r, me));
        if (twin) usedStored.add(twin.id);
        if (brought) {
          const mine = { r: me, g: line[2], source: line[1] };
          const list = brought.get(me.date);
          if (list) list.push(mine);
          else brought.set(me.date, [mine]);
        }
        if (twin) status[index] = DUPLICATE_STORED;
        else if (sibling) {
          status[index] = DUPLICATE_SIBLING;
          siblings.set(index, `The same run as ${sibling.source}.`);
        } else fresh.push({ index, values: { ...valuesOf(line), shoeId: shoeOf(line[10]) } });
        if (twin || sibling) {
          counts.duplicates += 1;
          counts.created -= 1;
        }
      }
      if (ids && fresh.length > 0) {
        const stored = await insertManyRuns(
          db,
          user.id,
          fresh.map((f) => f.values),
          now,
        );
        fresh.forEach((f, i) => {
          ids[f.index] = stored[i]!;
          storedHere.add(stored[i]!);
        });
      }
      batch = [];
    };
    let index = -1;
    for await (const line of spool.read()) {
      index += 1;
      if (line[0] !== 1) continue;
      batch.push({ index, line: line as RunLine });
      if (batch.length >= IMPORT_BATCH) {
        await flush();
        await pause();
      }
    }
    if (batch.length > 0) await flush();
  };

  let now = nowIso(ctx);
  if (options.dryRun) {
    shoeIds = new Map((await listShoes(ctx, user.id)).map((s) => [s.name, s.id]));
    await store(ctx.db);
  } else {
    // On SQLite the transaction has the one connection: other requests read beside it meanwhile.
    const release = readAside(ctx.db);
    try {
      await inTransaction(ctx, async (trx) => {
        await lockRunner(trx, user.id);
        now = nowIso(ctx);
        shoeIds = await importShoes(trx, user.id, shoes, now);
        await store(trx);
        if (goals.length > 0) await importGoals(trx, user.id, goals, now);
      });
    } finally {
      release();
    }
  }
  const created = options.dryRun ? 'would_create' : 'created';
  return {
    ...counts,
    close: () => spool.close(),
    async *rows() {
      try {
        let index = -1;
        for await (const raw of spool.read()) {
          index += 1;
          await pause();
          if (raw[0] === 0) {
            const [, source, reason, columns] = raw as SkipLine;
            yield { source, status: 'skipped', reason, ...(columns ? { columns } : {}) };
            continue;
          }
          const line = raw as RunLine;
          const code = status[index];
          if (code === DUPLICATE_STORED || code === DUPLICATE_SIBLING) {
            const reason = code === DUPLICATE_STORED ? STORED_REASON : siblings.get(index)!;
            yield { source: line[1], status: 'duplicate', reason };
            continue;
          }
          const entry = preview(user.id, valuesOf(line), shoeOf(line[10]));
          yield {
            source: line[1],
            status: created,
            entry: ids ? { id: ids[index]!, ...entry, created_at: now, updated_at: now } : entry,
          };
        }
      } finally {
        spool.close();
      }
    },
  };
}

// ---- Export ----

/** Runs a page of the export: a page is read, written and let go before the next is read. */
const PAGE = 1000;

/** Every run of the runner, oldest first, a page at a time. */
async function* everyRun(ctx: AppContext, userId: number): AsyncGenerator<Entry[]> {
  let after: { date: string; id: number } | null = null;
  for (;;) {
    const page = await ownRunsAfter(ctx, userId, after, PAGE);
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    const last = page.at(-1)!;
    after = { date: last.date, id: last.id };
  }
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
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

/** One run of the JSON export: the fields of an Entry, in its order, and its shoe's name. */
function jsonRun(e: Entry, shoe: string | null): string {
  const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
  return (
    `{"id":${e.id},"user_id":${e.user_id},"date":"${e.date}","distance":${e.distance},"time":"${e.time}",` +
    `"speed":${e.speed},"pace":${e.pace},"title":${text(e.title)},"notes":${text(e.notes)},` +
    `"kind":${text(e.kind)},"effort":${e.effort ?? 'null'},"shoe_id":${e.shoe_id ?? 'null'},` +
    `"created_at":${text(e.created_at)},"updated_at":${text(e.updated_at)},"shoe":${text(shoe)}}`
  );
}

/**
 * The JSON export, in chunks of text: the runner, their shoes and goals, then every run, one
 * chunk per page of runs (read by key, never by offset), each written as it is read.
 */
export async function* exportJson(
  ctx: AppContext,
  user: Pick<User, 'id' | 'name' | 'email' | 'timezone' | 'units'>,
): AsyncGenerator<string> {
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
    let chunk = '';
    for (const e of page) {
      chunk += separator + jsonRun(e, e.shoe_id === null ? null : (shoeNames.get(e.shoe_id) ?? null));
      separator = ',\n';
    }
    yield chunk;
  }
  yield '\n]}\n';
}

/**
 * Import and export of runs (CONTRACT.md §9). An import parses every file (parsers/), turns
 * each run into the values `POST /entry` would store (same validation), tells duplicates
 * apart, and stores the new runs, shoes and goals in one transaction in which the runner is
 * locked, so that the same file sent twice at once creates each run once. Files are read where
 * they lie (the upload's temporary files), CSVs as streams, and rows go through a spool file
 * (spool.ts) a batch at a time: memory does not grow with the upload, and by a few bytes a row.
 * Parsing (pass 1, pass-one.ts) runs on a worker thread for a large upload.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  EXPORT_CSV_COLUMNS,
  EXPORT_FORMAT_NAME,
  EXPORT_VERSION,
  type ImportMapping,
  type ImportRow,
  type ImportedEntry,
} from '../../../core/imports.js';
import type { Entry, User } from '../../../core/schemas.js';
import { dateInZone, formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { readAside } from '../../db/sqlite.js';
import { RunTally } from '../../db/tallies.js';
import { insertManyRuns, ownRunsAfter, type EntryValues } from '../entries/entries.service.js';
import { importGoals, listGoals } from '../goals/goals.service.js';
import { importShoes, listShoes, shoeForRun } from '../shoes/shoes.service.js';
import * as imports from './imports.repository.js';
import {
  metresOf,
  passOneThreads,
  spoolRows,
  spoolRowsOnThread,
  type PassOneInput,
  type PassOneResult,
  type RunLine,
  type SkipLine,
  type UploadedFile,
} from './pass-one.js';
import { Spool, yielder } from './spool.js';

export type { UploadedFile } from './pass-one.js';

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

/** §9's match: same date, distances within 1% of the larger, times within max(5 s, 1% of the longer). */
export function sameRun(a: imports.StoredRun, b: imports.StoredRun): boolean {
  if (a.date !== b.date) return false;
  if (Math.abs(a.distanceM - b.distanceM) > 0.01 * Math.max(a.distanceM, b.distanceM)) return false;
  return Math.abs(a.seconds - b.seconds) <= Math.max(5, 0.01 * Math.max(a.seconds, b.seconds));
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
    has_track: false,
    elevation_gain: null,
    elevation_loss: null,
    avg_heart_rate: null,
    max_heart_rate: null,
    avg_cadence: null,
    effort: values.effort ?? null,
    shoe_id: shoeId,
  };
}

/**
 * SQLite's page cache (KiB) of the connection while an import stores its runs
 * (imports.repository.ts holdPageCache): the pages the transaction writes add at most this much
 * to the process's memory (64 MiB otherwise), at the same speed.
 */
export const IMPORT_PAGE_CACHE_KIB = 8192;

/**
 * Runs of one INSERT of an import: on SQLite, which holds the event loop while it stores them,
 * a few milliseconds' worth, other requests let in between; on PostgreSQL, which waits on the
 * network, a batch (entries.service writes up to 256 a statement: 64 were slower, no smaller).
 */
const insertRuns = (db: AppContext['db']) => (imports.storesOnEventLoop(db) ? 64 : IMPORT_BATCH);

/** Rows compared with the stored runs at once: an import holds at most this many parsed runs in memory. */
export const IMPORT_BATCH = 1024;

/** The answer's name of a row's status, by its code in a run line of the spool. */
const DUPLICATE_STORED = 1;
const DUPLICATE_SIBLING = 2;
const STORED_REASON = 'A run of the same day, distance and time is already stored.';

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
  const spoolPath = path.join(options.workDir, 'rows.jsonl');
  const input: PassOneInput = {
    files,
    user: { timezone: user.timezone, units: user.units },
    mapping: options.mapping,
    today: dateInZone(ctx.config.now(), user.timezone),
  };
  held.peak = 0;
  // Pass 1: parse and validate, to the spool; a large upload on a worker thread of its own.
  let spool: Spool;
  let found: PassOneResult;
  if (uploadBytes(files) >= passOneThreads.fromBytes) {
    const done = await spoolRowsOnThread(input, spoolPath);
    spool = new Spool(spoolPath, done.spool);
    found = done;
  } else {
    spool = new Spool(spoolPath);
    try {
      found = await spoolRows(input, spool, yielder());
    } catch (error) {
      spool.close();
      throw error;
    }
  }
  try {
    return await storeSpooled(ctx, user, found, options, spool);
  } catch (error) {
    spool.close();
    throw error;
  }
}

/** The size of the uploaded files on disk. */
function uploadBytes(files: UploadedFile[]): number {
  let total = 0;
  for (const file of files) total += fs.statSync(file.path).size;
  return total;
}

/** Pass 2 and the answer (see importRuns). */
async function storeSpooled(
  ctx: AppContext,
  user: Importer,
  found: PassOneResult,
  options: ImportOptions,
  spool: Spool,
): Promise<ImportSummary> {
  const { shoes, goals, groups, defaultShoeWanted } = found;
  const pause = yielder();
  const breathe = yielder(2, 1);
  const counts = { created: found.created, duplicates: 0, skipped: found.skipped };

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
    const chunk = insertRuns(db);
    // Everyone's days are written once, at the end: held from there to the commit only (db/tallies.ts).
    const tally = new RunTally(db);
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
      // A few runs an INSERT, other requests let in between: SQLite stores them synchronously,
      // so a batch in one go would hold the event loop for tens of milliseconds.
      for (let at = 0; ids && at < fresh.length; at += chunk) {
        const some = fresh.slice(at, at + chunk);
        const stored = await insertManyRuns(
          db,
          user.id,
          some.map((f) => f.values),
          now,
          tally,
        );
        some.forEach((f, i) => {
          ids[f.index] = stored[i]!;
          storedHere.add(stored[i]!);
        });
        await breathe();
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
    await tally.finish();
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
        const restoreCache = await imports.holdPageCache(trx, IMPORT_PAGE_CACHE_KIB);
        try {
          now = nowIso(ctx);
          shoeIds = await importShoes(trx, user.id, shoes, now);
          await store(trx);
          if (goals.length > 0) await importGoals(trx, user.id, goals, now);
        } catch (error) {
          // The transaction's failure is the one to tell.
          await restoreCache().catch(() => undefined);
          throw error;
        }
        await restoreCache();
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

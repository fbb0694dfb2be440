/**
 * Import of runs (CONTRACT.md §9, §13; the exports are in exports.service.ts). An import parses
 * every file (parsers/), turns each run into the values `POST /entry` would store (same
 * validation), tells duplicates apart, and stores the new runs, shoes and goals in one
 * transaction in which the runner is locked, so that the same file sent twice at once creates
 * each run once. Files are read where they lie (the upload's temporary files), CSVs as streams,
 * and rows go through a spool file (spool.ts) a batch at a time: memory does not grow with the
 * upload, and by a few bytes a row. Parsing (pass 1, pass-one.ts) runs on a parse thread
 * (pass-one-threads.ts), never on the main thread.
 */
import path from 'node:path';
import { sameRunNumbers, type ImportMapping, type ImportRow, type ImportedEntry } from '../../../core/imports.js';
import type { User } from '../../../core/schemas.js';
import type { EntryTrackFields } from '../../../core/tracks/analyse.js';
import { formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import { inTransaction, nowIso, todayOf, type AppContext } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { readAside } from '../../db/sqlite.js';
import { RunTally } from '../../db/tallies.js';
import { findEntry, insertManyRuns, type EntryValues } from '../entries/entries.service.js';
import { packedSummary, storeTrack, unpackTrack } from '../tracks/tracks.service.js';
import { importGoals } from '../goals/goals.service.js';
import { importShoes, previewImportedShoes } from '../shoes/shoes.service.js';
import * as imports from './imports.repository.js';
import {
  importLimits,
  metresOf,
  type PassOneInput,
  type PassOneResult,
  type RunLine,
  type SkipLine,
  type SourcedShoe,
  type UploadedFile,
} from './pass-one.js';
import { spoolRowsOnThread } from './pass-one-threads.js';
import { Brought, MAX_COMPARED } from './brought.js';
import { Spool, yielder } from './spool.js';

export type { UploadedFile } from './pass-one.js';

export interface ImportOptions {
  dryRun: boolean;
  mapping?: ImportMapping | undefined;
  /** Sources of rows to leave out (§18). */
  exclude?: string[] | undefined;
}

type Importer = Pick<User, 'id' | 'timezone' | 'units'>;

/** What an import did: the counts, and its rows, each made as the answer is written. */
export interface ImportSummary {
  created: number;
  duplicates: number;
  skipped: number;
  /** §13: stored runs without a track that a file gave one. */
  tracksAdded: number;
  /** Read once: the spools are closed when they are read to the end (or given up). */
  rows(): AsyncGenerator<ImportRow>;
  /** Lets the rows go without reading them (a client gone): safe to call more than once. */
  close(): void;
}

/** §9's match: same date, distances within 1% of the larger, times within max(5 s, 1% of the longer). */
export function sameRun(a: imports.StoredRun, b: imports.StoredRun): boolean {
  return a.date === b.date && sameRunNumbers(a.distanceM, a.seconds, b.distanceM, b.seconds);
}

function preview(
  userId: number,
  values: EntryValues,
  shoeId: number | null,
  track: EntryTrackFields | null,
): ImportedEntry {
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
    has_track: track !== null,
    elevation_gain: track?.elevation_gain ?? null,
    elevation_loss: track?.elevation_loss ?? null,
    avg_heart_rate: track?.avg_heart_rate ?? null,
    max_heart_rate: track?.max_heart_rate ?? null,
    avg_cadence: track?.avg_cadence ?? null,
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

/**
 * What pass 2 decided for a run line, one line of a second spool per run line, in order: stored
 * (or would be) with its id, a duplicate of a stored run, or of a run another file brought.
 */
type Outcome =
  | [0, number | null]
  | [1, { id: number; distanceM: number; seconds: number }]
  | [2, string]
  /** §13: a stored run without a track that this row's file gives one (its id). */
  | [3, number];

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
 *    What it decides for each run goes to a second spool, in order.
 * The answer is written from both spools. Parsing stays out of the transaction: on SQLite a
 * transaction has the one connection to itself, so other requests' writes wait for it only
 * while the runs are stored, and their reads run meanwhile on a second connection (readAside,
 * db/sqlite.ts).
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
    today: todayOf(ctx, user),
    exclude: options.exclude ?? [],
    limits: { ...importLimits },
  };
  held.peak = 0;
  // Pass 1: parse and validate, to the spool, on a parse thread (pass-one-threads.ts).
  const found = await spoolRowsOnThread(input, spoolPath, user.id);
  const spool = new Spool(spoolPath, found.spool);
  const outcomes = new Spool(path.join(options.workDir, 'outcomes.jsonl'));
  try {
    return await storeSpooled(ctx, user, found, options, spool, outcomes);
  } catch (error) {
    spool.close();
    outcomes.close();
    throw error;
  }
}

/** The rows of the shoes an import leaves out (§18: a runner has at most 100 shoes). */
const leftOutShoes = (left: SourcedShoe[]): ImportRow[] =>
  left.map(({ source, body }) => ({
    source,
    status: 'skipped',
    reason: `A runner has at most 100 shoes: "${body.name}" was not imported (its runs come in without it).`,
  }));

/** Pass 2 and the answer (see importRuns). */
async function storeSpooled(
  ctx: AppContext,
  user: Importer,
  found: PassOneResult,
  options: ImportOptions,
  spool: Spool,
  outcomes: Spool,
): Promise<ImportSummary> {
  const { shoes, goals, groups } = found;
  const pause = yielder();
  const breathe = yielder(2, 1);
  const counts = { created: found.created, duplicates: 0, skipped: found.skipped, tracksAdded: 0 };
  // Runs of other files are only compared when there are other files.
  const brought = groups > 1 ? new Brought(found.created) : null;
  const usedStored = new Set<number>();
  const storedHere = new Set<number>();
  let shoeIds = new Map<string, number>();
  let shoesLeft: SourcedShoe[] = [];
  const shoeOf = (shoe: string | null) => (shoe === null ? null : (shoeIds.get(shoe) ?? null));

  // Pass 2: duplicates, and the new runs stored, a batch at a time. It starts from scratch each
  // time it is called: the transaction runs again after a deadlock (context.ts inTransaction).
  const parsed = { ...counts };
  const store = async (db: AppContext['db'], storing: boolean) => {
    Object.assign(counts, parsed);
    outcomes.cut({ at: 0, lines: 0 });
    brought?.clear();
    usedStored.clear();
    storedHere.clear();
    const chunk = insertRuns(db);
    // Everyone's days are written once, at the end: held from there to the commit only (db/tallies.ts).
    const tally = new RunTally(db);
    let batch: { line: RunLine; at: number }[] = [];
    const flush = async () => {
      held.peak = Math.max(held.peak, batch.length);
      const dates = [...new Set(batch.map((b) => b.line[3]))];
      const byDate = new Map<string, imports.StoredMatch[]>();
      for (const run of await imports.storedRunsOn(db, user.id, dates)) {
        if (storedHere.has(run.id) || usedStored.has(run.id)) continue;
        const day = byDate.get(run.date);
        if (day) day.push(run);
        else byDate.set(run.date, [run]);
      }
      const decided: Outcome[] = [];
      const fresh: { at: number; values: EntryValues; track: RunLine[11] }[] = [];
      for (const { line, at } of batch) {
        const [date, metres, seconds, group] = [line[3], metresOf(line[4]), line[5], line[2]];
        const day = byDate.get(date);
        // §13: of the stored runs it matches, one without a track first, then §9's order.
        let twinAt = -1;
        for (let i = 0; day && i < Math.min(day.length, MAX_COMPARED); i++) {
          if (!sameRunNumbers(day[i]!.distanceM, day[i]!.seconds, metres, seconds)) continue;
          if (twinAt < 0) twinAt = i;
          if (!day[i]!.hasTrack) {
            twinAt = i;
            break;
          }
        }
        const twin = twinAt >= 0 ? day!.splice(twinAt, 1)[0] : undefined;
        const siblingAt = twin || !brought ? -1 : brought.match(date, metres, seconds, group);
        brought?.add(date, metres, seconds, group, at);
        const track = line[11];
        if (twin && track && !twin.hasTrack) {
          usedStored.add(twin.id);
          if (storing) {
            const { prepared, original } = unpackTrack(spool.blobAt(track));
            await storeTrack(db, { id: twin.id, userId: user.id }, prepared, original);
          }
          decided.push([3, twin.id]);
          counts.tracksAdded += 1;
          counts.created -= 1;
          continue;
        }
        if (twin) {
          usedStored.add(twin.id);
          decided.push([1, { id: twin.id, distanceM: twin.distanceM, seconds: twin.seconds }]);
        } else if (siblingAt >= 0) {
          decided.push([2, spool.lineAt(siblingAt)[1] as string]);
        } else {
          fresh.push({ at: decided.length, values: { ...valuesOf(line), shoeId: shoeOf(line[10]) }, track });
          decided.push([0, null]);
        }
        if (twin || siblingAt >= 0) {
          counts.duplicates += 1;
          counts.created -= 1;
        }
      }
      // A few runs an INSERT, other requests let in between: SQLite stores them synchronously,
      // so a batch in one go would hold the event loop for tens of milliseconds.
      for (let at = 0; storing && at < fresh.length; at += chunk) {
        const some = fresh.slice(at, at + chunk);
        const stored = await insertManyRuns(
          db,
          user.id,
          some.map((f) => f.values),
          now,
          tally,
        );
        for (const [i, f] of some.entries()) {
          decided[f.at] = [0, stored[i]!];
          storedHere.add(stored[i]!);
          if (f.track) {
            const { prepared, original } = unpackTrack(spool.blobAt(f.track));
            await storeTrack(db, { id: stored[i]!, userId: user.id }, prepared, original);
          }
        }
        await breathe();
      }
      for (const outcome of decided) outcomes.write(outcome);
      batch = [];
    };
    for await (const { row, at } of spool.read()) {
      if (row[0] !== 1) continue;
      batch.push({ line: row as RunLine, at });
      if (batch.length >= IMPORT_BATCH) {
        await flush();
        await pause();
      }
    }
    if (batch.length > 0) await flush();
    await tally.finish();
    outcomes.flush();
  };

  let now = nowIso(ctx);
  if (options.dryRun) {
    ({ byName: shoeIds, left: shoesLeft } = await previewImportedShoes(ctx, user.id, shoes));
    await store(ctx.db, false);
  } else {
    // On SQLite the transaction has the one connection: other requests read beside it meanwhile.
    const release = readAside(ctx.db);
    try {
      await inTransaction(ctx, async (trx) => {
        await lockRunner(trx, user.id);
        const restoreCache = await imports.holdPageCache(trx, IMPORT_PAGE_CACHE_KIB);
        try {
          now = nowIso(ctx);
          ({ byName: shoeIds, left: shoesLeft } = await importShoes(trx, user.id, shoes, now));
          await store(trx, true);
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
  counts.skipped += shoesLeft.length;
  const created = options.dryRun ? 'would_create' : 'created';
  const close = () => {
    spool.close();
    outcomes.close();
  };
  return {
    ...counts,
    close,
    async *rows() {
      try {
        const decided = outcomes.read();
        for await (const { row: raw } of spool.read()) {
          await pause();
          if (raw[0] === 0) {
            const [, source, reason, columns] = raw as SkipLine;
            yield { source, status: 'skipped', reason, ...(columns ? { columns } : {}) };
            continue;
          }
          const line = raw as RunLine;
          const outcome = (await decided.next()).value!.row as Outcome;
          if (outcome[0] === 1) {
            const twin = outcome[1];
            yield {
              source: line[1],
              status: 'duplicate',
              reason: STORED_REASON,
              duplicate_of: {
                id: twin.id,
                date: line[3],
                distance: twin.distanceM / 1000,
                time: formatDuration(twin.seconds),
              },
            };
            continue;
          }
          if (outcome[0] === 2) {
            yield { source: line[1], status: 'duplicate', reason: `The same run as ${outcome[1]}.` };
            continue;
          }
          const note = line[12] ? { reason: line[12] } : {};
          if (outcome[0] === 3) {
            const stored = await findEntry(ctx, outcome[1]);
            yield {
              source: line[1],
              status: options.dryRun ? 'would_add_track' : 'track_added',
              ...note,
              ...(stored ? { entry: stored } : {}),
            };
            continue;
          }
          const place = line[11];
          const track = place ? packedSummary((at, length) => spool.blobAt([place[0] + at, length])) : null;
          const entry = preview(user.id, valuesOf(line), shoeOf(line[10]), track);
          const id = outcome[1];
          yield {
            source: line[1],
            status: created,
            ...note,
            entry: id === null ? entry : { id, ...entry, created_at: now, updated_at: now },
          };
        }
        yield* leftOutShoes(shoesLeft);
      } finally {
        close();
      }
    },
  };
}

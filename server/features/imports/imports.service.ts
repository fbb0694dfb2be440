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
import { type ImportMapping, type ImportRow, type ImportedEntry } from '../../../core/imports.js';
import type { User } from '../../../core/schemas.js';
import type { EntryTrackFields } from '../../../core/tracks/analyse.js';
import { formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import { inTransaction, nowIso, todayOf, type AppContext } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { readAside } from '../../db/sqlite.js';
import { revisionNow, RunTally } from '../../db/tallies.js';
import { findEntry, giveShoe, insertManyRuns, type EntryValues, type ImportedRun } from '../entries/entries.service.js';
import { insertTracks, packedSummary, storeTrack, unpackTrack } from '../tracks/tracks.service.js';
import { importGoals } from '../goals/goals.service.js';
import { importShoes, previewImportedShoes } from '../shoes/shoes.service.js';
import * as imports from './imports.repository.js';
import {
  importLimits,
  type PassOneInput,
  type PassOneResult,
  type RunLine,
  type SkipLine,
  type SourcedShoe,
  type UploadedFile,
} from './pass-one.js';
import { spoolRowsOnThread } from './pass-one-threads.js';
import { Matcher, spooledRun, type Outcome, type SpooledRun } from './matching.js';
import { Spool, yielder } from './spool.js';

export type { UploadedFile } from './pass-one.js';
/** How a file's kind is told (the zip export names each original by it). */
export { activityKind, activityKindOfName, KIND_BYTES, type ActivityKind } from './parsers/files.js';

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

/** How many parsed runs were held at once, at most, by the last import (the tests read it). */
export const held = { peak: 0 };

/** The spool's runs, a batch at a time, as named records. */
async function* runBatches(spool: Spool): AsyncGenerator<SpooledRun[]> {
  let batch: SpooledRun[] = [];
  for await (const { row, at } of spool.read()) {
    if (row[0] !== 1) continue;
    batch.push(spooledRun(row as RunLine, at));
    if (batch.length >= IMPORT_BATCH) {
      held.peak = Math.max(held.peak, batch.length);
      yield batch;
      batch = [];
    }
  }
  held.peak = Math.max(held.peak, batch.length);
  if (batch.length > 0) yield batch;
}

/** What matching decided, and the runner's revision it was decided under. */
interface Matched {
  revision: number;
  duplicates: number;
  tracksAdded: number;
}

/**
 * The duplicate test of every run of the spool (matching.ts), against the runner's stored runs
 * read on `db`, each run's outcome written to `outcomes` in spool order. It writes nothing to the
 * database: outside a transaction (a preview, or before an import's) it holds no lock. The
 * revision is read first: stored runs read after it are at least that recent.
 */
async function matchSpooled(
  db: AppContext['db'],
  userId: number,
  found: PassOneResult,
  spool: Spool,
  outcomes: Spool,
): Promise<Matched> {
  const revision = await revisionNow(db, userId);
  const matcher = new Matcher(found.created, found.groups);
  const matched: Matched = { revision, duplicates: 0, tracksAdded: 0 };
  outcomes.cut({ at: 0, lines: 0 });
  const pause = yielder();
  for await (const batch of runBatches(spool)) {
    const dates = [...new Set(batch.map((run) => run.values.date))];
    for (const outcome of matcher.decide(batch, await imports.storedRunsOn(db, userId, dates))) {
      if (outcome.kind === 'duplicate' || outcome.kind === 'sibling') matched.duplicates += 1;
      if (outcome.kind === 'trackAdded') matched.tracksAdded += 1;
      outcomes.write([outcome]);
    }
    await pause();
  }
  outcomes.flush();
  return matched;
}

/** Each run of the spool with its outcome, in spool order. */
async function* decided(spool: Spool, outcomes: Spool): AsyncGenerator<{ run: SpooledRun; outcome: Outcome }> {
  const read = outcomes.read();
  for await (const batch of runBatches(spool)) {
    for (const run of batch) yield { run, outcome: (await read.next()).value!.row[0] as Outcome };
  }
}

/**
 * Stores what matching decided, in the import's transaction `trx`: each new run in one pass with
 * its track's summary in its row, counted once with its best efforts (insertManyRuns), then its
 * track (insertTracks); a stored run without a track given one (storeTrack). Answers the new
 * runs' ids in spool order. It starts from scratch each time it is called: the transaction runs
 * again after a deadlock (context.ts inTransaction).
 */
async function storeDecided(
  trx: AppContext['db'],
  userId: number,
  spool: Spool,
  outcomes: Spool,
  shoeOf: (shoe: string | null) => number | null,
  now: string,
): Promise<number[]> {
  const ids: number[] = [];
  const chunk = insertRuns(trx);
  const breathe = yielder(2, 1);
  // The runner's tallies and everyone's days are written once, at the end (the runner is locked):
  // everyone's days held from there to the commit only (db/tallies.ts).
  const tally = new RunTally(trx, { deferOwn: true });
  let fresh: { values: ImportedRun; packed: ReturnType<typeof unpackTrack> | null }[] = [];
  const flush = async () => {
    const stored = await insertManyRuns(
      trx,
      userId,
      fresh.map((f) => f.values),
      now,
      tally,
    );
    ids.push(...stored);
    await insertTracks(
      trx,
      fresh.flatMap((f, i) => (f.packed ? [{ run: { id: stored[i]!, userId }, ...f.packed }] : [])),
    );
    fresh = [];
    await breathe();
  };
  for await (const { run, outcome } of decided(spool, outcomes)) {
    if (outcome.kind === 'trackAdded') {
      const { prepared, original } = unpackTrack(spool.blobAt(run.track!));
      await storeTrack(trx, { id: outcome.id, userId }, prepared, original);
      continue;
    }
    if (outcome.kind !== 'new') continue;
    const packed = run.track ? unpackTrack(spool.blobAt(run.track)) : null;
    const track = packed && {
      fields: packed.prepared.entry,
      efforts: packed.prepared.hasDistances ? packed.prepared.efforts : null,
    };
    fresh.push({ values: { ...run.values, shoeId: shoeOf(run.shoe), track }, packed });
    if (fresh.length >= chunk) await flush();
  }
  if (fresh.length > 0) await flush();
  await tally.finish();
  return ids;
}

/**
 * What a staging transaction holds at most (decision 037): a few tens of milliseconds of writing,
 * so that another runner's write waits for one of them at most, never for the whole import.
 */
const STAGE_RUNS = 512;
const STAGE_TRACK_BYTES = 4 * 1024 * 1024;
/** Stagings of one import when the runner's runs moved meanwhile; then it stores in one transaction. */
const STAGE_ATTEMPTS = 3;

/** The runner's shoes by name once an import's are made, and the import's shoes left out. */
type ImportedShoes = { byName: Map<string, number>; left: SourcedShoe[] };

/** What staging stored: the new runs' ids in spool order, and what lands with them. */
interface Staged {
  ids: number[];
  tally: RunTally;
  /** The runs that name a shoe the runner has not yet, by name: the shoe is made when the import lands. */
  newShoeRuns: Map<string, number[]>;
  /** Stored runs a file gives a track: their tracks are stored when the import lands. */
  tracksAdded: { id: number; track: [number, number] }[];
}

/**
 * Stores the runs matching decided new, marked as import `staged`'s, in transactions of at most
 * STAGE_RUNS runs and STAGE_TRACK_BYTES of tracks, other requests let in between. Nobody sees
 * them until the import lands. Transactions of their own, not run again: the tally gathers each.
 */
async function stageRuns(
  ctx: AppContext,
  userId: number,
  staged: number,
  spool: Spool,
  outcomes: Spool,
  knownShoes: Map<string, number>,
  now: string,
): Promise<Staged> {
  const tally = new RunTally(ctx.db, { staged });
  const done: Staged = { ids: [], tally, newShoeRuns: new Map(), tracksAdded: [] };
  let fresh: { values: ImportedRun; packed: ReturnType<typeof unpackTrack> | null; newShoe: string | null }[] = [];
  let bytes = 0;
  const flush = async () => {
    const batch = fresh;
    fresh = [];
    bytes = 0;
    const ids = await ctx.db.transaction().execute(async (trx) => {
      tally.writeOn(trx);
      const stored = await insertManyRuns(
        trx,
        userId,
        batch.map((f) => f.values),
        now,
        tally,
        staged,
      );
      await insertTracks(
        trx,
        batch.flatMap((f, i) => (f.packed ? [{ run: { id: stored[i]!, userId }, ...f.packed }] : [])),
      );
      return stored;
    });
    batch.forEach(({ newShoe }, i) => {
      if (newShoe === null) return;
      const runs = done.newShoeRuns.get(newShoe) ?? [];
      runs.push(ids[i]!);
      done.newShoeRuns.set(newShoe, runs);
    });
    done.ids.push(...ids);
    // Other requests' statements run here, between two transactions.
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  for await (const { run, outcome } of decided(spool, outcomes)) {
    if (outcome.kind === 'trackAdded') done.tracksAdded.push({ id: outcome.id, track: run.track! });
    if (outcome.kind !== 'new') continue;
    const packed = run.track ? unpackTrack(spool.blobAt(run.track)) : null;
    const track = packed && {
      fields: packed.prepared.entry,
      efforts: packed.prepared.hasDistances ? packed.prepared.efforts : null,
    };
    const shoeId = run.shoe === null ? null : (knownShoes.get(run.shoe) ?? null);
    const newShoe = run.shoe !== null && shoeId === null ? run.shoe : null;
    fresh.push({ values: { ...run.values, shoeId, track }, packed, newShoe });
    bytes += run.track?.[1] ?? 0;
    if (fresh.length >= STAGE_RUNS || bytes >= STAGE_TRACK_BYTES) await flush();
  }
  if (fresh.length > 0) await flush();
  return done;
}

/**
 * The last transaction of a staged import: unless the runner's runs moved since they were matched
 * (answers null: stage again), makes its new shoes and gives them their runs, stores the tracks
 * of stored runs, writes the tallies of every new run, the goals, and shows the runs, all at once.
 */
async function landStaged(
  ctx: AppContext,
  userId: number,
  staged: number,
  stored: Staged,
  found: PassOneResult,
  spool: Spool,
  revision: number,
  now: string,
): Promise<ImportedShoes | null> {
  return ctx.db.transaction().execute(async (trx) => {
    if ((await revisionNow(trx, userId)) !== revision) return null;
    const shoes = await importShoes(trx, userId, found.shoes, now);
    for (const [name, runs] of stored.newShoeRuns) {
      const shoeId = shoes.byName.get(name);
      if (shoeId !== undefined) await giveShoe(trx, shoeId, runs);
    }
    for (const { id, track } of stored.tracksAdded) {
      const { prepared, original } = unpackTrack(spool.blobAt(track));
      await storeTrack(trx, { id, userId }, prepared, original);
    }
    stored.tally.writeOn(trx);
    await stored.tally.finish();
    if (found.goals.length > 0) await importGoals(trx, userId, found.goals, now);
    await imports.landStaged(trx, staged);
    return shoes;
  });
}

/** Every row of a staged import's `action` (imports.repository.ts stagedSlice), a short statement at a time. */
async function sweepStaged(ctx: AppContext, staged: number, action: 'cleared' | 'deleted'): Promise<void> {
  for (const table of ['runner_efforts', 'entries'] as const) {
    while ((await imports.stagedSlice(ctx.db, table, staged, action)) > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * At start-up: the runs of imports that never landed (the server stopped during them) deleted,
 * and the marks of landed ones cleared. One server process per SQLite file (decision 037).
 */
export async function sweepStagedImports(ctx: AppContext): Promise<void> {
  for (const staged of await imports.stagedImports(ctx.db)) {
    await sweepStaged(ctx, staged, 'deleted');
    await imports.forgetStaged(ctx.db, staged);
  }
  for (const staged of await imports.markedImports(ctx.db)) await sweepStaged(ctx, staged, 'cleared');
}

/**
 * Step 3 on SQLite (decision 037): the new runs stored in short transactions, hidden, then shown
 * in the import's last transaction. When the runner's runs moved between matching and landing
 * (another write of theirs), the staged runs are deleted and the spool matched and staged again;
 * after STAGE_ATTEMPTS, answers null and the caller stores in one transaction. A failure deletes
 * every staged run.
 */
async function storeStaged(
  ctx: AppContext,
  user: Importer,
  found: PassOneResult,
  spool: Spool,
  outcomes: Spool,
  matchedFirst: Matched,
): Promise<{
  matched: Matched;
  ids: number[];
  shoes: ImportedShoes;
  now: string;
} | null> {
  let matched = matchedFirst;
  const staged = await imports.stageImport(ctx.db, user.id, nowIso(ctx));
  const restoreCache = await imports.holdPageCache(ctx.db, IMPORT_PAGE_CACHE_KIB);
  try {
    for (let attempt = 1; attempt <= STAGE_ATTEMPTS; attempt++) {
      const now = nowIso(ctx);
      const known = (await previewImportedShoes(ctx, user.id, [])).byName;
      const stored = await stageRuns(ctx, user.id, staged, spool, outcomes, known, now);
      const shoes = await landStaged(ctx, user.id, staged, stored, found, spool, matched.revision, now);
      if (shoes) {
        await sweepStaged(ctx, staged, 'cleared');
        return { matched, ids: stored.ids, shoes, now };
      }
      await sweepStaged(ctx, staged, 'deleted');
      matched = await matchSpooled(ctx.db, user.id, found, spool, outcomes);
    }
  } catch (error) {
    await sweepStaged(ctx, staged, 'deleted').catch(() => undefined);
    await imports.forgetStaged(ctx.db, staged).catch(() => undefined);
    throw error;
  } finally {
    await restoreCache().catch(() => undefined);
  }
  await imports.forgetStaged(ctx.db, staged);
  return null;
}

/**
 * An import in three steps over a spool file (spool.ts) in `workDir`, so that memory holds one
 * batch of rows at a time whatever the size of the upload:
 * 1. on a parse thread, every file is parsed as a stream and each row validated and written to
 *    the spool (a file found damaged part-way is cut from it, and skipped whole);
 * 2. outside any transaction, the spool is read back IMPORT_BATCH rows at a time and each run
 *    matched (matching.ts) with the runner's stored runs of its dates and with the runs that other
 *    files of this import brought; the outcomes go to a second spool, in order. A preview ends here;
 * 3. in one transaction in which the runner is locked, the new runs are stored with their tracks,
 *    shoes and goals. When the runner's revision moved since step 2 (another write of their runs,
 *    such as the same file sent twice at once), step 2 is done again inside the transaction first,
 *    so each run is still created once. A failure anywhere stores nothing.
 * The answer is written from both spools.
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
  // Step 1: parse and validate, to the spool, on a parse thread (pass-one-threads.ts).
  const found = await spoolRowsOnThread(input, spoolPath, user.id);
  const spool = new Spool(spoolPath, found.spool);
  const outcomes = new Spool(path.join(options.workDir, 'outcomes.jsonl'));
  try {
    const summary = await matchAndStore(ctx, user, found, options, spool, outcomes);
    // Routes and segments follow the runs stored (CONTRACT.md §22), off the request path.
    if (!options.dryRun && summary.created + summary.tracksAdded > 0) await ctx.memory.runs?.runsChanged(user.id);
    return summary;
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

/** Steps 2 and 3, and the answer (see importRuns). */
async function matchAndStore(
  ctx: AppContext,
  user: Importer,
  found: PassOneResult,
  options: ImportOptions,
  spool: Spool,
  outcomes: Spool,
): Promise<ImportSummary> {
  const { shoes, goals } = found;
  let shoeIds = new Map<string, number>();
  let shoesLeft: SourcedShoe[] = [];
  const shoeOf = (shoe: string | null) => (shoe === null ? null : (shoeIds.get(shoe) ?? null));
  let matched = await matchSpooled(ctx.db, user.id, found, spool, outcomes);
  let now = nowIso(ctx);
  let ids: number[] = [];
  // SQLite stages the runs (decision 037); null when it gave up, and the one transaction below stores them.
  const staged =
    !options.dryRun && imports.storesOnEventLoop(ctx.db)
      ? await storeStaged(ctx, user, found, spool, outcomes, matched)
      : null;
  if (options.dryRun) {
    ({ byName: shoeIds, left: shoesLeft } = await previewImportedShoes(ctx, user.id, shoes));
  } else if (staged) {
    ({ matched, ids, now } = staged);
    ({ byName: shoeIds, left: shoesLeft } = staged.shoes);
  } else {
    // On SQLite the transaction has the one connection: other requests read beside it meanwhile.
    const release = readAside(ctx.db);
    try {
      await inTransaction(ctx, async (trx) => {
        await lockRunner(trx, user.id);
        if ((await revisionNow(trx, user.id)) !== matched.revision) {
          matched = await matchSpooled(trx, user.id, found, spool, outcomes);
        }
        const restoreCache = await imports.holdPageCache(trx, IMPORT_PAGE_CACHE_KIB);
        try {
          now = nowIso(ctx);
          ({ byName: shoeIds, left: shoesLeft } = await importShoes(trx, user.id, shoes, now));
          ids = await storeDecided(trx, user.id, spool, outcomes, shoeOf, now);
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
  const counts = {
    created: found.created - matched.duplicates - matched.tracksAdded,
    duplicates: matched.duplicates,
    skipped: found.skipped + shoesLeft.length,
    tracksAdded: matched.tracksAdded,
  };
  const created = options.dryRun ? 'would_create' : 'created';
  const close = () => {
    spool.close();
    outcomes.close();
  };
  return {
    ...counts,
    close,
    async *rows() {
      const pause = yielder();
      try {
        const read = outcomes.read();
        let stored = 0;
        for await (const { row: raw } of spool.read()) {
          await pause();
          if (raw[0] === 0) {
            const [, source, reason, columns] = raw as SkipLine;
            yield { source, status: 'skipped', reason, ...(columns ? { columns } : {}) };
            continue;
          }
          const line = raw as RunLine;
          const { source, values, shoe, track, note: said } = spooledRun(line, 0);
          const outcome = (await read.next()).value!.row[0] as Outcome;
          if (outcome.kind === 'duplicate') {
            yield {
              source,
              status: 'duplicate',
              reason: STORED_REASON,
              duplicate_of: {
                id: outcome.of.id,
                date: values.date,
                distance: outcome.of.distanceM / 1000,
                time: formatDuration(outcome.of.seconds),
              },
            };
            continue;
          }
          if (outcome.kind === 'sibling') {
            yield { source, status: 'duplicate', reason: `The same run as ${spool.lineAt(outcome.at)[1] as string}.` };
            continue;
          }
          const note = said ? { reason: said } : {};
          if (outcome.kind === 'trackAdded') {
            const entry = await findEntry(ctx, outcome.id);
            yield {
              source,
              status: options.dryRun ? 'would_add_track' : 'track_added',
              ...note,
              ...(entry ? { entry } : {}),
            };
            continue;
          }
          const summary = track ? packedSummary((at, length) => spool.blobAt([track[0] + at, length])) : null;
          const entry = preview(user.id, values, shoeOf(shoe), summary);
          const id = options.dryRun ? null : ids[stored++]!;
          yield {
            source,
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

/**
 * The seed's tracks (CONTRACT.md §13): which runs get one, their synthetic tracks made and prepared
 * on a few worker threads (track-worker.ts), and each stored through the server's own `storeTrack`
 * (the track, the run's summary of it and the runner's insights revision, in one transaction per
 * batch), as an import stores a file's track. At most a few batches are in flight: memory stays
 * flat however many tracks are asked for.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { inTransaction, type AppContext } from '../../server/context.js';
import type { Executor } from '../../server/db/schema.js';
import { startThread, siblingModule } from '../../server/threads.js';
import { storeTrack, unpackTrack } from '../../server/features/tracks/tracks.service.js';
import type { Random } from './generate.js';
import { packedSyntheticTrack, type RunToTrack } from './tracks.js';

/** Runs per message to a thread, and per transaction that stores them. */
const BATCH = 16;
/** Batches in flight per thread: one being prepared, one waiting, so that a thread never idles. */
const IN_FLIGHT_PER_THREAD = 2;
/** Ids read per query while picking runs. */
const ID_PAGE = 50_000;
/** Runs whose details are read per query. */
const DETAILS_PAGE = 500;

/** The largest id of a run, before a seed writes its own (every run it writes gets a larger one). */
export async function lastRunId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('entries')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** `count` distinct whole numbers below `of`, ascending (Floyd's sampling: as many draws as picks). */
function distinctBelow(random: Random, of: number, count: number): number[] {
  const picked = new Set<number>();
  for (let j = of - count; j < of; j++) {
    const candidate = Math.floor(random() * (j + 1));
    picked.add(picked.has(candidate) ? j : candidate);
  }
  return [...picked].sort((a, b) => a - b);
}

/** The details a track is made from, of runs given by id, in id order. */
async function runsToTrack(db: Executor, ids: number[]): Promise<RunToTrack[]> {
  const runs: RunToTrack[] = [];
  for (let at = 0; at < ids.length; at += DETAILS_PAGE) {
    const rows = await db
      .selectFrom('entries as e')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.id', 'e.user_id', 'e.date', 'e.distance_m', 'e.seconds', 'u.timezone'])
      .where('e.id', 'in', ids.slice(at, at + DETAILS_PAGE))
      .orderBy('e.id')
      .execute();
    for (const r of rows) {
      runs.push({
        id: Number(r.id),
        userId: Number(r.user_id),
        timezone: r.timezone,
        date: r.date,
        distanceM: Number(r.distance_m),
        seconds: Number(r.seconds),
      });
    }
  }
  return runs;
}

/**
 * `count` runs picked at random (by `random`) among those with an id above `afterId` (the runs a
 * seed wrote), leaving out the runs of `exceptUserId`.
 */
export async function pickRuns(
  db: Executor,
  random: Random,
  afterId: number,
  exceptUserId: number | null,
  count: number,
): Promise<RunToTrack[]> {
  if (count === 0) return [];
  const candidates = async (after: number) =>
    (
      await db
        .selectFrom('entries')
        .select('id')
        .where('id', '>', after)
        .$if(exceptUserId !== null, (q) => q.where('user_id', '<>', exceptUserId!))
        .orderBy('id')
        .limit(ID_PAGE)
        .execute()
    ).map((r) => Number(r.id));
  let total = 0;
  for (let page = await candidates(afterId); page.length > 0; page = await candidates(page.at(-1)!)) {
    total += page.length;
  }
  if (count > total) throw new Error(`${count} tracks need as many runs; the seed wrote ${total}.`);
  const ordinals = distinctBelow(random, total, count);
  const ids: number[] = [];
  let seen = 0;
  let next = 0;
  let page = await candidates(afterId);
  for (; next < ordinals.length && page.length > 0; page = await candidates(page.at(-1)!)) {
    for (; next < ordinals.length && ordinals[next]! < seen + page.length; next++)
      ids.push(page[ordinals[next]! - seen]!);
    seen += page.length;
  }
  return runsToTrack(db, ids);
}

/** A runner's latest `count` runs (by date, then id). */
export async function latestRuns(db: Executor, userId: number, count: number): Promise<RunToTrack[]> {
  const rows = await db
    .selectFrom('entries')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return runsToTrack(
    db,
    rows.map((r) => Number(r.id)),
  );
}

/** A thread of track-worker.ts, and the answers it owes, oldest first. */
interface TrackThread {
  thread: Worker;
  waiting: { resolve(packed: Uint8Array[]): void; reject(error: Error): void }[];
}

/** Packed tracks of `runs`, batch by batch in order: on `threads` worker threads, or here when 0. */
async function* packedTracks(runs: RunToTrack[], randomSeed: number, threads: number): AsyncGenerator<Uint8Array[]> {
  const batches: RunToTrack[][] = [];
  for (let at = 0; at < runs.length; at += BATCH) batches.push(runs.slice(at, at + BATCH));
  if (threads === 0) {
    for (const batch of batches) yield batch.map((run) => packedSyntheticTrack(randomSeed, run));
    return;
  }
  const file = siblingModule(import.meta.url, 'track-worker');
  const workers: TrackThread[] = [];
  for (let i = 0; i < threads; i++) {
    const worker: TrackThread = { thread: startThread(file, { workerData: { randomSeed } }), waiting: [] };
    const failAll = (error: Error) => {
      for (const pending of worker.waiting.splice(0)) pending.reject(error);
    };
    worker.thread.on('message', (packed: Uint8Array[]) => worker.waiting.shift()?.resolve(packed));
    worker.thread.on('error', failAll);
    worker.thread.on('exit', (code) => failAll(new Error(`A track thread stopped (exit code ${code}).`)));
    workers.push(worker);
  }
  // Each thread answers its messages in order, so batch i is the answer to the i-th message it got.
  const send = (i: number) => {
    const worker = workers[i % threads]!;
    const answer = new Promise<Uint8Array[]>((resolve, reject) => worker.waiting.push({ resolve, reject }));
    // A rejection is seen when its batch's turn comes; until then it must not count as unhandled.
    answer.catch(() => undefined);
    worker.thread.postMessage(batches[i]);
    return answer;
  };
  try {
    const inFlight: Promise<Uint8Array[]>[] = [];
    let sent = 0;
    for (let i = 0; i < batches.length; i++) {
      while (sent < batches.length && sent < i + threads * IN_FLIGHT_PER_THREAD) inFlight.push(send(sent++));
      yield await inFlight.shift()!;
    }
  } finally {
    await Promise.all(workers.map((w) => w.thread.terminate()));
  }
}

/** What the seed's tracks came to. */
export interface SeededTracks {
  runs: number;
  samples: number;
  ms: number;
}

/** Below this many tracks, starting threads (about half a second each, from source) costs more than it saves. */
const FEW_TRACKS = 200;

/** Threads that make tracks when the caller does not say: the machine's cores, at most 4; none for a few tracks. */
export function defaultTrackThreads(count: number): number {
  return count < FEW_TRACKS ? 0 : Math.min(4, os.availableParallelism());
}

/** Makes, prepares and stores a track for each of `runs`. */
export async function seedTracks(
  ctx: AppContext,
  runs: RunToTrack[],
  options: { randomSeed: number; threads: number; onProgress?: (done: number) => void },
): Promise<SeededTracks> {
  const started = Date.now();
  let done = 0;
  let samples = 0;
  for await (const packed of packedTracks(runs, options.randomSeed, options.threads)) {
    const batch = runs.slice(done, done + packed.length);
    const prepared = packed.map(
      (bytes) => unpackTrack(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).prepared,
    );
    // A transaction PostgreSQL ends to break a deadlock runs again from the start.
    await inTransaction(ctx, async (trx) => {
      for (const [i, track] of prepared.entries()) {
        await storeTrack(trx, { id: batch[i]!.id, userId: batch[i]!.userId }, track, null);
      }
    });
    samples += prepared.reduce((sum, track) => sum + track.samples, 0);
    done += packed.length;
    options.onProgress?.(done);
  }
  return { runs: done, samples, ms: Date.now() - started };
}

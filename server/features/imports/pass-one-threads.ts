/**
 * Pass 1 (pass-one.ts) on worker threads, for every upload: a pool of threads started once and
 * kept, how many parse at once and with how much memory, their turns, fair between runners, and
 * what a thread's end means for the import. The thread itself is pass-one.worker.ts. No file is
 * ever parsed on the main thread: a file that is slow or large for its size costs a parse
 * thread's time and heap, never other requests' event loop or the server's memory.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { siblingModule, startThread as startModuleThread } from '../../threads.js';
import type { PassOneInput, PassOneResult } from './pass-one.js';
import type { Spool } from './spool.js';

/** What the main thread hands a worker for one import, and what the worker answers. */
export interface PassOneJob {
  input: PassOneInput;
  spoolPath: string;
  /** Tests: the thread exits, as if it crashed, once it has written this many rows (0: never). */
  exitAfterRows: number;
  sliceMs: number;
}
/** What a thread is started with: how many imports wait for a turn (shared with the main thread). */
export interface PassOneThreadData {
  waiting: SharedArrayBuffer;
}
export type PassOneAnswer =
  | { done: PassOneResult & { spool: Spool['size'] }; heapMiB: number }
  | { failed: string; status?: number; heapMiB: number }
  /** The thread has used its slice while others wait: it waits for `resume` before going on. */
  | { turnOver: true };

/** The nice value of a pass 1 thread (Linux: the thread's alone): other requests come first. */
export const PASS_ONE_NICE = 10;

/** Pass 1 on parse threads: how many at once, and with how much memory. */
export const passOneThreads = {
  /** Threads parsing at once; an import beyond them waits for a turn. As many idle threads are kept. */
  most: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  /** Threads alive at once, parsing or waiting for a turn (each holds its own heap). */
  alive: 4,
  /** A thread parses this long before it gives its turn to another import that waits for one. */
  sliceMs: 100,
  /**
   * The old-generation heap a thread may use (MiB): past it the thread dies, the import is
   * refused (413) and the thread replaced, the server unharmed.
   */
  heapMiB: 512,
  /**
   * The young generation (MiB); it counts in the process's memory. Decoding an hour of a watch
   * file makes a few MiB of short-lived objects: at 8 MiB, a third of a track import's parse
   * thread went to garbage collection (700 of 3,900 ms for 200 files), at 32 MiB 270 ms, and 64
   * gained nothing more (bench:import, decision 022).
   */
  youngMiB: 32,
  /**
   * A thread holding more than this (MiB, its heap and the buffers outside it) once its import is
   * read is ended rather than kept: an idle thread never collects its garbage, and would hold the
   * memory a large file made it take (a thread that read an hour's watch file holds about 20 MiB).
   */
  keepHeapMiB: 96,
  /** Tests: see PassOneJob. */
  exitAfterRows: 0,
};

/**
 * Threads parsing now, the most at once so far, threads holding an import (parsing or waiting for
 * a turn), and threads started since the process began: the tests read it.
 */
export const threadUse = { running: 0, peak: 0, alive: 0, started: 0 };

/** An import that wants a turn on a parse thread. */
interface Turn {
  runner: number;
  /** Its thread is alive (it has had a turn and gave it up): it may always take the next. */
  started: boolean;
  go(): void;
}

/**
 * Turns on the parse threads, fair between runners: a free turn goes to the import whose
 * runner had a turn least recently (a runner who never had one first), a runner's imports in
 * the order they asked. A turn lasts until the import ends or, when others wait, for a slice
 * (sliceMs) of parsing: one runner's large or slow files never hold the threads against
 * everyone else's. A runner has one thread alive at a time, and at most `alive` live at once.
 */
const turns = {
  queue: [] as Turn[],
  /** When each runner with an import under way last got a turn. */
  lastTurn: new Map<number, number>(),
  /** Runners with a thread alive (threadUse.alive counts the threads). */
  liveRunners: new Set<number>(),
  waiting: new Int32Array(new SharedArrayBuffer(4)),
};

/** A turn that may be given now: its thread is alive, or its runner has none and another may start. */
const eligible = (turn: Turn) =>
  turn.started || (threadUse.alive < passOneThreads.alive && !turns.liveRunners.has(turn.runner));

function grantTurns(): void {
  while (threadUse.running < passOneThreads.most) {
    let best = -1;
    for (let i = 0; i < turns.queue.length; i++) {
      const turn = turns.queue[i]!;
      if (!eligible(turn)) continue;
      const last = turns.lastTurn.get(turn.runner) ?? Number.NEGATIVE_INFINITY;
      if (best < 0 || last < (turns.lastTurn.get(turns.queue[best]!.runner) ?? Number.NEGATIVE_INFINITY)) best = i;
    }
    if (best < 0) break;
    const [turn] = turns.queue.splice(best, 1);
    threadUse.running += 1;
    threadUse.peak = Math.max(threadUse.peak, threadUse.running);
    turns.lastTurn.set(turn!.runner, performance.now());
    turn!.go();
  }
  // Only turns that could take the thread count: an import waiting for its runner's thread to end
  // (the inbox's next batch) gains nothing from a thread giving its turn up, and would slow it.
  Atomics.store(turns.waiting, 0, turns.queue.filter(eligible).length);
}

/** Asks for a turn: `go` is called when it is given. */
function askTurn(turn: Turn): void {
  turns.queue.push(turn);
  grantTurns();
}

function endTurn(): void {
  threadUse.running -= 1;
  grantTurns();
}

const WORKER_FILE = siblingModule(import.meta.url, 'pass-one.worker');

/** A parse thread, and the heap it was started with (a thread is reused only with the heap asked for now). */
interface Pooled {
  worker: Worker;
  heap: [number, number];
}

/**
 * Idle threads, kept for the next import: starting one (loading and compiling the parsers) costs
 * about half a second, more than parsing an hour's watch file. Up to `most` are kept; a thread
 * beyond them (several runners' imports at once) ends with its import. Idle threads do not keep
 * the process alive.
 */
const idle: Pooled[] = [];

function takeThread(): Pooled {
  const heap: [number, number] = [passOneThreads.heapMiB, passOneThreads.youngMiB];
  for (;;) {
    const kept = idle.pop();
    if (!kept) break;
    if (kept.heap[0] === heap[0] && kept.heap[1] === heap[1]) {
      kept.worker.ref();
      return kept;
    }
    void kept.worker.terminate();
  }
  threadUse.started += 1;
  const data: PassOneThreadData = { waiting: turns.waiting.buffer as SharedArrayBuffer };
  const worker = startModuleThread(WORKER_FILE, {
    workerData: data,
    resourceLimits: { maxOldGenerationSizeMb: heap[0], maxYoungGenerationSizeMb: heap[1] },
  });
  const pooled = { worker, heap };
  worker.once('exit', () => {
    const at = idle.indexOf(pooled);
    if (at >= 0) idle.splice(at, 1);
  });
  return pooled;
}

/** A thread whose import is over, and that answered: kept for the next one, or ended. */
function giveBack(thread: Pooled, heapMiB: number): void {
  if (idle.length < passOneThreads.most && heapMiB <= passOneThreads.keepHeapMiB) {
    thread.worker.unref();
    idle.push(thread);
  } else void thread.worker.terminate();
}

const STOPPED =
  'The import stopped before its files were read to the end; nothing was stored. Try again, or send fewer files at once.';
const TOO_BIG =
  'Reading these files needs more memory than an import may use; nothing was stored. Send smaller files, or fewer at once.';

/**
 * Pass 1 on a worker thread of its own, in turns (see `turns`): resolves with what it found
 * once the spool at `spoolPath` is written, or fails with an AppError: the worker's own error,
 * 413 when it ran out of its memory, 500 when it stopped without an answer. It never hangs: a
 * thread that ends, however it ends, settles the promise and gives its turn back.
 */
export async function spoolRowsOnThread(
  input: PassOneInput,
  spoolPath: string,
  runner: number,
): Promise<PassOneResult & { spool: Spool['size'] }> {
  const state: { holding: boolean; asked: Turn | null } = { holding: false, asked: null };
  await new Promise<void>((resolve) =>
    askTurn({
      runner,
      started: false,
      go: () => {
        state.holding = true;
        resolve();
      },
    }),
  );
  threadUse.alive += 1;
  turns.liveRunners.add(runner);
  let thread: Pooled | null = null;
  try {
    thread = takeThread();
    const { worker } = thread;
    const job: PassOneJob = {
      input,
      spoolPath,
      exitAfterRows: passOneThreads.exitAfterRows,
      sliceMs: passOneThreads.sliceMs,
    };
    worker.postMessage({ job });
    return await new Promise((resolve, reject) => {
      let failure: unknown;
      const onMessage = (message: PassOneAnswer) => {
        if ('turnOver' in message) {
          state.holding = false;
          endTurn();
          state.asked = {
            runner,
            started: true,
            go: () => {
              state.holding = true;
              state.asked = null;
              worker.postMessage('resume');
            },
          };
          askTurn(state.asked);
          return;
        }
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        giveBack(thread!, message.heapMiB);
        thread = null;
        if ('done' in message) resolve(message.done);
        else reject(new AppError(message.status ?? 500, message.failed));
      };
      const onError = (error: unknown) => {
        failure = error;
      };
      // A thread that ends before it answers (out of its heap, or crashed) is gone: the next import starts another.
      const onExit = () => {
        thread = null;
        if ((failure as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          reject(new AppError(413, TOO_BIG));
        } else reject(new AppError(500, STOPPED));
      };
      worker.on('message', onMessage).on('error', onError).once('exit', onExit);
    });
  } finally {
    // A thread still held here failed in a way nobody foresaw: ended, not kept.
    if (thread) void (thread as Pooled).worker.terminate();
    // A thread gone while it waited for its next turn leaves that wait in the queue: dropped.
    const asked = state.asked ? turns.queue.indexOf(state.asked) : -1;
    if (asked >= 0) turns.queue.splice(asked, 1);
    threadUse.alive -= 1;
    turns.liveRunners.delete(runner);
    if (!turns.queue.some((turn) => turn.runner === runner)) turns.lastTurn.delete(runner);
    if (state.holding) endTurn();
    else grantTurns();
  }
}

/**
 * Pass 1 (pass-one.ts) on worker threads, for large uploads: how many run at once and with how
 * much memory, their turns, fair between runners, and what a thread's end means for the import.
 * The thread itself is pass-one.worker.ts.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { siblingModule, startThread as startModuleThread } from '../../threads.js';
import type { PassOneInput, PassOneResult } from './pass-one.js';
import type { Spool } from './spool.js';

/** What the main thread hands a worker, and what the worker answers. */
export interface PassOneJob {
  input: PassOneInput;
  spoolPath: string;
  /** Tests: the thread exits, as if it crashed, once it has written this many rows (0: never). */
  exitAfterRows: number;
  /** How many imports wait for a turn (shared with the main thread): a thread gives its turn up only then. */
  waiting: SharedArrayBuffer;
  sliceMs: number;
}
export type PassOneAnswer =
  | { done: PassOneResult & { spool: Spool['size'] } }
  | { failed: string; status?: number }
  /** The thread has used its slice while others wait: it waits for `resume` before going on. */
  | { turnOver: true };

/** The nice value of a pass 1 thread (Linux: the thread's alone): other requests come first. */
export const PASS_ONE_NICE = 10;

/** Pass 1 on worker threads: when, how many at once, and with how much memory. */
export const passOneThreads = {
  /** Uploads of at least this many bytes are parsed on a worker thread of their own. */
  fromBytes: 512 * 1024,
  /** Threads parsing at once; an import beyond them waits for a turn. */
  most: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  /** Threads alive at once, parsing or waiting for a turn (each holds its own heap). */
  alive: 4,
  /** A thread parses this long before it gives its turn to another import that waits for one. */
  sliceMs: 100,
  /** The old-generation heap a thread may use (MiB): past it, the import is refused (413), the server unharmed. */
  heapMiB: 512,
  /**
   * The young generation (MiB); it counts in the process's memory. Decoding an hour of a watch
   * file makes a few MiB of short-lived objects: at 8 MiB, a third of a track import's parse
   * thread went to garbage collection (700 of 3,900 ms for 200 files), at 32 MiB 270 ms, and 64
   * gained nothing more (bench:import, decision 022).
   */
  youngMiB: 32,
  /** Tests: see PassOneJob. */
  exitAfterRows: 0,
};

/** Threads parsing now, the most at once so far, and threads alive (parsing or waiting for a turn): the tests read it. */
export const threadUse = { running: 0, peak: 0, alive: 0 };

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

function grantTurns(): void {
  while (threadUse.running < passOneThreads.most) {
    let best = -1;
    for (let i = 0; i < turns.queue.length; i++) {
      const turn = turns.queue[i]!;
      const eligible = turn.started || (threadUse.alive < passOneThreads.alive && !turns.liveRunners.has(turn.runner));
      if (!eligible) continue;
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
  Atomics.store(turns.waiting, 0, turns.queue.length);
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

/** A thread running the worker's file, within the memory of a pass. */
function startThread(job: PassOneJob): Worker {
  return startModuleThread(WORKER_FILE, {
    workerData: job,
    resourceLimits: {
      maxOldGenerationSizeMb: passOneThreads.heapMiB,
      maxYoungGenerationSizeMb: passOneThreads.youngMiB,
    },
  });
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
  const job: { holding: boolean; asked: Turn | null } = { holding: false, asked: null };
  await new Promise<void>((resolve) =>
    askTurn({
      runner,
      started: false,
      go: () => {
        job.holding = true;
        resolve();
      },
    }),
  );
  threadUse.alive += 1;
  turns.liveRunners.add(runner);
  try {
    const worker = startThread({
      input,
      spoolPath,
      exitAfterRows: passOneThreads.exitAfterRows,
      waiting: turns.waiting.buffer as SharedArrayBuffer,
      sliceMs: passOneThreads.sliceMs,
    });
    return await new Promise((resolve, reject) => {
      let answer: PassOneAnswer | undefined;
      let failure: unknown;
      worker.on('message', (message: PassOneAnswer) => {
        if (!('turnOver' in message)) {
          answer = message;
          return;
        }
        job.holding = false;
        endTurn();
        job.asked = {
          runner,
          started: true,
          go: () => {
            job.holding = true;
            job.asked = null;
            worker.postMessage('resume');
          },
        };
        askTurn(job.asked);
      });
      worker.on('error', (error) => {
        failure = error;
      });
      worker.once('exit', () => {
        if (answer && 'done' in answer) resolve(answer.done);
        else if (answer && 'failed' in answer) reject(new AppError(answer.status ?? 500, answer.failed));
        else if ((failure as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          reject(new AppError(413, TOO_BIG));
        } else reject(new AppError(500, STOPPED));
      });
    });
  } finally {
    // A thread gone while it waited for its next turn leaves that wait in the queue: dropped.
    const asked = job.asked ? turns.queue.indexOf(job.asked) : -1;
    if (asked >= 0) turns.queue.splice(asked, 1);
    threadUse.alive -= 1;
    turns.liveRunners.delete(runner);
    if (!turns.queue.some((turn) => turn.runner === runner)) turns.lastTurn.delete(runner);
    if (job.holding) endTurn();
    else grantTurns();
  }
}

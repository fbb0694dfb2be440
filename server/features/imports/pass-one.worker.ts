/**
 * A parse thread of pass 1 (pass-one.ts, started and kept by pass-one-threads.ts): for each job
 * it is handed, parses and validates the upload into the spool file, then answers what it found,
 * or the error that stopped it, and waits for the next. The main thread reads the spool once the
 * answer came. On Linux the nice value is a thread's own: this one yields the CPU to the main
 * thread (other requests) whenever both want it. It parses in turns: once it has parsed for its
 * slice while other imports wait for a turn, it says so and waits until the main thread gives it
 * the next one.
 */
import { once } from 'node:events';
import os from 'node:os';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { spoolRows } from './pass-one.js';
import { PASS_ONE_NICE, type PassOneAnswer, type PassOneJob, type PassOneThreadData } from './pass-one-threads.js';
import { Spool } from './spool.js';

const data = workerData as PassOneThreadData;
try {
  os.setPriority(0, Math.max(os.getPriority(0), PASS_ONE_NICE));
} catch {
  // Not allowed here: the thread runs at the process's priority.
}
const port = parentPort!;
const answer = (message: PassOneAnswer) => port.postMessage(message);
const waiting = new Int32Array(data.waiting);
/**
 * The memory this thread holds now (MiB), its heap and the buffers outside it (a file's bytes,
 * garbage until the heap is next collected, which an idle thread never does): the main thread
 * keeps the thread for the next import only when it is small.
 */
const heapMiB = () => {
  const { used_heap_size: heap, external_memory: external } = v8.getHeapStatistics();
  return (heap + external) / 1024 / 1024;
};

/** One import's pass 1, in turns. */
async function run(job: PassOneJob): Promise<void> {
  let turnFrom = performance.now();
  let calls = 0;
  /** Gives the turn up once the slice is used and another import waits; resolves when the next turn comes. */
  const takeTurns = (): Promise<void> | undefined => {
    if ((++calls & 31) !== 0 || Atomics.load(waiting, 0) === 0) return undefined;
    if (performance.now() - turnFrom < job.sliceMs) return undefined;
    answer({ turnOver: true });
    return once(port, 'message').then(() => {
      turnFrom = performance.now();
    });
  };
  const spool = new Spool(job.spoolPath);
  try {
    const exitAt = job.exitAfterRows;
    const result = await spoolRows(job.input, spool, takeTurns, (rows) => {
      if (exitAt > 0 && rows >= exitAt) process.exit(70);
    });
    spool.close();
    answer({ done: { ...result, spool: spool.size }, heapMiB: heapMiB() });
  } catch (error) {
    spool.close();
    answer(
      error instanceof AppError
        ? { failed: error.message, status: error.status, heapMiB: heapMiB() }
        : { failed: 'The import failed while reading its files; nothing was stored.', heapMiB: heapMiB() },
    );
    if (!(error instanceof AppError)) console.error(error);
  }
}

// Jobs come one at a time (the main thread hands a thread one import until it answers).
port.on('message', (message: { job?: PassOneJob }) => {
  if (message.job) void run(message.job);
});

/**
 * The matching thread (matching.worker.ts), started on the first job and ended once idle for
 * IDLE_MS: grouping a runner's runs and matching segments take seconds of CPU for a runner with
 * 1,500 tracked runs, never on the event loop. Jobs go one at a time; a thread that dies fails its
 * jobs and the next job starts a new one.
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, startThread } from '../../threads.js';
import type { FoundEffort, StoredGrouping, StoredRun, StoredSegment } from './compute.js';

export type MatchingJob =
  | { id: number; kind: 'group'; runs: StoredRun[] }
  | { id: number; kind: 'extend'; from: StoredGrouping; runs: StoredRun[] }
  | { id: number; kind: 'efforts'; segments: StoredSegment[]; runs: Pick<StoredRun, 'id' | 'data'>[] };
export type MatchingAnswer =
  | { id: number; groups: { founder: number; runs: number[] }[] }
  | { id: number; efforts: FoundEffort[] }
  | { id: number; failed: string };

/**
 * A thread without jobs for this long is ended: grouping 1,500 tracked runs grows its heap by
 * hundreds of MB, which V8 keeps until the thread ends; a new one starts in milliseconds.
 */
const IDLE_MS = 30_000;

type Waiting = { worker: Worker; resolve: (answer: MatchingAnswer) => void; reject: (error: Error) => void };

export class MatchingThread {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, Waiting>();
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly idleMs = IDLE_MS) {}

  /** Whether a thread is up (and holds its memory). */
  get running(): boolean {
    return this.worker !== null;
  }

  group(runs: StoredRun[]): Promise<{ founder: number; runs: number[] }[]> {
    return this.ask({ id: 0, kind: 'group', runs }).then((answer) => {
      if ('groups' in answer) return answer.groups;
      throw new Error('failed' in answer ? answer.failed : 'unexpected answer');
    });
  }

  extend(from: StoredGrouping, runs: StoredRun[]): Promise<{ founder: number; runs: number[] }[]> {
    return this.ask({ id: 0, kind: 'extend', from, runs }).then((answer) => {
      if ('groups' in answer) return answer.groups;
      throw new Error('failed' in answer ? answer.failed : 'unexpected answer');
    });
  }

  efforts(segments: StoredSegment[], runs: Pick<StoredRun, 'id' | 'data'>[]): Promise<FoundEffort[]> {
    return this.ask({ id: 0, kind: 'efforts', segments, runs }).then((answer) => {
      if ('efforts' in answer) return answer.efforts;
      throw new Error('failed' in answer ? answer.failed : 'unexpected answer');
    });
  }

  async close(): Promise<void> {
    this.keep();
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private ask(job: MatchingJob): Promise<MatchingAnswer> {
    this.keep();
    const worker = this.started();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { worker, resolve, reject });
      worker.postMessage({ ...job, id });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread(siblingModule(import.meta.url, 'matching.worker'));
    worker.unref();
    worker.on('message', (answer: MatchingAnswer) => {
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      waiting?.resolve(answer);
      if (this.waiting.size === 0) this.endWhenIdle(worker);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      // The jobs of this thread alone: a thread started since has its own.
      for (const [id, waiting] of this.waiting) {
        if (waiting.worker !== worker) continue;
        this.waiting.delete(id);
        waiting.reject(error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the matching thread stopped (${code})`)));
    this.worker = worker;
    return worker;
  }

  /** A job is coming: the thread stays. */
  private keep(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }

  private endWhenIdle(worker: Worker): void {
    this.keep();
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.worker !== worker || this.waiting.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, this.idleMs);
    this.idle.unref();
  }
}

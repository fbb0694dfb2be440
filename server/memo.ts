/**
 * A bounded, in-process memo of a runner's computed answers (decisions 017, 031), one per app
 * (buildApp, on AppContext). An answer is stored under its runner, the runner's insights revision
 * (read from the database on every request, before any of the data the answer is computed from:
 * by `memoized`, or with the session's token for the runner's own list of runs), the endpoint and
 * its resolved arguments (the date or year, today in the runner's zone where the answer depends
 * on it). A write of one of the runner's runs moves the revision in its own transaction, so a
 * stored answer is never served after a write has committed, by this process or any other
 * sharing the database.
 *
 * Bounded by count and by the size of the answers as JSON text; the least recently used go first.
 * Concurrent misses of one key share one computation. Stored answers are shared between requests
 * and must never be modified.
 */

import type { AppContext } from './context.js';
import { insightRevision } from './db/tallies.js';

/** The most answers kept per app. */
export const MEMO_MAX_ANSWERS = 20_000;
/** The most characters of JSON the kept answers add up to per app (about 3x in memory). */
export const MEMO_MAX_CHARS = 16 * 1024 * 1024;

interface Slot {
  answer: Promise<unknown>;
  chars: number;
}

export class AnswerMemo {
  private readonly slots = new Map<string, Slot>();
  private chars = 0;

  constructor(
    private readonly maxAnswers = MEMO_MAX_ANSWERS,
    private readonly maxChars = MEMO_MAX_CHARS,
  ) {}

  get size(): number {
    return this.slots.size;
  }

  get totalChars(): number {
    return this.chars;
  }

  /** The answer stored under `key`, or `compute()`'s, stored once it resolves (a failure is not kept). */
  answer<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const found = this.slots.get(key);
    if (found) {
      // Most recently used last: Map keeps insertion order.
      this.slots.delete(key);
      this.slots.set(key, found);
      return found.answer as Promise<T>;
    }
    const answer = compute();
    const slot: Slot = { answer, chars: 0 };
    this.slots.set(key, slot);
    answer.then(
      (value) => {
        if (this.slots.get(key) !== slot) return;
        slot.chars = key.length + (JSON.stringify(value)?.length ?? 0);
        this.chars += slot.chars;
        this.evict();
      },
      () => {
        if (this.slots.get(key) === slot) this.slots.delete(key);
      },
    );
    this.evict();
    return answer;
  }

  private evict(): void {
    for (const [key, slot] of this.slots) {
      if (this.slots.size <= this.maxAnswers && this.chars <= this.maxChars) return;
      this.slots.delete(key);
      this.chars -= slot.chars;
    }
  }
}

/**
 * The answer of `endpoint` (with its resolved arguments) for a runner, from the memo when the
 * runner's revision has not moved since it was computed. The revision is read first, so the data
 * an answer is computed from is at least that revision's: a write committing in between only makes
 * the stored answer newer than its key, and no request that reads the revision after that write's
 * commit can find it.
 */
export async function memoized<T>(
  ctx: AppContext,
  owner: { id: number },
  endpoint: string,
  compute: (revision: number) => Promise<T>,
): Promise<T> {
  const revision = await insightRevision(ctx.db, owner.id);
  return answerAt(ctx, owner, revision, endpoint, () => compute(revision));
}

/** The memo's answer under a runner's revision already read (before any data the answer is computed from). */
export function answerAt<T>(
  ctx: AppContext,
  owner: { id: number },
  revision: number,
  endpoint: string,
  compute: () => Promise<T>,
): Promise<T> {
  return ctx.memory.insights.answer(`${owner.id}:${revision}:${endpoint}`, compute);
}

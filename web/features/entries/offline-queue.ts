/**
 * Runs added without a network (CONTRACT.md §20, decision 047): each one kept in the browser
 * (IndexedDB) with the `Idempotency-Key` it is sent with, shown as waiting, and sent when the
 * network is back (`online`, and at every start). The server stores a key's run once, so a run sent
 * twice (a tab closed before the answer came, two tabs) is still one run. A refusal (4xx but 401
 * and 429) marks the run failed, to edit or discard; no answer or a 5xx keeps it waiting.
 *
 * The queue belongs to the runner who added the runs (`userId`): another user of the browser never
 * sends or sees them, and logging out clears it (after a warning, web/app/guards.tsx).
 */
import type { EntryBody } from '../../../core/schemas.js';

export type QueuedState = 'waiting' | 'failed';

export interface QueuedRun {
  /** The `Idempotency-Key` the run is sent with, made when it was queued; also its id here. */
  key: string;
  userId: number;
  body: EntryBody;
  state: QueuedState;
  /** When it was queued (ISO): the order runs are sent in. */
  queuedAt: string;
  /** Why the server refused it (a failed run). */
  message?: string;
  errors?: Record<string, string[]>;
}

/** Where the queue is kept: IndexedDB in the browser (idbStore), a Map in unit tests. */
export interface QueueStore {
  all(): Promise<QueuedRun[]>;
  put(run: QueuedRun): Promise<void>;
  remove(key: string): Promise<void>;
  clear(): Promise<void>;
}

/** What sending a run came to: stored (or stored before), refused by the server, or to try again later. */
export type SendResult =
  | { outcome: 'sent' }
  | { outcome: 'refused'; message: string; errors: Record<string, string[]> }
  | { outcome: 'later' };

export type SendRun = (run: QueuedRun) => Promise<SendResult>;

const DB_NAME = 'running-times-offline';
const STORE = 'queued-runs';

/** The browser's store: one IndexedDB object store keyed by the run's key (`idb` loads with it, not at start). */
export function idbStore(): QueueStore {
  const open = async () => {
    const { openDB } = await import('idb');
    return openDB(DB_NAME, 1, {
      upgrade(db) {
        db.createObjectStore(STORE, { keyPath: 'key' });
      },
    });
  };
  let opened: ReturnType<typeof open> | null = null;
  const db = () => (opened ??= open());
  return {
    all: async () => (await (await db()).getAll(STORE)) as QueuedRun[],
    put: async (run) => void (await (await db()).put(STORE, run)),
    remove: async (key) => void (await (await db()).delete(STORE, key)),
    clear: async () => void (await (await db()).clear(STORE)),
  };
}

/** A store in memory (unit tests, and a browser without IndexedDB: the runs last for the page). */
export function memoryStore(): QueueStore {
  const runs = new Map<string, QueuedRun>();
  return {
    all: () => Promise.resolve([...runs.values()].map((run) => structuredClone(run))),
    put: (run) => Promise.resolve(void runs.set(run.key, structuredClone(run))),
    remove: (key) => Promise.resolve(void runs.delete(key)),
    clear: () => Promise.resolve(runs.clear()),
  };
}

/** A new `Idempotency-Key`: a random UUID. */
export const newIdempotencyKey = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export interface OfflineQueue {
  /** Keeps a run of `userId` to send later, waiting, with `key` (a new one by default). */
  add(userId: number, body: EntryBody, key?: string): Promise<QueuedRun>;
  /** The runs of `userId`, oldest first. */
  list(userId: number): Promise<QueuedRun[]>;
  /** A failed run edited: waiting again, with its new body and the same key. */
  retry(key: string, body: EntryBody): Promise<void>;
  discard(key: string): Promise<void>;
  /** Forgets every run of everyone (logout). */
  clear(): Promise<void>;
  /**
   * Sends the waiting runs of `userId` one after the other, oldest first; answers how many were
   * stored. One flush at a time: a call while one is under way waits for it and answers its count.
   */
  flush(userId: number, send: SendRun): Promise<number>;
  /** Called after every change (the banner reads the queue again). */
  subscribe(listener: () => void): () => void;
}

export function createOfflineQueue(store: QueueStore, now: () => Date = () => new Date()): OfflineQueue {
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  let flushing: Promise<number> | null = null;
  let lastAt = '';

  const list = async (userId: number) =>
    (await store.all())
      .filter((run) => run.userId === userId)
      .sort((a, b) => (a.queuedAt < b.queuedAt ? -1 : a.queuedAt > b.queuedAt ? 1 : 0));

  const flushOnce = async (userId: number, send: SendRun) => {
    let sent = 0;
    for (const run of await list(userId)) {
      if (run.state !== 'waiting') continue;
      const result = await send(run);
      if (result.outcome === 'later') break; // no network (or a server in trouble): all of them later
      if (result.outcome === 'sent') {
        await store.remove(run.key);
        sent += 1;
      } else {
        await store.put({ ...run, state: 'failed', message: result.message, errors: result.errors });
      }
      changed();
    }
    return sent;
  };

  return {
    async add(userId, body, key = newIdempotencyKey()) {
      // Strictly increasing, so that two runs queued in one millisecond keep their order.
      let at = now().toISOString();
      if (at <= lastAt) at = new Date(Date.parse(lastAt) + 1).toISOString();
      lastAt = at;
      const run: QueuedRun = { key, userId, body, state: 'waiting', queuedAt: at };
      await store.put(run);
      changed();
      return run;
    },
    list,
    async retry(key, body) {
      const run = (await store.all()).find((r) => r.key === key);
      if (!run) return;
      await store.put({ key: run.key, userId: run.userId, queuedAt: run.queuedAt, body, state: 'waiting' });
      changed();
    },
    async discard(key) {
      await store.remove(key);
      changed();
    },
    async clear() {
      await store.clear();
      changed();
    },
    flush(userId, send) {
      flushing ??= flushOnce(userId, send).finally(() => (flushing = null));
      return flushing;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** How an answer to a queued run's request counts: `status` 0 for no answer at all. */
export function resultOf(status: number, message: string, errors: Record<string, string[]>): SendResult {
  if (status >= 200 && status < 300) return { outcome: 'sent' };
  // No answer, a server in trouble, a session to renew or too many requests: the run is not at fault.
  if (status === 0 || status >= 500 || status === 401 || status === 429) return { outcome: 'later' };
  return { outcome: 'refused', message, errors };
}

const hasIndexedDb = () => typeof indexedDB !== 'undefined';

/** The browser's one queue. */
export const offlineQueue: OfflineQueue = createOfflineQueue(hasIndexedDb() ? idbStore() : memoryStore());

/**
 * At logout: forgets every queued run and every answer a cache of this origin keeps, so that
 * nothing of one user is shown to the next user of the browser. The service worker's precache
 * stays: it holds the app's own files, the same for everyone, and the app starts offline with it.
 */
export async function forgetOfflineData(): Promise<void> {
  await offlineQueue.clear().catch(() => undefined);
  if (typeof caches === 'undefined') return;
  const names = await caches.keys().catch(() => [] as string[]);
  await Promise.all(names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)));
}

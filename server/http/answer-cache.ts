/**
 * The answer cache (decision 033): the one place a runner's computed answers are kept, one per app.
 * A route declares that its answer may be kept (`config: { cache: true }`: a GET behind
 * `app.requireAuth`); `installAnswerCache` wraps those handlers and nothing else knows the cache.
 * An answer is kept as the text the route's serializer wrote (its response schema), under:
 * - the user, and their revision read with the session (the token's lookup joins it). Every write
 *   that changes what an answer shows moves it in its transaction (db/tallies.ts moveAnswerRevision),
 *   so no process on the database serves an answer after such a write has committed. A user's
 *   answers of an older revision go when a request brings a newer one;
 * - the route's declared URL, today in the user's zone (so answers that depend on the clock follow
 *   it), and the params and query as the route's schema parsed them, keys in a canonical order
 *   (never the raw URL, never the Host).
 * Bounded in all and per user: a user over their own bound loses their least recently used answers,
 * everyone's least recently used go when the total is over. Concurrent misses of one key share one
 * computation; a failure is not kept.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dateInZone } from '../../core/time.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer may be kept by the answer cache (http/answer-cache.ts). */
    cache?: boolean;
  }
}

export interface CacheLimits {
  /** The most answers, and characters of their text and keys, kept in all (about 3 bytes a character in memory). */
  answers: number;
  chars: number;
  /** The most of each that one user's answers may hold. */
  userAnswers: number;
  userChars: number;
}

export const CACHE_LIMITS: CacheLimits = {
  answers: 20_000,
  chars: 16 * 1024 * 1024,
  userAnswers: 1_000,
  userChars: 4 * 1024 * 1024,
};

interface Slot {
  shelf: Shelf;
  key: string;
  text: Promise<string>;
  /** Counted once the text is known (0 while it is computed). */
  chars: number;
}

/** One user's answers at one revision, least recently used first. */
interface Shelf {
  userId: number;
  revision: number;
  slots: Map<string, Slot>;
  chars: number;
}

/** What a miss computes: the answer's text, and whether it may be kept. */
export interface Computed {
  text: string;
  keep: boolean;
}

export class AnswerCache {
  hits = 0;
  misses = 0;
  private readonly shelves = new Map<number, Shelf>();
  /** Every kept answer, least recently used first. */
  private readonly order = new Set<Slot>();
  private chars = 0;

  constructor(readonly limits: CacheLimits = CACHE_LIMITS) {}

  get size(): number {
    return this.order.size;
  }

  get totalChars(): number {
    return this.chars;
  }

  /** How many answers of a user are kept. */
  sizeOf(userId: number): number {
    return this.shelves.get(userId)?.slots.size ?? 0;
  }

  /** The text kept under (user, revision, key), or `compute()`'s, kept once it resolves unless it says not to. */
  answer(userId: number, revision: number, key: string, compute: () => Promise<Computed>): Promise<string> {
    let shelf = this.shelves.get(userId);
    if (shelf && shelf.revision < revision) this.clear(shelf);
    else if (shelf && shelf.revision > revision) {
      // Read before a write that another request has already seen: answered, never kept.
      this.misses += 1;
      return compute().then((computed) => computed.text);
    }
    shelf = this.shelves.get(userId);
    if (!shelf) {
      shelf = { userId, revision, slots: new Map(), chars: 0 };
      this.shelves.set(userId, shelf);
    }
    const found = shelf.slots.get(key);
    if (found) {
      this.hits += 1;
      shelf.slots.delete(key);
      shelf.slots.set(key, found);
      this.order.delete(found);
      this.order.add(found);
      return found.text;
    }
    this.misses += 1;
    const slot: Slot = { shelf, key, text: Promise.resolve(''), chars: 0 };
    slot.text = compute().then(
      ({ text, keep }) => {
        if (slot.shelf.slots.get(key) !== slot) return text;
        if (!keep) this.remove(slot);
        else {
          slot.chars = key.length + text.length;
          slot.shelf.chars += slot.chars;
          this.chars += slot.chars;
          this.evict(slot.shelf);
        }
        return text;
      },
      (error: unknown) => {
        if (slot.shelf.slots.get(key) === slot) this.remove(slot);
        throw error;
      },
    );
    shelf.slots.set(key, slot);
    this.order.add(slot);
    this.evict(shelf);
    return slot.text;
  }

  private remove(slot: Slot): void {
    const { shelf } = slot;
    shelf.slots.delete(slot.key);
    shelf.chars -= slot.chars;
    this.order.delete(slot);
    this.chars -= slot.chars;
    if (shelf.slots.size === 0 && this.shelves.get(shelf.userId) === shelf) this.shelves.delete(shelf.userId);
  }

  private clear(shelf: Shelf): void {
    for (const slot of shelf.slots.values()) this.remove(slot);
    this.shelves.delete(shelf.userId);
  }

  private evict(shelf: Shelf): void {
    const { answers, chars, userAnswers, userChars } = this.limits;
    for (const slot of shelf.slots.values()) {
      if (shelf.slots.size <= userAnswers && shelf.chars <= userChars) break;
      this.remove(slot);
    }
    for (const slot of this.order) {
      if (this.order.size <= answers && this.chars <= chars) break;
      this.remove(slot);
    }
  }
}

/** A parsed value as text, object keys sorted and undefined members left out: one text per meaning. */
export function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? '';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
}

const notKept = new WeakSet<FastifyRequest>();

/** Called by a cached route's handler: this request's answer is sent but not kept (another user's data). */
export function doNotKeep(request: FastifyRequest): void {
  notKept.add(request);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Wraps the handler of every route declared with `config.cache` from now on (call it before the
 * routes are registered). Without a cache (null) the routes answer afresh every time.
 */
export function installAnswerCache(app: FastifyInstance, cache: AnswerCache | null, now: () => Date): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.cache) return;
    if ([route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD')) {
      throw new Error(`${route.url}: only the answer of a GET may be kept`);
    }
    if (!cache) return;
    const { handler, url } = route;
    const params = route.schema?.params !== undefined;
    const query = route.schema?.querystring !== undefined;
    route.handler = async function keptAnswer(request, reply) {
      const session = request.session;
      if (!session) throw new Error(`${url}: a kept answer needs the session (onRequest: app.requireAuth)`);
      const today = dateInZone(now(), session.user.timezone);
      const key = `${url} ${today} ${params ? canonical(request.params) : ''} ${query ? canonical(request.query) : ''}`;
      const text = await cache.answer(session.user.id, session.revision, key, async () => {
        const answer: unknown = await handler.call(this, request, reply);
        return { text: reply.serialize(answer) as string, keep: !notKept.has(request) };
      });
      return reply.type(JSON_TYPE).send(text);
    };
  });
}

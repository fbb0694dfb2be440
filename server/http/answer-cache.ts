/**
 * The answer cache (decision 034), one per app: a route declares that its answer may be kept
 * (`config: { cache: true }`, a GET behind `app.requireAuth`), and `installAnswerCache` wraps those
 * handlers; nothing else knows it. An answer is kept as the text its route's serializer wrote, under
 * the user and their revision read with the session (every write that changes an answer moves it in
 * its transaction: db/tallies.ts moveAnswerRevision), the route's declared URL, today in the user's
 * zone, and the params and query as the route's schema parsed them (never the raw URL or the Host).
 * Bounded in all and per user: a user over their own bound loses their least recently used answers,
 * everyone's least recently used go when the total is over. Concurrent misses of one key share one
 * computation; a failure is not kept; a user's answers go when a request brings a newer revision.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dateInZone } from '../../core/time.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer may be kept by the answer cache (http/answer-cache.ts). */
    cache?: boolean;
  }
}

/** The most answers, and characters of their keys and texts (about 3 bytes each in memory), in all and per user. */
export const CACHE_LIMITS = {
  answers: 20_000,
  chars: 16 * 1024 * 1024,
  userAnswers: 1_000,
  userChars: 4 * 1024 * 1024,
};
export type CacheLimits = typeof CACHE_LIMITS;

/** What a miss computes: the answer's text, and whether it may be kept. */
export type Computed = { text: string; keep: boolean };
/** A kept answer; its characters are counted once its text is known. */
type Slot = { shelf: Shelf; key: string; text: Promise<string>; chars: number };
/** One user's answers at one revision, least recently used first. */
type Shelf = { userId: number; revision: number; slots: Map<string, Slot>; chars: number };

export class AnswerCache {
  hits = 0;
  misses = 0;
  totalChars = 0;
  private readonly shelves = new Map<number, Shelf>();
  /** Every kept answer, least recently used first. */
  private readonly order = new Set<Slot>();

  constructor(readonly limits: CacheLimits = CACHE_LIMITS) {}

  get size(): number {
    return this.order.size;
  }

  sizeOf(userId: number): number {
    return this.shelves.get(userId)?.slots.size ?? 0;
  }

  /** The text kept under (user, revision, key), or `compute()`'s, kept once it resolves unless it says not to. */
  answer(userId: number, revision: number, key: string, compute: () => Promise<Computed>): Promise<string> {
    let shelf = this.shelves.get(userId);
    if (shelf && shelf.revision > revision) {
      // Read before a write that another request has already seen: answered, never kept.
      this.misses += 1;
      return compute().then((computed) => computed.text);
    }
    if (shelf && shelf.revision < revision) for (const old of shelf.slots.values()) this.remove(old);
    shelf = this.shelves.get(userId);
    if (!shelf) this.shelves.set(userId, (shelf = { userId, revision, slots: new Map(), chars: 0 }));
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
    const kept = () => slot.shelf.slots.get(key) === slot;
    slot.text = compute().then(
      ({ text, keep }) => {
        if (kept() && !keep) this.remove(slot);
        else if (kept()) {
          slot.chars = key.length + text.length;
          slot.shelf.chars += slot.chars;
          this.totalChars += slot.chars;
          this.evict(slot.shelf);
        }
        return text;
      },
      (error: unknown) => {
        if (kept()) this.remove(slot);
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
    this.totalChars -= slot.chars;
    if (shelf.slots.size === 0 && this.shelves.get(shelf.userId) === shelf) this.shelves.delete(shelf.userId);
  }

  private evict(shelf: Shelf): void {
    const { answers, chars, userAnswers, userChars } = this.limits;
    for (const slot of shelf.slots.values()) {
      if (shelf.slots.size <= userAnswers && shelf.chars <= userChars) break;
      this.remove(slot);
    }
    for (const slot of this.order) {
      if (this.order.size <= answers && this.totalChars <= chars) break;
      this.remove(slot);
    }
  }
}

/** A parsed value as text, object keys sorted and undefined members left out: one text per meaning. */
export function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? '';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  return `{${keys
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
    .join(',')}}`;
}

const notKept = new WeakSet<FastifyRequest>();

/** For a cached route's handler: this request's answer is sent, not kept (it shows another user's data). */
export function doNotKeep(request: FastifyRequest): void {
  notKept.add(request);
}

/**
 * Wraps the handler of every route declared with `config.cache` from now on (call it before the
 * routes are registered); such a handler returns its answer, never sends it. Without a cache
 * (null) those routes answer afresh every time.
 */
export function installAnswerCache(app: FastifyInstance, cache: AnswerCache | null, now: () => Date): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.cache) return;
    if ([route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD')) {
      throw new Error(`${route.url}: only the answer of a GET may be kept`);
    }
    if (!cache) return;
    const { handler, url } = route;
    const [params, query] = [route.schema?.params !== undefined, route.schema?.querystring !== undefined];
    route.handler = async function keptAnswer(request, reply) {
      const session = request.session;
      if (!session) throw new Error(`${url}: a kept answer needs the session (onRequest: app.requireAuth)`);
      const today = dateInZone(now(), session.user.timezone);
      const key = `${url} ${today} ${params ? canonical(request.params) : ''} ${query ? canonical(request.query) : ''}`;
      const text = await cache.answer(session.user.id, session.revision, key, async () => {
        const answer: unknown = await handler.call(this, request, reply);
        return { text: reply.serialize(answer) as string, keep: !notKept.has(request) };
      });
      return reply.type('application/json; charset=utf-8').send(text);
    };
  });
}

/**
 * Lookups by key that share one statement when they are asked at the same time.
 *
 * On PostgreSQL every statement is a round trip, and a round trip costs both processes more
 * than most of our statements do: writing a query to the socket alone took a third of the
 * server's CPU under load. Every authenticated request looks up its token first, so under
 * load the lookups of many requests are gathered into one statement (`= any($1)`).
 *
 * - With no statement of this lookup in flight, a key is looked up at once: an idle server
 *   waits for nothing more than before.
 * - While one is in flight, keys wait for it to end and then go together in the next one.
 * - A key is answered only by a statement sent after it was asked, never by one already in
 *   flight: it sees every write committed before it was asked (a token revoked by a logout
 *   stops working at once, on every instance), exactly as its own statement would.
 * - A failed statement fails the keys it carried, and only those.
 */
export interface BatchedLookup<K, V> {
  (key: K): Promise<V | undefined>;
  /** Statements sent so far (for tests and benchmarks). */
  readonly statements: () => number;
}

export function batchedLookup<K, V>(fetch: (keys: K[]) => Promise<Map<K, V>>, maxKeys = 256): BatchedLookup<K, V> {
  type Waiter = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  const waiting = new Map<K, Waiter[]>();
  let inFlight = false;
  let sent = 0;

  const send = () => {
    if (inFlight || waiting.size === 0) return;
    // At most maxKeys keys now; the rest wait for the next statement.
    const batch = new Map<K, Waiter[]>();
    for (const [key, waiters] of waiting) {
      if (batch.size === maxKeys) break;
      batch.set(key, waiters);
    }
    for (const key of batch.keys()) waiting.delete(key);
    inFlight = true;
    sent += 1;
    let answer: Promise<Map<K, V>>;
    try {
      answer = fetch([...batch.keys()]);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (found) => {
        inFlight = false;
        for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
        send();
      },
      (error: unknown) => {
        inFlight = false;
        for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
        send();
      },
    );
  };

  const lookup = (key: K) =>
    new Promise<V | undefined>((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      send();
    });
  return Object.assign(lookup, { statements: () => sent });
}

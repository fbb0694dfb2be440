/**
 * Fixed one-minute windows of attempts, counted in the database so that every app
 * instance sharing it sees the same numbers.
 */
import type { Executor } from '../../db/schema.js';

export interface Window {
  hits: number;
  windowStart: number;
}

/** Counts one hit; a window older than `windowMs` starts again. Atomic on both databases. */
export async function hit(db: Executor, key: string, nowMs: number, windowMs: number): Promise<Window> {
  const expired = nowMs - windowMs;
  const row = await db
    .insertInto('throttles')
    .values({ key, hits: 1, window_start: nowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        hits: eb
          .case()
          .when('throttles.window_start', '<=', expired)
          .then(1)
          .else(eb('throttles.hits', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('throttles.window_start', '<=', expired)
          .then(eb.val(nowMs))
          .else(eb.ref('throttles.window_start'))
          .end(),
      })),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStart: Number(row.window_start) };
}

export async function clear(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

export async function deleteExpired(db: Executor, beforeMs: number): Promise<void> {
  await db.deleteFrom('throttles').where('window_start', '<', beforeMs).execute();
}

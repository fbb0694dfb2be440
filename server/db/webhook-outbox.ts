/**
 * The webhook outbox (CONTRACT.md §20, decision 046): a run's change queues a delivery to each
 * webhook of its owner that wants the event, in the writer's own transaction, as db/tallies.ts
 * counts it: the change and its deliveries commit together or not at all, so a stop loses none.
 * The body is written once here, the run exactly as GET /entry/{id} answers it, and never changes
 * between tries. A runner without webhooks costs one indexed read per transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Entry } from '../../core/schemas.js';
import type { WebhookEvent } from '../../core/webhooks.js';
import { toEntry } from './entry-row.js';
import type { Executor } from './schema.js';
import { shown } from './staged.js';

/** The runs of one statement of reads by id (well under either database's parameter limit). */
const READ_BATCH = 500;

type Deleted = Pick<Entry, 'id' | 'date'>;

async function webhooksOf(db: Executor, userId: number, event: WebhookEvent): Promise<number[]> {
  const rows = await db.selectFrom('webhooks').select(['id', 'events']).where('user_id', '=', userId).execute();
  return rows.filter((row) => row.events.split(',').includes(event)).map((row) => Number(row.id));
}

/**
 * Queues `event` for each run (`run.deleted`: its id and date) to every webhook of `userId`
 * that wants it, in the order given, on `db` (the transaction of the change).
 */
export async function queueRunEvents(
  db: Executor,
  userId: number,
  event: WebhookEvent,
  runs: readonly (Entry | Deleted)[],
  at: string = new Date().toISOString(),
): Promise<void> {
  if (runs.length === 0) return;
  const hooks = await webhooksOf(db, userId, event);
  if (hooks.length === 0) return;
  await insertDeliveries(db, hooks, userId, event, runs, at);
}

async function insertDeliveries(
  db: Executor,
  hooks: readonly number[],
  userId: number,
  event: WebhookEvent,
  runs: readonly (Entry | Deleted)[],
  at: string,
): Promise<void> {
  const rows = runs.flatMap((run) => {
    const entry = event === 'run.deleted' ? { id: run.id, date: run.date } : run;
    const body = JSON.stringify({ event, at, user_id: userId, entry });
    return hooks.map((webhook) => ({
      delivery_id: randomUUID(),
      webhook_id: webhook,
      event,
      body,
      next_at: '',
    }));
  });
  for (let i = 0; i < rows.length; i += READ_BATCH / 5) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + READ_BATCH / 5))
      .execute();
  }
}

/** As queueRunEvents, for runs known by id (an import's new runs), read as they are now in `db`. */
export async function queueRunEventsOfIds(
  db: Executor,
  userId: number,
  event: Exclude<WebhookEvent, 'run.deleted'>,
  ids: readonly number[],
  at: string = new Date().toISOString(),
): Promise<void> {
  if (ids.length === 0) return;
  const hooks = await webhooksOf(db, userId, event);
  if (hooks.length === 0) return;
  for (let i = 0; i < ids.length; i += READ_BATCH) {
    const slice = ids.slice(i, i + READ_BATCH);
    const rows = await db.selectFrom('entries').selectAll().where('id', 'in', slice).execute();
    const byId = new Map(rows.map((row) => [Number(row.id), toEntry(row)]));
    const runs = slice.flatMap((id) => {
      const run = byId.get(id);
      return run ? [run] : [];
    });
    await insertDeliveries(db, hooks, userId, event, runs, at);
  }
}

/**
 * A shoe of `userId` about to be deleted: each run that names it changes (its shoe cleared by the
 * foreign key), so `run.updated` is queued with the run as it will read, without a shoe.
 */
export async function queueShoeCleared(db: Executor, userId: number, shoeId: number, at: string): Promise<void> {
  const hooks = await webhooksOf(db, userId, 'run.updated');
  if (hooks.length === 0) return;
  const rows = await db
    .selectFrom('entries')
    .selectAll()
    .where('user_id', '=', userId)
    .where('shoe_id', '=', shoeId)
    .where(shown('staged'))
    .orderBy('id')
    .execute();
  const runs = rows.map((row) => ({ ...toEntry(row), shoe_id: null }));
  await insertDeliveries(db, hooks, userId, 'run.updated', runs, at);
}

/** SQL for webhooks and their outbox (migration 027, decision 046). */
import { sql } from 'kysely';
import type { Webhook, WebhookEvent } from '../../../core/webhooks.js';
import type { Executor } from '../../db/schema.js';

type WebhookRow = {
  id: number;
  url: string;
  events: string;
  created_at: string;
  last_at: string | null;
  last_status: number | null;
  last_error: string | null;
};

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events.split(',') as WebhookEvent[],
    created_at: row.created_at,
    last_delivery:
      row.last_at === null
        ? null
        : {
            at: row.last_at,
            status: row.last_status === null ? null : Number(row.last_status),
            error: row.last_error,
          },
  };
}

const WEBHOOK_COLUMNS = ['id', 'url', 'events', 'created_at', 'last_at', 'last_status', 'last_error'] as const;

export async function listWebhooks(db: Executor, userId: number): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toWebhook);
}

export async function countWebhooks(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertWebhook(
  db: Executor,
  values: { userId: number; url: string; events: readonly WebhookEvent[]; secret: string; createdAt: string },
): Promise<Webhook> {
  const row = await db
    .insertInto('webhooks')
    .values({
      user_id: values.userId,
      url: values.url,
      events: values.events.join(','),
      secret: values.secret,
      created_at: values.createdAt,
    })
    .returning(WEBHOOK_COLUMNS)
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

/** Deletes one of `userId`'s webhooks (its waiting deliveries go with it); false when not theirs. */
export async function deleteWebhook(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A delivery as the sender needs it: what to send, where, signed with what. */
export interface DueDelivery {
  seq: number;
  deliveryId: string;
  webhookId: number;
  event: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/**
 * The webhooks with a delivery due at `now` whose sending nobody holds (or whose holder's lease
 * ran out), oldest delivery first, at most `limit`, leaving out `busy` (this instance's own).
 */
export async function webhooksWithDueDeliveries(
  db: Executor,
  now: string,
  busy: readonly number[],
  limit: number,
): Promise<number[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select('d.webhook_id')
    .where('d.next_at', '<=', now)
    .where((eb) => eb.or([eb('w.sending_until', 'is', null), eb('w.sending_until', '<', now)]))
    .groupBy('d.webhook_id')
    .orderBy(sql`min(d.seq)`)
    .limit(limit);
  if (busy.length > 0) query = query.where('d.webhook_id', 'not in', busy);
  const rows = await query.execute();
  return rows.map((row) => Number(row.webhook_id));
}

/**
 * Takes the sending of a webhook's deliveries until `until`, when nobody holds it (one atomic
 * update: of several instances on one database, one gets it). True when taken.
 */
export async function claimWebhook(db: Executor, id: number, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ sending_until: until })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('sending_until', 'is', null), eb('sending_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Extends a held claim (false when it was lost: its lease ran out and another took it). */
export async function extendClaim(db: Executor, id: number, held: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ sending_until: until })
    .where('id', '=', id)
    .where('sending_until', '=', held)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function releaseClaim(db: Executor, id: number, held: string): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ sending_until: null })
    .where('id', '=', id)
    .where('sending_until', '=', held)
    .execute();
}

/** The webhook's next due delivery in the order of the changes, or null. */
export async function nextDueDelivery(db: Executor, webhookId: number, now: string): Promise<DueDelivery | null> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.seq', 'd.delivery_id', 'd.webhook_id', 'd.event', 'd.body', 'd.attempts', 'w.url', 'w.secret'])
    .where('d.webhook_id', '=', webhookId)
    .where('d.next_at', '<=', now)
    .orderBy('d.seq')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    seq: Number(row.seq),
    deliveryId: row.delivery_id,
    webhookId: Number(row.webhook_id),
    event: row.event,
    body: row.body,
    attempts: Number(row.attempts),
    url: row.url,
    secret: row.secret,
  };
}

export interface Outcome {
  at: string;
  status: number | null;
  error: string | null;
}

/** A finished delivery (delivered, or dropped after its last try): gone from the outbox, kept as the webhook's last. */
export async function finishDelivery(db: Executor, delivery: DueDelivery, outcome: Outcome): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_deliveries').where('seq', '=', delivery.seq).execute();
    await trx
      .updateTable('webhooks')
      .set({ last_at: outcome.at, last_status: outcome.status, last_error: outcome.error })
      .where('id', '=', delivery.webhookId)
      .execute();
  });
}

/** A failed try with tries left: the delivery waits until `nextAt`; the webhook shows the failure. */
export async function postponeDelivery(
  db: Executor,
  delivery: DueDelivery,
  outcome: Outcome,
  nextAt: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts: delivery.attempts + 1,
        next_at: nextAt,
        last_at: outcome.at,
        last_status: outcome.status,
        last_error: outcome.error,
      })
      .where('seq', '=', delivery.seq)
      .execute();
    await trx
      .updateTable('webhooks')
      .set({ last_at: outcome.at, last_status: outcome.status, last_error: outcome.error })
      .where('id', '=', delivery.webhookId)
      .execute();
  });
}

/**
 * Webhooks (CONTRACT.md §20, decision 046): a runner's receivers of run events, managed by a
 * sign-in session or a write token, at most MAX_WEBHOOKS each. Their deliveries are queued by the
 * writers of runs (db/webhook-outbox.ts) and sent by delivery.ts.
 */
import { randomBytes } from 'node:crypto';
import {
  MAX_WEBHOOK_URL,
  MAX_WEBHOOKS,
  TOO_MANY_WEBHOOKS,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_CREDENTIALS,
  WEBHOOK_URL_REFUSED,
  WEBHOOK_URL_SCHEME,
  WEBHOOK_URL_TOO_LONG,
  WEBHOOKS_NEED_WRITE,
  WEBHOOKS_NOT_FOR_DEMO,
  type Webhook,
  type WebhookBody,
} from '../../../core/webhooks.js';
import { inTransaction, nowIso, type AppContext, type Session } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { forbidden, invalid, notFound } from '../../errors.js';
import { findUserById } from '../users/users.service.js';
import { isRefusedAddress, literalHost } from './addresses.js';
import * as webhooks from './webhooks.repository.js';

export { startWebhookDeliveries, type DeliveryOptions, type WebhookDeliveries } from './delivery.js';

/** Sign-in sessions and write tokens manage webhooks; read tokens and demo accounts get 403. */
async function requireManager(ctx: AppContext, session: Session): Promise<void> {
  if (session.scope === 'read') throw forbidden(WEBHOOKS_NEED_WRITE);
  if (ctx.config.demoMode && (await findUserById(ctx, session.user.id))?.isDemo) throw forbidden(WEBHOOKS_NOT_FOR_DEMO);
}

/** The url as stored, or a 422 on `url` saying what is wrong with it. */
export function checkedUrl(url: string, allowPrivate: boolean): string {
  if (url.length > MAX_WEBHOOK_URL) throw invalid('url', WEBHOOK_URL_TOO_LONG);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', WEBHOOK_URL_SCHEME);
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw invalid('url', WEBHOOK_URL_SCHEME);
  }
  if (parsed.username !== '' || parsed.password !== '') throw invalid('url', WEBHOOK_URL_CREDENTIALS);
  const literal = literalHost(parsed.hostname);
  if (!allowPrivate && literal !== null && isRefusedAddress(literal)) throw invalid('url', WEBHOOK_URL_REFUSED);
  // The URL as written: the receiver may care about its exact path and query.
  return url;
}

export async function listWebhooks(ctx: AppContext, session: Session): Promise<Webhook[]> {
  await requireManager(ctx, session);
  return webhooks.listWebhooks(ctx.db, session.user.id);
}

/** A new webhook and its secret (32 random bytes as hex), which is shown this once. */
export async function createWebhook(
  ctx: AppContext,
  session: Session,
  body: WebhookBody,
): Promise<{ webhook: Webhook; secret: string }> {
  await requireManager(ctx, session);
  const url = checkedUrl(body.url, ctx.config.webhookPrivate);
  const events = body.events ?? [...WEBHOOK_EVENTS];
  const secret = randomBytes(32).toString('hex');
  const webhook = await inTransaction(ctx, async (trx) => {
    await lockRunner(trx, session.user.id);
    if ((await webhooks.countWebhooks(trx, session.user.id)) >= MAX_WEBHOOKS) {
      throw invalid('webhook', TOO_MANY_WEBHOOKS);
    }
    return webhooks.insertWebhook(trx, { userId: session.user.id, url, events, secret, createdAt: nowIso(ctx) });
  });
  return { webhook, secret };
}

/** Deletes one of the caller's webhooks, and its waiting deliveries; another's is a 404. */
export async function deleteWebhook(ctx: AppContext, session: Session, id: number): Promise<void> {
  await requireManager(ctx, session);
  if (!(await webhooks.deleteWebhook(ctx.db, session.user.id, id))) throw notFound();
}

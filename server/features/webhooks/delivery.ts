/**
 * The webhook sender (CONTRACT.md §20, decision 046). Every `pollMs` it looks for webhooks with a
 * delivery due and takes each one's sending with a lease (one atomic update: of several instances
 * on one database one sends it); then it sends that webhook's due deliveries one at a time in the
 * order of their changes, each a POST of the stored body, signed, to the one checked address, no
 * redirect followed, answered with a 2xx within `timeoutMs` or tried again after the next of
 * `retryDelaysMs` (then dropped). A delivery waiting for a retry holds back none after it. Each
 * webhook sends on its own (at most `maxSending` at once), so a slow receiver delays only itself,
 * and no request ever waits for a receiver.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { ADDRESS_NOT_ALLOWED } from '../../../core/webhooks.js';
import type { AppContext } from '../../context.js';
import { isRefusedAddress, resolveOnce, type Resolved } from './addresses.js';
import * as webhooks from './webhooks.repository.js';

/** About 1 min, 5 min, 30 min, 2 h and 12 h after a failed try (§20), then dropped. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryOptions {
  /** The waits after the 1st, 2nd... failed try; a failure after the last is dropped. */
  retryDelaysMs?: readonly number[];
  /** A 2xx must arrive within this time. */
  timeoutMs?: number;
  /** How often to look for due deliveries. */
  pollMs?: number;
  /** Webhooks sending at once in this process. */
  maxSending?: number;
  /** The clock of retries and leases (the app's clock by default: a test's moves it). */
  now?: () => Date;
}

export interface WebhookDeliveries {
  /** Looks for due deliveries now rather than at the next poll. */
  nudge(): void;
  /** Stops looking, and waits for the tries under way (each at most `timeoutMs`). */
  stop(): Promise<void>;
}

interface Attempt {
  status: number | null;
  error: string | null;
}

const signatureOf = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

/** One POST of a delivery's body to its webhook's URL, connecting only to `target`. */
function post(
  url: URL,
  target: Resolved,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
): Promise<Attempt> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    // The name is never resolved again: whatever asks, the checked address is the answer.
    const lookup: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const request = (url.protocol === 'https:' ? https : http).request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': String(body.length) },
      lookup,
      agent: false,
    });
    const timer = setTimeout(() => {
      done({ status: null, error: `No answer within ${Math.round(timeoutMs / 1000)} seconds.` });
      request.destroy();
    }, timeoutMs);
    request.on('response', (response) => {
      const status = response.statusCode ?? null;
      // The answer's body is not read: the status says it all.
      response.destroy();
      request.destroy();
      if (status !== null && status >= 300 && status < 400) {
        done({ status, error: 'Redirects are not followed.' });
      } else {
        done({
          status,
          error: status !== null && status >= 200 && status < 300 ? null : `The receiver answered ${status}.`,
        });
      }
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      done({ status: null, error: `Could not reach the receiver (${error.code ?? error.message}).` });
    });
    request.end(body);
  });
}

export function startWebhookDeliveries(
  ctx: AppContext,
  log: FastifyBaseLogger,
  options: DeliveryOptions = {},
): WebhookDeliveries {
  const retryDelays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxSending = options.maxSending ?? 32;
  const now = options.now ?? ctx.config.now;
  // A claim outlives the longest try: another instance takes the webhook only once its holder is gone.
  const leaseMs = timeoutMs + 5_000;
  const iso = (offsetMs = 0) => new Date(now().getTime() + offsetMs).toISOString();
  const sending = new Map<number, Promise<void>>();
  let stopped = false;
  let looking = false;
  let again = false;

  async function attempt(delivery: webhooks.DueDelivery): Promise<Attempt> {
    const url = new URL(delivery.url);
    let target: Resolved;
    try {
      target = await resolveOnce(url.hostname);
    } catch {
      return { status: null, error: 'The host name could not be resolved.' };
    }
    if (!ctx.config.webhookPrivate && isRefusedAddress(target.address))
      return { status: null, error: ADDRESS_NOT_ALLOWED };
    const body = Buffer.from(delivery.body, 'utf8');
    return post(
      url,
      target,
      {
        'content-type': 'application/json',
        'user-agent': 'RunningTimes-Webhook/1',
        'x-runningtimes-event': delivery.event,
        'x-runningtimes-delivery': delivery.deliveryId,
        'x-runningtimes-signature': signatureOf(delivery.secret, delivery.body),
      },
      body,
      timeoutMs,
    );
  }

  /** Sends a claimed webhook's due deliveries, oldest change first, while the claim holds. */
  async function sendDue(webhookId: number, claim: string): Promise<void> {
    let held = claim;
    try {
      while (!stopped) {
        const delivery = await webhooks.nextDueDelivery(ctx.db, webhookId, iso());
        if (!delivery) break;
        const extended = iso(leaseMs);
        if (!(await webhooks.extendClaim(ctx.db, webhookId, held, extended))) return;
        held = extended;
        const result = await attempt(delivery);
        const outcome = { at: iso(), ...result };
        if (result.status !== null && result.status >= 200 && result.status < 300) {
          await webhooks.finishDelivery(ctx.db, delivery, outcome);
        } else if (delivery.attempts >= retryDelays.length) {
          log.warn(
            { webhook: webhookId, delivery: delivery.deliveryId },
            'webhook delivery dropped after its last try',
          );
          await webhooks.finishDelivery(ctx.db, delivery, outcome);
        } else {
          await webhooks.postponeDelivery(ctx.db, delivery, outcome, iso(retryDelays[delivery.attempts]!));
        }
      }
    } catch (error) {
      log.warn({ err: error, webhook: webhookId }, 'webhook deliveries failed; trying again at the next look');
    } finally {
      await webhooks.releaseClaim(ctx.db, webhookId, held).catch(() => undefined);
    }
  }

  async function look(): Promise<void> {
    if (looking) {
      again = true;
      return;
    }
    looking = true;
    try {
      do {
        again = false;
        if (stopped || sending.size >= maxSending) return;
        const start = iso();
        const due = await webhooks.webhooksWithDueDeliveries(
          ctx.db,
          start,
          [...sending.keys()],
          maxSending - sending.size,
        );
        for (const webhookId of due) {
          if (stopped || sending.has(webhookId)) continue;
          const claim = iso(leaseMs);
          if (!(await webhooks.claimWebhook(ctx.db, webhookId, iso(), claim))) continue;
          const work = sendDue(webhookId, claim).finally(() => {
            sending.delete(webhookId);
            // Its next delivery may be due, or another webhook waits for a free place.
            void look();
          });
          sending.set(webhookId, work);
        }
      } while (again);
    } catch (error) {
      log.warn({ err: error }, 'looking for webhook deliveries failed; trying again at the next look');
    } finally {
      looking = false;
    }
  }

  const timer = setInterval(() => void look(), options.pollMs ?? 1000);
  timer.unref();
  void look();
  return {
    nudge: () => void look(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...sending.values()]);
    },
  };
}

/** Background work of a running server: housekeeping and, in demo mode, the daily reset. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';
import { purgeExpired } from './features/auth/auth.service.js';
import { runDailyResetIfDue } from './features/demo/demo.service.js';
import { purgeIdempotencyKeys } from './features/entries/entries.service.js';
import { purgeExpiredLinks } from './features/mail/mail.service.js';

const TICK_MS = 60_000;

export function startJobs(ctx: AppContext, log: FastifyBaseLogger): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await purgeExpired(ctx);
      await purgeIdempotencyKeys(ctx);
      await purgeExpiredLinks(ctx);
      if (ctx.config.demoMode && (await runDailyResetIfDue(ctx))) log.info('demo accounts reset');
    } catch (error) {
      log.warn({ err: error }, 'background job failed; retrying next minute');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), TICK_MS);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}

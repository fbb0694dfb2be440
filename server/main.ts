/** Starts Running Times: builds the app, listens, and shuts down cleanly on SIGTERM/SIGINT. */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseOpenError } from './db/errors.js';
import { startWebhookDeliveries } from './features/webhooks/webhooks.service.js';
import { startJobs } from './jobs.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  const stopJobs = startJobs(app.appContext, app.log);
  // Webhook deliveries go out from here, never from a request (decision 046).
  const deliveries = startWebhookDeliveries(app.appContext, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, finishing requests in flight`);
    stopJobs();
    await deliveries.stop();
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  // Start-up problems are the operator's to fix: one clear line, no stack trace.
  const known = error instanceof ConfigError || error instanceof DatabaseOpenError;
  const message = error instanceof Error ? error.message : String(error);
  console.error(`Running Times could not start: ${known ? message : message.split('\n')[0]}`);
  process.exit(1);
});

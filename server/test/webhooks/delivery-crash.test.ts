/**
 * A delivery survives a crash (CONTRACT.md §20): the real server is killed with SIGKILL after a
 * run's change committed and before its delivery was acknowledged (the receiver holds the first
 * try unanswered); the server started again on the same database sends it, with the same id and
 * body, exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../../scripts/soak/server-process.js';
import { registerRunner } from '../../../scripts/support/server-process.js';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/scratch-database.js';
import { startReceiver, type Receiver } from './receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGKILL between a run’s commit and its delivery', () => {
  let db: ScratchDatabase;
  let server: ServerProcess | null = null;
  let receiver: Receiver;
  beforeAll(async () => {
    db = await createScratchDatabase();
    // The first try is never answered: the server dies with it in flight.
    receiver = await startReceiver((n) => (n === 0 ? 'hang' : 200));
  });
  afterAll(async () => {
    await server?.stop(2000);
    await receiver.close();
    await db.remove();
  });

  it('sends the delivery exactly once after the restart', async () => {
    const env = { WEBHOOK_PRIVATE: '1' };
    server = await startServer({ databaseUrl: db.url, env });
    const { token } = await registerRunner(server.baseUrl, {
      name: 'Crash Runner',
      email: 'webhook-crash@example.com',
      password: 'crash-password-1',
    });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const made = await fetch(`${server.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, events: ['run.created'] }),
    });
    expect(made.status).toBe(201);
    receiver.secret = ((await made.json()) as { secret: string }).secret;
    const run = await fetch(`${server.baseUrl}/api/v1/entry`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ date: '2026-01-10', distance: 8, time: '00:40:00' }),
    });
    expect(run.status).toBe(201);
    const entryId = ((await run.json()) as { entry: { id: number } }).entry.id;

    const [held] = await receiver.waitFor(1, 10_000);
    const victim = server;
    victim.child.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');

    server = await startServer({ databaseUrl: db.url, env });
    // The dead server's claim on the webhook runs out (the try's 10 s and a margin), then it goes.
    const [, again] = await receiver.waitFor(2, 40_000);
    expect(again!.deliveryId).toBe(held!.deliveryId);
    expect(again!.body).toBe(held!.body);
    expect(again!.signed).toBe(true);
    expect(again!.json).toMatchObject({ event: 'run.created', entry: { id: entryId } });

    await sleep(3000);
    expect(receiver.arrivals, 'delivered once after the restart, never again').toHaveLength(2);
    const list = await fetch(`${server.baseUrl}/api/v1/webhooks`, { headers });
    const { webhooks } = (await list.json()) as { webhooks: { last_delivery: { status: number } | null }[] };
    expect(webhooks[0]!.last_delivery?.status).toBe(200);
  }, 120_000);
});

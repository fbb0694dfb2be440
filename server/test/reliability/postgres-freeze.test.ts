/**
 * PostgreSQL freezes (every process stopped with SIGSTOP, as a hung host or a stalled disk
 * looks to the app) under a running server: requests on pooled connections get their answer,
 * a 503, within seconds instead of hanging for the whole freeze, and the same process serves
 * again by itself once the database wakes. Runs with TEST_DATABASE_URL set, on a cluster of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../../scripts/soak/server-process.js';
import { registerRunner } from '../../../scripts/support/server-process.js';
import { createCluster, postgresBinaries, type Cluster } from './postgres-cluster.js';

const bin = postgresBinaries();
const TIMEOUT_MS = 1500;

describe.skipIf(!process.env.TEST_DATABASE_URL || !bin)('PostgreSQL frozen under a running server', () => {
  let cluster: Cluster;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    cluster = await createCluster(bin!);
    server = await startServer({
      databaseUrl: cluster.url,
      env: { DB_POOL_SIZE: '4', DB_QUERY_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    ({ token } = await registerRunner(server.baseUrl, {
      name: 'Frozen Runner',
      email: 'frozen@example.com',
      password: 'frozen-password-1',
    }));
  }, 120_000);

  afterAll(async () => {
    try {
      cluster?.thaw();
    } catch {
      // Not frozen.
    }
    await server?.stop(2000);
    cluster?.destroy();
  });

  const get = async (path: string) => {
    const started = Date.now();
    const res = await fetch(`${server.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(20_000),
    });
    return { status: res.status, body: await res.text(), ms: Date.now() - started };
  };

  it('answers 503 within seconds while frozen, and serves again after', async () => {
    // Warm every pooled connection, so that the freeze catches requests on open connections.
    await Promise.all(Array.from({ length: 8 }, () => get('/api/v1/entry')));
    cluster.freeze();
    try {
      const answers = await Promise.all([
        get('/api/v1/entry'),
        get('/api/v1/dashboard/data'),
        get('/api/v1/user/me'),
        get('/api/health'),
        get('/api/v1/entry'),
        get('/api/v1/entry'),
      ]);
      for (const answer of answers) {
        expect(answer.status, answer.body).toBe(503);
        // The pool's 5 s to get a connection, or the query's limit, and a margin for a busy machine.
        expect(answer.ms).toBeLessThan(12_000);
      }
    } finally {
      cluster.thaw();
    }
    const deadline = Date.now() + 30_000;
    let last = await get('/api/v1/entry');
    while (last.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      last = await get('/api/v1/entry');
    }
    expect(last.status, last.body).toBe(200);
  }, 90_000);
});

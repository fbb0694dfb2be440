/**
 * PostgreSQL goes away mid-run and comes back. While it is down every API call answers
 * 503 {"message":"Service unavailable."} (never a 500, never a crash) and /api/health
 * says so; when it is back the same server process serves again by itself, with every
 * acknowledged write in place. Runs with TEST_DATABASE_URL set (the PostgreSQL pass of
 * CI) on a cluster of its own, since it stops it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../../scripts/soak/server-process.js';
import { registerRunner } from '../../../scripts/support/server-process.js';
import { createCluster, postgresBinaries, type Cluster } from './postgres-cluster.js';

const bin = postgresBinaries();

interface Answer {
  status: number;
  body: string;
  contentType: string | null;
}

describe.skipIf(!process.env.TEST_DATABASE_URL || !bin)('PostgreSQL stops and starts under a running server', () => {
  let cluster: Cluster;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    cluster = await createCluster(bin!);
    server = await startServer({ databaseUrl: cluster.url, env: { DB_POOL_SIZE: '4' } });
    ({ token } = await registerRunner(server.baseUrl, {
      name: 'Outage Runner',
      email: 'outage@example.com',
      password: 'outage-password-1',
    }));
  }, 120_000);

  afterAll(async () => {
    await server?.stop(2000);
    cluster?.destroy();
  });

  async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
  }

  const run = (day: number) => ({
    date: `2026-01-${String(day).padStart(2, '0')}`,
    distance: 5 + day,
    time: '00:40:00',
  });

  async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it.each(['fast', 'immediate'] as const)(
    'stopped (%s): 503 JSON while down, reported on /api/health, recovers by itself',
    async (mode) => {
      const acknowledged: number[] = [];
      for (const day of [1, 2, 3]) {
        const res = await request('POST', '/api/v1/entry', run(day));
        expect(res.status, res.body).toBe(201);
        acknowledged.push((JSON.parse(res.body) as { entry: { id: number } }).entry.id);
      }

      // Background traffic through the whole outage: every answer must be a success or a 503.
      const seen: Answer[] = [];
      let traffic = true;
      const background = (async () => {
        let day = 4;
        while (traffic) {
          const answers = await Promise.all([
            request('GET', '/api/v1/entry').catch(() => null),
            request('POST', '/api/v1/entry', run((day++ % 28) + 1)).catch(() => null),
            request('GET', '/api/v1/dashboard/data').catch(() => null),
          ]);
          for (const answer of answers) if (answer) seen.push(answer);
          const created = answers[1];
          if (created?.status === 201)
            acknowledged.push((JSON.parse(created.body) as { entry: { id: number } }).entry.id);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 500));

      cluster.stop(mode);

      await until(async () => (await request('GET', '/api/v1/entry')).status === 503, 'a 503 from the API');
      for (const [method, path, body] of [
        ['GET', '/api/v1/entry', undefined],
        ['GET', '/api/v1/user/me', undefined],
        ['POST', '/api/v1/entry', run(20)],
        ['GET', '/api/v1/report/weekly', undefined],
      ] as const) {
        const res = await request(method, path, body);
        expect(res.status, `${method} ${path}: ${res.body}`).toBe(503);
        expect(res.contentType).toMatch(/^application\/json/);
        expect(JSON.parse(res.body)).toEqual({ message: 'Service unavailable.' });
      }
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'unavailable', message: 'Service unavailable.' });
      // Unauthenticated calls that need no database keep working.
      expect((await fetch(`${server.baseUrl}/api/v1/app-config`)).status).toBe(200);

      // Down for a few seconds, under traffic: the process stays up.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(server.child.exitCode).toBeNull();

      cluster.start();
      await until(async () => (await fetch(`${server.baseUrl}/api/health`)).status === 200, '/api/health to recover');
      await until(async () => (await request('GET', '/api/v1/entry')).status === 200, 'the API to recover');
      const created = await request('POST', '/api/v1/entry', run(25));
      expect(created.status, created.body).toBe(201);
      acknowledged.push((JSON.parse(created.body) as { entry: { id: number } }).entry.id);

      traffic = false;
      await background;
      expect(server.child.exitCode, 'the same process served before, during and after').toBeNull();

      const statuses = new Set(seen.map((a) => a.status));
      expect(
        [...statuses].filter((s) => s >= 500 && s !== 503),
        'no 5xx other than 503',
      ).toEqual([]);
      expect(statuses.has(503), 'the background traffic met the outage').toBe(true);
      for (const answer of seen.filter((a) => a.status === 503)) {
        expect(JSON.parse(answer.body)).toEqual({ message: 'Service unavailable.' });
      }
      expect(server.output()).not.toMatch(/"level":(50|60)/);

      // Every write acknowledged before, during and after the outage is there.
      for (const id of acknowledged) {
        const res = await request('GET', `/api/v1/entry/${id}`);
        expect(res.status, `entry ${id}`).toBe(200);
      }
    },
    120_000,
  );
});

/**
 * A scratch PostgreSQL database is dropped without sending an error to a client that is
 * closing its connection, and still dropped when a client never closes it. Runs when
 * TEST_DATABASE_URL is set (the CI's PostgreSQL run); SQLite scratch databases are folders.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DROP_GRACE_MS, testDatabase } from './scratch-database.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function exists(client: pg.Client, url: string): Promise<boolean> {
  const name = new URL(url).pathname.slice(1);
  const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
  return rows.length === 1;
}

async function serverClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  return client;
}

describe.runIf(onPostgres)('dropping a scratch PostgreSQL database', () => {
  it('lets a session that is closing end by itself: its client gets no error', async () => {
    const scratch = await testDatabase('drop_grace');
    const errors: Error[] = [];
    const client = new pg.Client({ connectionString: scratch.url });
    client.on('error', (error) => errors.push(error));
    await client.connect();
    await client.query('select 1');

    const dropped = scratch.drop();
    // The session is still open when the drop starts, and closes a moment later (as a pool's
    // connections do after its end() has resolved).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.end();
    await dropped;

    expect(errors.map((e) => e.message)).toEqual([]);
    const check = await serverClient();
    try {
      expect(await exists(check, scratch.url)).toBe(false);
    } finally {
      await check.end();
    }
  });

  it('ends a session that is never closed, after the grace period', async () => {
    const scratch = await testDatabase('drop_leak');
    const errors: Error[] = [];
    const client = new pg.Client({ connectionString: scratch.url });
    client.on('error', (error) => errors.push(error));
    await client.connect();

    const started = Date.now();
    await scratch.drop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(DROP_GRACE_MS - 50);
    const check = await serverClient();
    try {
      expect(await exists(check, scratch.url)).toBe(false);
    } finally {
      await check.end();
    }
    await expect(client.query('select 1')).rejects.toThrow();
    await client.end().catch(() => undefined);
  });
});

/**
 * A scratch PostgreSQL database is dropped without sending an error to a client that is
 * closing its connection, and still dropped when a client never closes it. Runs when
 * TEST_DATABASE_URL is set (the CI's PostgreSQL run); SQLite scratch databases are folders.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DROP_GRACE_MS, testDatabase } from './scratch-database.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Whether the server of TEST_DATABASE_URL still has the database of `url`. */
async function databaseExists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query('select 1 from pg_database where datname = $1', [
      new URL(url).pathname.slice(1),
    ]);
    return rows.length === 1;
  } finally {
    await client.end();
  }
}

/** A new scratch database and a client connected to it that records the errors it is sent. */
async function scratchWithClient(name: string) {
  const scratch = await testDatabase(name);
  const errors: Error[] = [];
  const client = new pg.Client({ connectionString: scratch.url });
  client.on('error', (error) => errors.push(error));
  await client.connect();
  return { scratch, client, errors };
}

describe.runIf(onPostgres)('dropping a scratch PostgreSQL database', () => {
  it('lets a session that is closing end by itself: its client gets no error', async () => {
    const { scratch, client, errors } = await scratchWithClient('drop_grace');
    await client.query('select 1');

    const dropped = scratch.drop();
    // The session is still open when the drop starts, and closes a moment later (as a pool's
    // connections do after its end() has resolved).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await client.end();
    await dropped;

    expect(errors.map((e) => e.message)).toEqual([]);
    expect(await databaseExists(scratch.url)).toBe(false);
  });

  it('ends a session that is never closed, after the grace period', async () => {
    const { scratch, client } = await scratchWithClient('drop_leak');

    const started = Date.now();
    await scratch.drop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(DROP_GRACE_MS - 50);
    expect(await databaseExists(scratch.url)).toBe(false);
    await expect(client.query('select 1')).rejects.toThrow();
    await client.end().catch(() => undefined);
  });
});

/**
 * An import never stalls other runners (decision 037): on SQLite it stores its runs in short
 * transactions, hidden, and shows them all in one statement. Another runner's write is answered
 * while the import is still storing; the importer sees none of its runs, then all of them; a
 * write of the importer's own runs meanwhile makes it match again; a server killed mid-import
 * comes back with none of its runs.
 */
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRunner } from '../../../scripts/support/server-process.js';
import { startServer, type ServerProcess } from '../../../scripts/soak/server-process.js';
import { readDatabase } from '../../../scripts/soak/verify.js';
import { createScratchDatabase, type ScratchDatabase } from '../reliability/scratch-database.js';
import { call, createTestApp, registerUser, type TestApp } from '../helpers.js';
import { importResult, multipartBody, storedRunCount, storedRuns } from './fixtures.js';

const HEADER = 'date,distance_km,time,title,notes,kind,effort,shoe';
const DAY = 86_400_000;

/** A CSV of `count` runs over `days` days, each its own numbers. */
function csv(count: number, days = 3000): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(2012, 0, 1) + (i % days) * DAY).toISOString().slice(0, 10);
    return `${date},${(3 + (i % 97) / 10).toFixed(1)},00:${String(20 + (i % 30)).padStart(2, '0')}:00,Run ${i},,easy,,`;
  });
  return [HEADER, ...rows].join('\n');
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows of the runner's runs stored so far, shown or not (what the import has committed). */
async function storedRows(t: TestApp, userId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from entries where user_id = ${userId}`.execute(
    t.app.appContext.db,
  );
  return Number(rows[0]!.n);
}

describe('an import on SQLite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { sqliteFile: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it("lets another runner's write through while it stores, and shows its runs all at once", async (context) => {
    if (!t.config.databaseUrl.startsWith('sqlite:')) return context.skip();
    const importer = await registerUser(t.app, { timezone: 'UTC' });
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const count = 10_000;
    let finished = false;
    const importing = importResult(t.app, importer.token, [{ name: 'many.csv', content: csv(count) }]).finally(() => {
      finished = true;
    });
    // Until the import's first runs are committed (before the fix: only at its end).
    while ((await storedRows(t, importer.user.id)) === 0 && !finished) await turn();
    const seenMeanwhile = await storedRuns(t.app, importer.token);
    const totalMeanwhile = await storedRunCount(t.app, importer.token);
    const written = await call(t.app, 'POST', '/api/v1/entry', {
      token: other.token,
      body: { date: '2026-03-01', distance: 5, time: '00:25:00' },
    });
    const { rows } = await sql<{ n: number }>`select count(*) as n from staged_imports`.execute(t.app.appContext.db);
    const stillStaging = Number(rows[0]!.n) > 0 && !finished;

    expect(written.statusCode).toBe(201);
    expect(stillStaging).toBe(true);
    expect(seenMeanwhile).toEqual([]);
    expect(totalMeanwhile).toBe(0);

    const result = await importing;
    expect(result.created).toBe(count);
    expect(await storedRunCount(t.app, importer.token)).toBe(count);
    expect(await storedRunCount(t.app, other.token)).toBe(1);
    // The marks are cleared once the runs are shown.
    const marked = await sql<{ n: number }>`select count(*) as n from entries where staged is not null`.execute(
      t.app.appContext.db,
    );
    expect(Number(marked.rows[0]!.n)).toBe(0);
  }, 180_000);

  it("matches again when the importer's own runs change while it stores: each run once", async (context) => {
    if (!t.config.databaseUrl.startsWith('sqlite:')) return context.skip();
    const importer = await registerUser(t.app, { timezone: 'UTC' });
    const count = 12_000;
    const file = csv(count);
    let finished = false;
    const importing = importResult(t.app, importer.token, [{ name: 'runs.csv', content: file }]).finally(() => {
      finished = true;
    });
    while ((await storedRows(t, importer.user.id)) === 0 && !finished) await turn();
    // The file's last run, typed by hand meanwhile: the import must take it for a duplicate.
    const [date, distance, time] = file.split('\n').at(-1)!.split(',');
    const typed = await call(t.app, 'POST', '/api/v1/entry', {
      token: importer.token,
      body: { date, distance: Number(distance), time },
    });
    expect(typed.statusCode).toBe(201);
    expect(finished).toBe(false);
    const result = await importing;
    expect(result.duplicates).toBe(1);
    expect(result.created).toBe(count - 1);
    expect(await storedRunCount(t.app, importer.token)).toBe(count);
    expect(await storedRows(t, importer.user.id)).toBe(count);
  }, 180_000);
});

describe('a server killed during an import', () => {
  let db: ScratchDatabase;
  let server: ServerProcess | null = null;
  beforeAll(async () => {
    db = await createScratchDatabase();
  });
  afterAll(async () => {
    await server?.stop(2000);
    await db.remove();
  });

  it('comes back with none of its runs, and with tallies that agree', async (context) => {
    if (!db.url.startsWith('sqlite:')) return context.skip();
    server = await startServer({ databaseUrl: db.url, env: { TRUST_PROXY: '1' } });
    const runner = await registerRunner(server.baseUrl, {
      name: 'Killed Import',
      email: 'killed-import@example.com',
      password: 'killed-import-1',
      from: '10.67.0.1',
    });
    const count = 30_000;
    const { payload, contentType } = multipartBody([{ name: 'many.csv', content: csv(count) }]);
    const sent = fetch(`${server.baseUrl}/api/v1/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runner.token}`, 'content-type': contentType },
      body: payload,
    }).catch(() => null);
    // Killed once some of its runs are committed, hidden (it stores for seconds after that).
    const file = new Database(db.url.slice('sqlite:'.length), { readonly: true });
    const committed = () => Number((file.prepare('select count(*) as n from entries').get() as { n: number }).n);
    const deadline = Date.now() + 120_000;
    while (committed() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(committed()).toBeGreaterThan(0);
    expect(committed()).toBeLessThan(count);
    file.close();
    server.child.kill('SIGKILL');
    await sent;

    server = await startServer({ databaseUrl: db.url, env: { TRUST_PROXY: '1' } });
    expect(
      await fetch(`${server.baseUrl}/api/v1/entry`, { headers: { authorization: `Bearer ${runner.token}` } }).then(
        (res) => res.json(),
      ),
    ).toMatchObject({ entries: { total: 0, data: [] } });
    const state = await readDatabase(db.url);
    expect(state.entries.size).toBe(0);
    expect(state.counterMismatches).toEqual([]);
    expect(state.integrity).toBe('ok');
  }, 240_000);
});

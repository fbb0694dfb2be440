/**
 * `npm run backup -- <file>` while the server keeps writing, then a restore the way
 * README.md describes it: the restored database holds every run acknowledged before
 * the backup started, its totals match its tables (one consistent instant), and a
 * server started on it serves the runner's runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPostgresTool } from '../../../scripts/backup/backup.js';
import { randomRun, type EntryValues } from '../../../scripts/soak/load.js';
import { startServer, type ServerProcess } from '../../../scripts/soak/server-process.js';
import { REPO_ROOT, registerRunner } from '../../../scripts/support/server-process.js';
import { readDatabase } from '../../../scripts/soak/verify.js';
import { parseDuration } from '../../../core/time.js';
import { createPostgresDatabase, createScratchDatabase, type ScratchDatabase } from './scratch-database.js';

function runScript(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Ack {
  id: number;
  values: EntryValues;
  at: number;
}

const PASSWORD = 'backup-password-1';

describe('online backup and restore', () => {
  let db: ScratchDatabase;
  let server: ServerProcess | null = null;
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    db = await createScratchDatabase();
  });
  afterAll(async () => {
    await server?.stop(2000);
    for (const cleanup of cleanups.reverse()) await cleanup();
    await db.remove();
  });

  it('backs up while writes continue, and the restored copy has every acknowledged run', async (context) => {
    if (db.dialect === 'postgres' && !findPostgresTool('pg_restore')) context.skip();
    server = await startServer({ databaseUrl: db.url });
    const { token } = await registerRunner(server.baseUrl, {
      name: 'Backup Runner',
      email: 'backup@example.com',
      password: PASSWORD,
    });

    // Writers: four loops creating runs until told to stop.
    const acks: Ack[] = [];
    let writing = true;
    const writer = async () => {
      while (writing) {
        const values = randomRun();
        const res = await fetch(`${server!.baseUrl}/api/v1/entry`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(values),
        });
        expect(res.status).toBe(201);
        acks.push({ id: ((await res.json()) as { entry: { id: number } }).entry.id, values, at: Date.now() });
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const file = path.join(db.dir, db.dialect === 'sqlite' ? 'backup.db' : 'backup.dump');
    const backupStarted = Date.now();
    const backup = await runScript(['scripts/backup.ts', file], { DATABASE_URL: db.url });
    const backupEnded = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    await writers;
    await server.stop();
    server = null;

    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written to /);
    const before = acks.filter((a) => a.at < backupStarted);
    const during = acks.filter((a) => a.at >= backupStarted && a.at <= backupEnded);
    expect(before.length).toBeGreaterThan(10);
    expect(during.length, 'writes went on while the backup ran').toBeGreaterThan(0);

    // Restore, as README.md says: a SQLite file put in place, or pg_restore into an empty database.
    let restoredUrl: string;
    if (db.dialect === 'sqlite') {
      const restored = path.join(db.dir, 'restored', 'running-times.db');
      fs.mkdirSync(path.dirname(restored));
      fs.copyFileSync(file, restored);
      expect(fs.existsSync(`${file}-wal`), 'the backup is one self-contained file').toBe(false);
      restoredUrl = `sqlite:${restored}`;
    } else {
      const target = await createPostgresDatabase(process.env.TEST_DATABASE_URL!, 'rt_restore');
      cleanups.push(() => target.drop());
      const restore = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(findPostgresTool('pg_restore')!, ['--no-owner', `--dbname=${target.url}`, file], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      expect(restore.code, restore.stderr).toBe(0);
      restoredUrl = target.url;
    }

    const state = await readDatabase(restoredUrl);
    if (db.dialect === 'sqlite') expect(state.integrity).toBe('ok');
    expect(state.counterMismatches, 'the copy is of one instant: totals match their tables').toEqual([]);
    for (const ack of before) {
      const row = state.entries.get(ack.id);
      expect(row, `run ${ack.id}, acknowledged before the backup`).toBeDefined();
      expect(row).toMatchObject({
        date: ack.values.date,
        distance_m: Math.round(ack.values.distance * 1000),
        seconds: parseDuration(ack.values.time),
      });
    }
    expect(state.entries.size).toBeLessThanOrEqual(acks.length);

    // A server started on the restored database serves the runner and their runs.
    server = await startServer({ databaseUrl: restoredUrl });
    const login = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'backup@example.com', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const restoredToken = ((await login.json()) as { access_token: string }).access_token;
    const list = await fetch(`${server.baseUrl}/api/v1/entry?per_page=1`, {
      headers: { authorization: `Bearer ${restoredToken}` },
    });
    expect(((await list.json()) as { entries: { total: number } }).entries.total).toBe(state.entries.size);
  }, 120_000);

  it('refuses to overwrite an existing file without --force, and says why in one line', async () => {
    const file = path.join(db.dir, 'exists.bin');
    fs.writeFileSync(file, 'keep me');
    const result = await runScript(['scripts/backup.ts', file], { DATABASE_URL: db.url });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Backup failed: ${file} already exists; choose another name or pass --force to replace it.`,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
  }, 60_000);
});

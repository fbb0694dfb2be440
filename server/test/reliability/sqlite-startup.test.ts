/**
 * A SQLite file the server cannot use (locked by another process, read-only, in a folder
 * it cannot write, not a database) stops the start with exit code 1 and one line on
 * stderr that says what is wrong: no stack trace, no half-started server. And the
 * mapping of SQLite's fault codes (extended codes included) to 503.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServerUntilExit, startServer } from '../../../scripts/soak/server-process.js';
import { REPO_ROOT } from '../../../scripts/support/server-process.js';
import { openDatabase } from '../../db/connection.js';
import { migrate } from '../../db/migrate.js';
import { isDatabaseDown } from '../../db/errors.js';

const PREFIX = 'Running Times could not start: ';

let dir: string;
let file: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'running-times-startup-'));
  fs.chmodSync(dir, 0o755);
  file = path.join(dir, 'running-times.db');
  const db = openDatabase(`sqlite:${file}`);
  await migrate(db);
  await db.close();
});
afterAll(() => {
  fs.chmodSync(dir, 0o755);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The start-up must fail by itself, fast, with one clear line. */
async function expectOneLineFailure(
  options: Parameters<typeof runServerUntilExit>[0],
  phrase: RegExp,
): Promise<string> {
  const started = Date.now();
  const result = await runServerUntilExit(options);
  expect(result.timedOut, `the server should give up by itself:\n${result.stdout}${result.stderr}`).toBe(false);
  expect(result.code).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${PREFIX}`));
  expect(lines[0]).toMatch(phrase);
  expect(result.stderr).not.toMatch(/\n\s+at |SqliteError|node_modules/);
  expect(result.stdout).not.toMatch(/listening/i);
  expect(Date.now() - started).toBeLessThan(30_000);
  return lines[0]!;
}

/** Runs the server as an unprivileged user when the tests run as root (root ignores file modes). */
function unprivileged(): { uid?: number; gid?: number } | null {
  if (process.getuid?.() !== 0) return {};
  try {
    const uid = Number(execFileSync('id', ['-u', 'nobody']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'nobody']).toString().trim());
    // That user must be able to read the code (a checkout under a private home folder is not).
    const probe = path.join(REPO_ROOT, 'node_modules', 'tsx', 'package.json');
    execFileSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(probe)})`], { uid, gid });
    return { uid, gid };
  } catch {
    return null;
  }
}

describe.skipIf(process.env.TEST_DATABASE_URL)('a SQLite file the server cannot use', () => {
  it('locked by another process holding the write lock: one line, exit 1, and it starts once the lock is gone', async () => {
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const line = await expectOneLineFailure(
        { databaseUrl: `sqlite:${file}`, timeoutMs: 30_000 },
        /is locked by another process/,
      );
      expect(line).toContain(file);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const server = await startServer({ databaseUrl: `sqlite:${file}` });
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    expect((await server.stop()).code).toBe(0);
  }, 60_000);

  it('held in exclusive locking mode by another process: one line, exit 1', async () => {
    const holder = new Database(file);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    try {
      await expectOneLineFailure({ databaseUrl: `sqlite:${file}`, timeoutMs: 30_000 }, /is locked by another process/);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
  }, 60_000);

  it('read-only (file and folder): one line naming the need for write access, exit 1', async (context) => {
    const user = unprivileged();
    if (!user) context.skip();
    fs.chmodSync(file, 0o444);
    fs.chmodSync(dir, 0o555);
    try {
      await expectOneLineFailure(
        { databaseUrl: `sqlite:${file}`, timeoutMs: 30_000, ...user, env: { HOME: os.tmpdir() } },
        /cannot be opened for writing .*needs write access to the file and to its folder/,
      );
    } finally {
      fs.chmodSync(dir, 0o755);
      fs.chmodSync(file, 0o644);
    }
  }, 60_000);

  it('a new database in a folder the server cannot write: one line, exit 1', async (context) => {
    const user = unprivileged();
    if (!user) context.skip();
    const locked = path.join(dir, 'no-write');
    fs.mkdirSync(locked, { mode: 0o555 });
    fs.chmodSync(locked, 0o555);
    await expectOneLineFailure(
      { databaseUrl: `sqlite:${path.join(locked, 'new.db')}`, timeoutMs: 30_000, ...user, env: { HOME: os.tmpdir() } },
      /cannot be opened for writing/,
    );
  }, 60_000);

  it('a file that is not a SQLite database: one line pointing to the backups, exit 1', async () => {
    const garbage = path.join(dir, 'garbage.db');
    fs.writeFileSync(garbage, 'This is not a database. '.repeat(200));
    await expectOneLineFailure(
      { databaseUrl: `sqlite:${garbage}`, timeoutMs: 30_000 },
      /is not a usable SQLite database .*restore it from a backup/,
    );
    // The file is left as it was, for the operator to look at.
    expect(fs.readFileSync(garbage, 'utf8')).toMatch(/^This is not a database\./);
  }, 60_000);
});

describe('database faults at run time answer 503, other database errors stay 500', () => {
  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_TIMEOUT',
    'SQLITE_LOCKED',
    'SQLITE_IOERR',
    'SQLITE_IOERR_FSYNC',
    'SQLITE_READONLY',
    'SQLITE_READONLY_DBMOVED',
    'SQLITE_FULL',
    'SQLITE_CANTOPEN',
    'ECONNREFUSED',
    'ECONNRESET',
    '57P01',
    '57P03',
    '08006',
    '53300',
  ])('%s is "database unavailable"', (code) => {
    expect(isDatabaseDown({ code })).toBe(true);
  });

  it.each(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_MISMATCH', '23505', '42P01', '22021'])(
    '%s is not',
    (code) => {
      expect(isDatabaseDown({ code })).toBe(false);
    },
  );
});

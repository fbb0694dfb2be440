/**
 * The one scratch database of the unit tests, e2e, bench and soak: a SQLite file in a new
 * temporary folder (or SQLite in memory), or a new, uniquely named PostgreSQL database on
 * the server of a base URL (tests pass TEST_DATABASE_URL, the bench DATABASE_URL; the base
 * URL's own database is never touched). `drop()` removes the folder with the file and its
 * -wal and -shm, or drops the database once its sessions have ended (ending those still open
 * after a grace period).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(url: string | undefined): Dialect {
  return url && /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

export interface ScratchOptions {
  /**
   * Names it (letters, digits and _): the PostgreSQL database `rt_<name>_<pid>_<time>_<random>`,
   * or the SQLite file `<name>.db` in a folder `running-times-<name>-*` of the system's temp folder.
   */
  name: string;
  /** A postgres:// URL: the database is created on that server. Anything else, or nothing: SQLite. */
  baseUrl?: string | undefined;
  /** SQLite only: `memory` for `sqlite::memory:`, which needs no file. Default: a file. */
  sqlite?: 'file' | 'memory';
  /** A temporary folder for the caller's own files (backups, copies), on PostgreSQL too; drop() removes it. */
  folder?: boolean;
}

export interface ScratchDatabase {
  url: string;
  dialect: Dialect;
  /** Where it lives, without credentials. */
  label: string;
  /** The SQLite file; null on PostgreSQL and in memory. */
  file: string | null;
  /** The temporary folder: the SQLite file's, or the one asked for with `folder`; else null. */
  dir: string | null;
  drop(): Promise<void>;
}

const adminPools = new Map<string, pg.Pool>();

/** One small pool per server, shared by every create and drop of the process. */
function adminPool(baseUrl: string): pg.Pool {
  let pool = adminPools.get(baseUrl);
  if (!pool) {
    pool = new pg.Pool({ connectionString: baseUrl, max: 2, allowExitOnIdle: true });
    // An idle admin connection that the server closes (a sandbox shutting down) is no failure of the caller's.
    pool.on('error', () => undefined);
    adminPools.set(baseUrl, pool);
  }
  return pool;
}

/** How long drop() lets the sessions still on a database end by themselves before it ends them. */
export const DROP_GRACE_MS = 3000;

/**
 * Waits, at most DROP_GRACE_MS, until no session is on the database. A pool's end() resolves
 * once its idle connections are told to close, before their sessions are gone: ending such a
 * session with FORCE sends its client an error ("terminating connection due to administrator
 * command"), an uncaught exception in a process whose pool has no 'error' listener. Only a
 * session still open after the grace period (one its owner never closed) is ended by FORCE.
 */
async function sessionsEnded(admin: pg.Pool, database: string): Promise<void> {
  const deadline = Date.now() + DROP_GRACE_MS;
  for (;;) {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    if (rows[0]!.n === 0 || Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function scratchDatabase(options: ScratchOptions): Promise<ScratchDatabase> {
  const { name, baseUrl, sqlite = 'file', folder = false } = options;
  if (!/^[a-z0-9_]+$/i.test(name)) throw new Error(`A scratch database's name is letters, digits and _: "${name}"`);
  const dialect = dialectOf(baseUrl);
  const needsFolder = folder || (dialect === 'sqlite' && sqlite === 'file');
  const dir = needsFolder ? fs.mkdtempSync(path.join(os.tmpdir(), `running-times-${name}-`)) : null;
  const removeFolder = () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };

  if (dialect === 'postgres') {
    const database = `rt_${name}_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = adminPool(baseUrl!);
    try {
      await admin.query(`CREATE DATABASE "${database}"`);
    } catch (error) {
      removeFolder();
      throw error;
    }
    const url = new URL(baseUrl!);
    url.pathname = `/${database}`;
    return {
      url: url.toString(),
      dialect,
      label: `postgres://${url.host}/${database}`,
      file: null,
      dir,
      async drop() {
        try {
          await sessionsEnded(admin, database);
          await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        } finally {
          removeFolder();
        }
      },
    };
  }

  const file = dir && sqlite === 'file' ? path.join(dir, `${name}.db`) : null;
  const url = file ? `sqlite:${file}` : 'sqlite::memory:';
  return { url, dialect, label: url, file, dir, drop: async () => removeFolder() };
}

/** A scratch database for a test: on the PostgreSQL server of TEST_DATABASE_URL when it is set, else SQLite. */
export function testDatabase(
  name: string,
  options: Omit<ScratchOptions, 'name' | 'baseUrl'> = {},
): Promise<ScratchDatabase> {
  return scratchDatabase({ ...options, name, baseUrl: process.env.TEST_DATABASE_URL });
}

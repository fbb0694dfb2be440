/**
 * Online, consistent backups while the server keeps writing.
 *
 * SQLite: SQLite's backup API copies every page in a single step, that is inside one
 * read transaction: the copy is the database as of one instant, and in WAL mode writers
 * carry on meanwhile. The copy is written beside the destination, checked (integrity
 * check, row counts), switched to a self-contained single file, and only then renamed
 * into place.
 *
 * PostgreSQL: pg_dump, which reads everything in one snapshot, in its custom format
 * (restore with pg_restore).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export interface BackupSummary {
  kind: 'sqlite' | 'postgres';
  destination: string;
  bytes: number;
  milliseconds: number;
  /** Row counts of the copy (SQLite only: a custom-format dump is not a database to count). */
  users: number | null;
  entries: number | null;
  integrity: string;
}

export class BackupError extends Error {}

function prepareDestination(destination: string, force: boolean): void {
  const folder = path.dirname(path.resolve(destination));
  if (!fs.existsSync(folder)) throw new BackupError(`The folder ${folder} does not exist.`);
  if (fs.existsSync(destination) && !force) {
    throw new BackupError(`${destination} already exists; choose another name or pass --force to replace it.`);
  }
}

export async function backupSqlite(source: string, destination: string, force = false): Promise<BackupSummary> {
  prepareDestination(destination, force);
  if (!fs.existsSync(source)) throw new BackupError(`There is no SQLite database at ${source}.`);
  const started = Date.now();
  const partial = `${destination}.partial`;
  fs.rmSync(partial, { force: true });

  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // After the first (empty) step, copy all remaining pages at once: one read transaction.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`The backup of ${source} failed: ${(error as Error).message}`);
  } finally {
    db.close();
  }

  let summary: Omit<BackupSummary, 'bytes' | 'milliseconds' | 'destination'>;
  const copy = new Database(partial);
  try {
    // A backup is one file: no write-ahead log beside it.
    copy.pragma('journal_mode = DELETE');
    const integrity = (copy.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('; ');
    const count = (table: string) => (copy.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    summary = { kind: 'sqlite', users: count('users'), entries: count('entries'), integrity };
  } finally {
    copy.close();
  }
  if (summary.integrity !== 'ok') {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`The copy failed its integrity check (${summary.integrity}); nothing was written.`);
  }
  fs.renameSync(partial, destination);
  return {
    ...summary,
    destination,
    bytes: fs.statSync(destination).size,
    milliseconds: Date.now() - started,
  };
}

/** A PostgreSQL client program: on PATH, or the newest of Debian's /usr/lib/postgresql/<version>/bin. */
export function findPostgresTool(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
    .sort((a, b) => Number(a) - Number(b));
  const latest = versions.at(-1);
  return latest ? path.join(root, latest, 'bin', name) : null;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${path.basename(command)} failed: ${stderr.trim()}`)),
    );
  });
}

export async function backupPostgres(url: string, destination: string, force = false): Promise<BackupSummary> {
  prepareDestination(destination, force);
  const pgDump = findPostgresTool('pg_dump');
  if (!pgDump) {
    throw new BackupError(
      'pg_dump was not found. Install the PostgreSQL client tools (Debian: apt-get install postgresql-client) or run: ' +
        'pg_dump --format=custom --file=<file> "$DATABASE_URL"',
    );
  }
  const started = Date.now();
  const partial = `${destination}.partial`;
  try {
    await run(pgDump, ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${url}`]);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  fs.renameSync(partial, destination);
  return {
    kind: 'postgres',
    destination,
    bytes: fs.statSync(destination).size,
    milliseconds: Date.now() - started,
    users: null,
    entries: null,
    integrity: 'not applicable',
  };
}

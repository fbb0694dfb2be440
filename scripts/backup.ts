/**
 * npm run backup -- <file> [--force]
 *
 * An online, consistent backup of the database of DATABASE_URL (as the server reads
 * it) while the server keeps running: SQLite's backup API for SQLite, pg_dump for
 * PostgreSQL. README.md, "Backups", explains how to restore one.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.js';
import { sqlitePath } from '../server/db/connection.js';
import { BackupError, backupPostgres, backupSqlite } from './backup/backup.js';

const USAGE = `Usage: npm run backup -- <file> [--force]

  <file>    where to write the backup (a SQLite file, or a pg_dump custom-format archive)
  --force   replace <file> if it exists

The database is DATABASE_URL (sqlite:<path> or postgres://...), as for the server;
the server may keep running and writing meanwhile.`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const destination = positionals[0]!;
  const { databaseUrl } = loadConfig(process.env);
  const force = values.force ?? false;
  const summary = databaseUrl.startsWith('sqlite:')
    ? await backupSqlite(sqlitePath(databaseUrl), destination, force)
    : await backupPostgres(databaseUrl, destination, force);
  const size = `${(summary.bytes / 1024).toFixed(0)} KB`;
  const rows = summary.users === null ? '' : `, ${summary.users} users and ${summary.entries} runs, integrity ok`;
  console.log(`Backup written to ${summary.destination} (${size}${rows}) in ${summary.milliseconds} ms.`);
  console.log(
    summary.kind === 'sqlite'
      ? 'Restore: stop the server, put this file at the DATABASE_URL path (and remove its -wal and -shm files), start the server.'
      : 'Restore: pg_restore --no-owner --dbname=<empty database URL> <file>, then point DATABASE_URL at that database.',
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof BackupError || error instanceof ConfigError;
    console.error(`Backup failed: ${known ? error.message : error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

/** Opens the database named by DATABASE_URL: SQLite (default) or PostgreSQL, one Kysely API for both. */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** The SQLite connection, for online backups; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  close(): Promise<void>;
}

export class DatabaseOpenError extends Error {}

// COUNT(*) and other int8 results fit in a JS number for any size this product reaches.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function sqlitePath(url: string): string {
  return url.slice('sqlite:'.length);
}

export function openDatabase(url: string, poolSize = 10): Db {
  if (url.startsWith('sqlite:')) return openSqlite(sqlitePath(url));
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits 'error'; the pool replaces it, and the
  // next query reports the outage as a 503.
  pool.on('error', () => undefined);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', sqlite: null, close: () => kysely.destroy() };
}

function openSqlite(file: string): Db {
  let connection: SQLite.Database;
  try {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    connection = new SQLite(file);
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = NORMAL');
    connection.pragma('foreign_keys = ON');
    connection.pragma('busy_timeout = 5000');
    connection.pragma('cache_size = -65536');
    connection.pragma('temp_store = MEMORY');
  } catch (error) {
    throw new DatabaseOpenError(`Cannot open the SQLite database at ${file}: ${(error as Error).message}`);
  }
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  return { kysely, dialect: 'sqlite', sqlite: connection, close: () => kysely.destroy() };
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}

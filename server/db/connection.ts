/** Opens the database named by DATABASE_URL: SQLite (default) or PostgreSQL, one Kysely API for both. */
import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openPostgres, type QueryTimeout } from './postgres.js';
import type { Executor } from './schema.js';
import { openSqlite, sqlitePath } from './sqlite.js';

export { sqlitePath } from './sqlite.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Executor;
  dialect: Dialect;
  /** The SQLite connection, for online backups; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  /** From now on, a query without an answer after `ms` fails (PostgreSQL; SQLite answers or fails at once). */
  limitQueryTime(ms: number): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connections in the pool. */
  poolSize?: number;
  /** SQLite: checkpoint the WAL from a worker thread (the server); off for one-off scripts. */
  backgroundCheckpoints?: boolean;
}

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  if (url.startsWith('sqlite:')) {
    const opened = openSqlite(sqlitePath(url), options.backgroundCheckpoints ?? true);
    return {
      kysely: opened.kysely,
      dialect: 'sqlite',
      sqlite: opened.connection,
      limitQueryTime: () => undefined,
      close: opened.close,
    };
  }
  const timeout: QueryTimeout = { ms: null };
  const kysely = openPostgres(url, options.poolSize ?? 10, timeout);
  return {
    kysely,
    dialect: 'postgres',
    sqlite: null,
    limitQueryTime: (ms) => {
      timeout.ms = ms;
    },
    close: () => kysely.destroy(),
  };
}

/** One round trip: is the database there? */
export async function ping(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}

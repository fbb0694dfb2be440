/** Opens the database named by DATABASE_URL: SQLite (default) or PostgreSQL, one Kysely API for both. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
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

/** Runs a compiled query at once, or says (null) that it must go through Kysely. */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => unknown[] | null;

/**
 * SQLite runs every statement synchronously on one connection, so outside a transaction a
 * query needs none of Kysely's connection handling (a lock and several promise hops per
 * query, more than a small query itself). prepared.ts runs its queries here when it can.
 */
export const directRunners = new WeakMap<object, DirectRunner>();

// COUNT(*) and other int8 results fit in a JS number for any size this product reaches.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function sqlitePath(url: string): string {
  return url.slice('sqlite:'.length);
}

export interface OpenOptions {
  /** PostgreSQL connections in the pool. */
  poolSize?: number;
  /** SQLite: checkpoint the WAL from a worker thread (the server); off for one-off scripts. */
  backgroundCheckpoints?: boolean;
}

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  const poolSize = options.poolSize ?? 10;
  if (url.startsWith('sqlite:')) return openSqlite(sqlitePath(url), options.backgroundCheckpoints ?? true);
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits 'error'; the pool replaces it, and the
  // next query reports the outage as a 503.
  pool.on('error', () => undefined);
  // A client in use that loses its server also emits 'error'; the query in flight
  // rejects on its own, so the event itself needs no more than a listener.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namedStatements(pool) }) });
  return { kysely, dialect: 'postgres', sqlite: null, close: () => kysely.destroy() };
}

const MAX_NAMED_STATEMENTS = 500;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * node-postgres sends every query unnamed, so PostgreSQL parses and plans it again each
 * time, on the same cores as the app. The app sends a small set of distinct SQL texts;
 * each gets a name, and each connection prepares it once. A statement prepared before the
 * schema changed under it (another instance migrating) is retried unnamed.
 */
function namedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (!name && names.size < MAX_NAMED_STATEMENTS && NAMEABLE.test(text)) {
      name = `rt_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    async connect() {
      const client = await pool.connect();
      const query = async (text: string, parameters: readonly unknown[]) => {
        const name = nameOf(text);
        if (!name) return client.query(text, [...parameters]);
        try {
          return await client.query({ name, text, values: [...parameters] });
        } catch (error) {
          if ((error as { code?: string }).code !== '0A000') throw error;
          return client.query(text, [...parameters]);
        }
      };
      return {
        query: ((textOrCursor: unknown, parameters?: readonly unknown[]) =>
          typeof textOrCursor === 'string'
            ? query(textOrCursor, parameters ?? [])
            : client.query(textOrCursor as pg.Submittable)) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

function openSqlite(file: string, withCheckpointWorker: boolean): Db {
  let connection: SQLite.Database | undefined;
  try {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    connection = new SQLite(file);
    // First, so that every step below waits for another process's lock instead of failing at once.
    connection.pragma('busy_timeout = 5000');
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = NORMAL');
    connection.pragma('foreign_keys = ON');
    connection.pragma('cache_size = -65536');
    connection.pragma('temp_store = MEMORY');
    // Write once now (and roll back): a read-only or locked file is reported at start-up,
    // not by the first request that writes.
    const version = Number(connection.pragma('user_version', { simple: true }));
    connection.exec('BEGIN IMMEDIATE');
    try {
      connection.pragma(`user_version = ${version}`);
    } finally {
      connection.exec('ROLLBACK');
    }
  } catch (error) {
    connection?.close();
    throw new DatabaseOpenError(sqliteOpenMessage(file, error));
  }
  // The user search's exact test (users.repository.ts): does a text contain a lower-case
  // query, case-insensitively, by JavaScript's Unicode case mapping.
  connection.function('contains_text', { deterministic: true }, (text: unknown, lowerQuery: unknown) =>
    typeof text === 'string' && typeof lowerQuery === 'string' && text.toLowerCase().includes(lowerQuery) ? 1 : 0,
  );
  // How many users' text holds a trigram, for the same search (a view of the FTS5 index of
  // migrations.ts, which may not exist yet: it is read only once it does). Per connection.
  connection.exec(
    'create virtual table if not exists temp.users_search_terms using fts5vocab(main, users_search, row)',
  );
  const checkpoints = file === ':memory:' || !withCheckpointWorker ? null : backgroundCheckpoints(connection, file);
  const statements = withStatementCache(connection);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  const open = connection;
  directRunners.set(kysely, (sqlText, parameters) => {
    // Inside another request's transaction, the query waits its turn through Kysely.
    if (open.inTransaction) return null;
    const statement = statements.prepare(sqlText);
    if (statement.reader) return statement.all(parameters) as unknown[];
    statement.run(parameters);
    return [];
  });
  return {
    kysely,
    dialect: 'sqlite',
    sqlite: connection,
    close: async () => {
      await checkpoints?.stop();
      await kysely.destroy();
    },
  };
}

const CHECKPOINT_EVERY_MS = 1000;

/**
 * Moving the WAL's pages into the database file (a checkpoint, with an fsync) takes
 * milliseconds; done by the connection that commits, it would stall every request behind
 * it several times a second under writes. A worker thread with its own connection does it
 * every second instead (PASSIVE: it never waits for or blocks readers and writers); the
 * server's connection checkpoints only as a fallback, past 10,000 pages (40 MB) of WAL.
 */
function backgroundCheckpoints(connection: SQLite.Database, file: string): { stop(): Promise<void> } {
  connection.pragma('wal_autocheckpoint = 10000');
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.module);
     const db = new Database(workerData.file, { fileMustExist: true });
     db.pragma('busy_timeout = 1000');
     const timer = setInterval(() => {
       try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* next time */ }
     }, workerData.everyMs);
     parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });`,
    {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file,
        everyMs: CHECKPOINT_EVERY_MS,
      },
    },
  );
  worker.unref();
  // Without the worker, the fallback threshold still bounds the WAL.
  worker.on('error', () => {
    try {
      connection.pragma('wal_autocheckpoint = 1000');
    } catch {
      // Already closed.
    }
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew, and SQLite's parsing and planning cost more than most
 * queries here. The app sends a small set of distinct SQL texts, so their prepared
 * statements are kept (least recently used dropped past 500) and reused. Statements run
 * synchronously; one still busy (an open iterator) is never handed out twice.
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, { statement: SQLite.Statement; facade: SqliteStatement }>();
  return {
    close: () => connection.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.statement.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached.facade;
      }
      const statement = connection.prepare(boundLimitsAsExpressions(sql));
      const facade = rowsAsObjects(statement);
      if (!cached) {
        cache.set(sql, { statement, facade });
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      return facade;
    },
  };
}

/**
 * SQLite's planner reads the value bound to a bare `LIMIT ?` / `OFFSET ?`, so binding one
 * marks the statement expired and every execution silently prepares it again: 20 us and
 * more for a join, several times the query itself. `+?` is the same number to SQLite but
 * an expression the planner does not look into, so the statement is prepared once.
 * Kysely writes every limit and offset as a bare parameter, outside any string literal.
 */
export function boundLimitsAsExpressions(sql: string): string {
  return sql.replace(/\b(limit|offset) \?/g, '$1 +?');
}

/**
 * better-sqlite3 builds each row object through V8's C++ API, one property at a time,
 * which costs more than the query for a page of rows. Rows are fetched as arrays instead
 * and turned into objects by a function compiled once per statement from its column names
 * (an object literal: every row gets the same shape, fast). Same keys, same values.
 */
function rowsAsObjects(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return statement;
  const toObject = new Function(
    'row',
    `return { ${names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`).join(', ')} };`,
  ) as (row: unknown[]) => unknown;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}

/** One sentence an operator can act on, for each way opening a SQLite file fails. */
export function sqliteOpenMessage(file: string, error: unknown): string {
  const code = String((error as { code?: unknown })?.code ?? '');
  const reason = (error as Error)?.message ?? String(error);
  const is = (primary: string) => code === primary || code.startsWith(`${primary}_`);
  if (is('SQLITE_BUSY') || is('SQLITE_LOCKED')) {
    return `The SQLite database ${file} is locked by another process (another server on the same file?); stop it or set DATABASE_URL to another file.`;
  }
  if (is('SQLITE_READONLY') || is('SQLITE_PERM') || is('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'EROFS') {
    return `The SQLite database ${file} cannot be opened for writing (${reason}); the server needs write access to the file and to its folder.`;
  }
  if (is('SQLITE_NOTADB') || is('SQLITE_CORRUPT')) {
    return `The file ${file} is not a usable SQLite database (${reason}); restore it from a backup (see README.md, Backups).`;
  }
  return `Cannot open the SQLite database ${file}: ${reason}`;
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}

/** SQLite faults of the file or the disk, not of the request: locked, unreadable, read-only, full. */
const SQLITE_UNAVAILABLE = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_FULL',
];

/** Errors that mean the database cannot be reached (or written) right now. */
export function isDatabaseDown(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') {
    const message = (error as Error)?.message ?? '';
    return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    );
  }
  if (code.startsWith('SQLITE_')) {
    // Extended codes (SQLITE_IOERR_FSYNC, SQLITE_BUSY_TIMEOUT, ...) share their primary code's prefix.
    return SQLITE_UNAVAILABLE.some((primary) => code === primary || code.startsWith(`${primary}_`));
  }
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code) ||
    code.startsWith('08') || // connection exception
    code.startsWith('57P') || // admin shutdown, crash shutdown, cannot connect now
    code === '53300' // too many connections
  );
}

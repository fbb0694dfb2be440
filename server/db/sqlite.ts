/**
 * SQLite through better-sqlite3, with a fast path: the app sends a small set of distinct SQL
 * texts, so statements are cached, rows come back as arrays turned into objects by a compiled
 * function, compiled queries (compiled.ts) run on the connection directly outside
 * transactions, and a worker thread checkpoints the WAL. Each piece says why below.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { DatabaseOpenError, sqliteOpenMessage } from './errors.js';
import type { Database } from './schema.js';

/** Runs a compiled query at once, or says (null) that it must go through Kysely. */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => unknown[] | null;

/**
 * SQLite runs every statement synchronously on one connection, so outside a transaction a
 * query needs none of Kysely's connection handling (a lock and several promise hops per
 * query, more than a small query itself). compiled.ts runs its queries here when it can.
 */
export const directRunners = new WeakMap<object, DirectRunner>();

/**
 * Reads beside a long write: see readAside. Per database, the second connection of readAside
 * (opened on demand, closed when the last long write ends).
 */
const asideOpeners = new WeakMap<object, () => () => void>();

/**
 * A long write transaction (an import storing many runs) has the one connection to itself,
 * and every query of other requests would wait for its commit. Until the function answered
 * is called, compiled reads of other requests that find the connection in a transaction run
 * instead on a second, read-only connection to the same file, which sees (WAL) the last
 * committed state: what they would see on PostgreSQL. Writes still wait their turn. No-op for
 * an in-memory database or PostgreSQL.
 */
export function readAside(kysely: object): () => void {
  return asideOpeners.get(kysely)?.() ?? (() => undefined);
}

export function sqlitePath(url: string): string {
  return url.slice('sqlite:'.length);
}

export function openSqlite(
  file: string,
  withCheckpointWorker: boolean,
): { kysely: Kysely<Database>; connection: SQLite.Database; close(): Promise<void> } {
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
  const checkpoints = file === ':memory:' || !withCheckpointWorker ? null : backgroundCheckpoints(connection, file);
  const statements = withStatementCache(connection);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  const open = connection;
  let aside: { connection: SQLite.Database; statements: SqliteDatabase; users: number } | null = null;
  if (file !== ':memory:') {
    asideOpeners.set(kysely, () => {
      if (!aside) {
        const reader = new SQLite(file, { fileMustExist: true });
        reader.pragma('busy_timeout = 5000');
        reader.pragma('cache_size = -16384');
        reader.pragma('query_only = ON');
        aside = { connection: reader, statements: withStatementCache(reader), users: 0 };
      }
      const opened = aside;
      opened.users += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        opened.users -= 1;
        if (opened.users === 0 && aside === opened) {
          aside = null;
          opened.connection.close();
        }
      };
    });
  }
  directRunners.set(kysely, (sqlText, parameters) => {
    if (open.inTransaction) {
      // Inside another request's transaction, the query waits its turn through Kysely, unless
      // a long write lets reads run beside it (readAside).
      if (!aside) return null;
      const statement = aside.statements.prepare(sqlText);
      return statement.reader ? (statement.all(parameters) as unknown[]) : null;
    }
    const statement = statements.prepare(sqlText);
    if (statement.reader) return statement.all(parameters) as unknown[];
    statement.run(parameters);
    return [];
  });
  return {
    kysely,
    connection,
    close: async () => {
      const reader = aside as { connection: SQLite.Database } | null;
      aside = null;
      reader?.connection.close();
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

/** PostgreSQL through node-postgres: a pool whose connections prepare each SQL text once under a name. */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// COUNT(*) and other int8 results fit in a JS number for any size this product reaches.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** How long a query may wait for its answer once the app serves (null: no limit, as for migrations). */
export interface QueryTimeout {
  ms: number | null;
}

export function openPostgres(url: string, poolSize: number, timeout: QueryTimeout): Kysely<Database> {
  // A connection that cannot be had within 5 s is an outage (503), not a wait.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits 'error'; the pool replaces it, and the
  // next query reports the outage as a 503.
  pool.on('error', () => undefined);
  // A client in use that loses its server also emits 'error'; the query in flight
  // rejects on its own, so the event itself needs no more than a listener.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: namedStatements(pool, timeout) }) });
}

const MAX_NAMED_STATEMENTS = 500;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * node-postgres sends every query unnamed, so PostgreSQL parses and plans it again each
 * time, on the same cores as the app. The app sends a small set of distinct SQL texts;
 * each gets a name, and each connection prepares it once. A statement prepared before the
 * schema changed under it (another instance migrating) is retried unnamed.
 */
/**
 * With a timeout set, a query that gets no answer in time (a frozen or unreachable server)
 * fails with "Query read timeout", which the app answers with 503; its connection is then
 * dropped instead of returned to the pool, so that nothing waits behind the stuck query and
 * new connections take over once the server answers again.
 */
function namedStatements(pool: pg.Pool, timeout: QueryTimeout): PostgresPool {
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
      let stuck: Error | undefined;
      const run = async (config: pg.QueryConfig) => {
        try {
          return await client.query({ ...config, ...(timeout.ms ? { query_timeout: timeout.ms } : {}) });
        } catch (error) {
          if ((error as Error).message === 'Query read timeout') stuck = error as Error;
          throw error;
        }
      };
      const query = async (text: string, parameters: readonly unknown[]) => {
        const name = nameOf(text);
        if (!name) return run({ text, values: [...parameters] });
        try {
          return await run({ name, text, values: [...parameters] });
        } catch (error) {
          if ((error as { code?: string }).code !== '0A000') throw error;
          return run({ text, values: [...parameters] });
        }
      };
      return {
        query: ((textOrCursor: unknown, parameters?: readonly unknown[]) =>
          typeof textOrCursor === 'string'
            ? query(textOrCursor, parameters ?? [])
            : client.query(textOrCursor as pg.Submittable)) as unknown as PostgresPoolClient['query'],
        release: () => client.release(stuck),
      };
    },
    end: () => pool.end(),
  };
}

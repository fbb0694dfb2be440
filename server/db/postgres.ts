/** PostgreSQL through node-postgres: a pool whose connections prepare each SQL text once under a name. */
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// COUNT(*) and other int8 results fit in a JS number for any size this product reaches.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function openPostgres(url: string, poolSize: number): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits 'error'; the pool replaces it, and the
  // next query reports the outage as a 503.
  pool.on('error', () => undefined);
  // A client in use that loses its server also emits 'error'; the query in flight
  // rejects on its own, so the event itself needs no more than a listener.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: namedStatements(pool) }) });
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

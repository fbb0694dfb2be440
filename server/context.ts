/** What every service needs: the database and the configuration (with its clock). */
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Database } from './db/schema.js';

export interface AppContext {
  db: Kysely<Database>;
  database: Db;
  config: Config;
}

export const nowIso = (ctx: AppContext) => ctx.config.now().toISOString();

/** Runs work in one transaction, so counters never drift from their tables. */
export function inTransaction<T>(ctx: AppContext, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(work);
}

/** What every service needs: the database and the configuration (with its clock). */
import type { User } from '../core/schemas.js';
import type { Config } from './config.js';
import type { Executor } from './db/schema.js';

export interface AppContext {
  db: Executor;
  config: Config;
}

/** The signed-in user as routes see it: the API user and the count of their runs. */
export interface SessionUser extends User {
  entryCount: number;
}

/** Who sent a request: the token it came with and its owner. */
export interface Session {
  tokenId: number;
  user: SessionUser;
}

/** The rows of a page a service is asked for (http/pagination.ts turns a request into one). */
export interface PageWindow {
  limit: number;
  offset: number;
}

export const nowIso = (ctx: AppContext) => ctx.config.now().toISOString();

/** Runs work in one transaction: a write and the tallies it moves commit together or not at all. */
export function inTransaction<T>(ctx: AppContext, work: (db: Executor) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(work);
}

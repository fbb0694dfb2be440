/** What every service needs: the database and the configuration (with its clock). */
import type { Configuration as OidcConfiguration } from 'openid-client';
import type { User } from '../core/schemas.js';
import { dateInZone } from '../core/time.js';
import type { Config } from './config.js';
import type { BatchedLookup } from './db/batched.js';
import { isTransactionConflict } from './db/errors.js';
import type { Executor } from './db/schema.js';

export interface AppContext {
  db: Executor;
  config: Config;
  /** What the app keeps in memory between requests: built with the app, never module state. */
  memory: AppMemory;
}

export interface AppMemory {
  /**
   * PostgreSQL: the token lookups of simultaneous requests in one statement (decision 019),
   * made by the tokens repository; null where each lookup goes alone (SQLite).
   */
  tokenOwners: BatchedLookup<string, unknown> | null;
  /** The exports under way, by runner: at most 2 each (imports/exports.service.ts exportSlot). */
  exportsUnderWay: Map<number, number>;
  /** Routes and segments (features/routes), set by buildApp; null in scripts and where none follow. */
  runs: RunsFollower | null;
  /** The outbox's sender (features/mail), told to send once an answer that queued a mail is out; null without mail. */
  mailer: { kick(): void } | null;
  /** Told when a user's inbox key is made, replaced or removed: the watcher looks at the folders again. */
  inboxKeysMoved?: () => void;
  /** Single sign-on (features/oidc): the provider's discovered configuration, kept once it succeeded. */
  oidcDiscovery?: Promise<OidcConfiguration>;
}

/**
 * What follows a runner's runs (routes and segments, CONTRACT.md §22): told when their runs change
 * (stored, edited, deleted), asked for a run's track page members. Features below it reach it here.
 */
export interface RunsFollower {
  /** Sets the runner's `matching` flags, then matches off the request path. */
  runsChanged(userId: number): Promise<void>;
  /** `"route":...,"segments":[...]` of a run's track page, as JSON text. */
  trackMembers(db: Executor, entryId: number): Promise<string>;
}

/** A context with memory of its own (a script's, a test's); buildApp adds the token batcher on PostgreSQL. */
export function contextOf(db: Executor, config: Config): AppContext {
  return { db, config, memory: { tokenOwners: null, exportsUnderWay: new Map(), runs: null, mailer: null } };
}

/** The signed-in user as routes see it: the API user and the count of their runs. */
export interface SessionUser extends User {
  entryCount: number;
}

/**
 * What the request's token may do: `full` for a sign-in token; `read` or `write` for a personal
 * API token (CONTRACT.md §11), which never manages tokens, e-mail, password or the account.
 */
export type SessionScope = 'full' | 'read' | 'write';

/** Who sent a request: the token it came with, what it may do, and its owner. */
export interface Session {
  tokenId: number;
  scope: SessionScope;
  user: SessionUser;
  /**
   * The user's answer revision, read with the token: before anything else the request reads, so
   * the answer cache (http/answer-cache.ts) keys a kept answer with it (decision 034).
   */
  revision: number;
}

/** The rows of a page a service is asked for (http/pagination.ts turns a request into one). */
export interface PageWindow {
  limit: number;
  offset: number;
}

export const nowIso = (ctx: AppContext) => ctx.config.now().toISOString();

/** Today (YYYY-MM-DD) in a user's time zone, by the app's clock. */
export const todayOf = (ctx: AppContext, user: { timezone: string }) => dateInZone(ctx.config.now(), user.timezone);

/** How many times a transaction is run when the database ends it to break a deadlock. */
export const TRANSACTION_ATTEMPTS = 8;

/**
 * Runs work in one transaction: a write and the tallies it moves commit together or not at all.
 * When the database ends the transaction to break a deadlock (db/errors.ts isTransactionConflict),
 * nothing of it was written and it runs again, after a random pause that doubles with each attempt
 * (at most 50 ms, 100 ms, ...: the transactions it met are done by then), up to
 * TRANSACTION_ATTEMPTS times in all: `work` must start from scratch each time (keep no state of an
 * earlier attempt, read again what it needs).
 */
export async function inTransaction<T>(ctx: AppContext, work: (db: Executor) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction().execute(work);
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * 2 ** attempt));
    }
  }
}

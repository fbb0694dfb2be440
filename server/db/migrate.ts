/**
 * Applies the schema's steps (server/db/migrations/NNN-name.ts) in order at start-up, each once,
 * recorded by name in `kysely_migration`. A released step is frozen: its file is exactly what
 * ran on every database that has it (checksums.json, checked by migrate.test.ts); a change of
 * the schema is a new step. A step is a list of literal statements per dialect, or, where it
 * must read data, an `up` function; it imports nothing of the project.
 */
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Db, Dialect } from './connection.js';
import { DatabaseOpenError, isDatabaseDown } from './errors.js';
import * as step001 from './migrations/001-initial.js';
import * as step002 from './migrations/002-runs-carry-more.js';
import * as step003 from './migrations/003-insights.js';
import * as step004 from './migrations/004-goals.js';
import * as step006 from './migrations/006-preferences-and-tokens.js';
import * as step007 from './migrations/007-month-totals.js';
import * as step008 from './migrations/008-insight-revisions.js';
import * as step009 from './migrations/009-user-search-text.js';
import * as step010 from './migrations/010-run-blocks.js';
import * as step011 from './migrations/011-ordered-tally-writes.js';
import * as step012 from './migrations/012-users-list-keys.js';
import * as step013 from './migrations/013-tally-covering-indexes.js';
import * as step014 from './migrations/014-runs-revision.js';
import * as step015 from './migrations/015-runs-revision-postgres.js';
import * as step016 from './migrations/016-users-created-hour-postgres.js';
import * as step017 from './migrations/017-tallies-in-the-service.js';
import * as step018 from './migrations/018-tracks.js';
import * as step019 from './migrations/019-formats-and-shoe-start.js';
import * as step020 from './migrations/020-best-efforts.js';
import * as step021 from './migrations/021-sign-up-days.js';
import * as step022 from './migrations/022-staged-imports.js';
import * as step023 from './migrations/023-languages.js';
import * as step024 from './migrations/024-calendar-feeds.js';
import * as step025 from './migrations/025-routes-and-segments.js';
import * as step026 from './migrations/026-inbox.js';
import * as step027 from './migrations/027-webhooks.js';
import * as step028 from './migrations/028-entry-idempotency-keys.js';
import * as step029 from './migrations/029-mail-and-sign-up.js';
import * as step030 from './migrations/030-two-factor.js';
import * as step031 from './migrations/031-single-sign-on.js';
import * as step032 from './migrations/032-route-grouping-fingerprint.js';

/** A statement, or statements that may fail together without failing the step (an optional extension). */
export type Statement = string | { ifPossible: string[] };

export interface Step {
  statements?: Record<Dialect, Statement[]>;
  up?: (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;
}

/** Every step, in the order they apply (their names sort in that order too). */
export const STEPS: Record<string, Step> = {
  '001-initial': step001,
  '002-runs-carry-more': step002,
  '003-insights': step003,
  '004-goals': step004,
  '006-preferences-and-tokens': step006,
  '007-month-totals': step007,
  '008-insight-revisions': step008,
  '009-user-search-text': step009,
  '010-run-blocks': step010,
  '011-ordered-tally-writes': step011,
  '012-users-list-keys': step012,
  '013-tally-covering-indexes': step013,
  '014-runs-revision': step014,
  '015-runs-revision-postgres': step015,
  '016-users-created-hour-postgres': step016,
  '017-tallies-in-the-service': step017,
  '018-tracks': step018,
  '019-formats-and-shoe-start': step019,
  '020-best-efforts': step020,
  '021-sign-up-days': step021,
  '022-staged-imports': step022,
  '023-languages': step023,
  '024-calendar-feeds': step024,
  '025-routes-and-segments': step025,
  '026-inbox': step026,
  '027-webhooks': step027,
  '028-entry-idempotency-keys': step028,
  '029-mail-and-sign-up': step029,
  '030-two-factor': step030,
  '031-single-sign-on': step031,
  '032-route-grouping-fingerprint': step032,
};

async function apply(db: Kysely<unknown>, dialect: Dialect, step: Step): Promise<void> {
  for (const statement of step.statements?.[dialect] ?? []) {
    if (typeof statement === 'string') {
      await sql.raw(statement).execute(db);
      continue;
    }
    await sql`savepoint optional_step`.execute(db);
    try {
      for (const optional of statement.ifPossible) await sql.raw(optional).execute(db);
      await sql`release savepoint optional_step`.execute(db);
    } catch {
      await sql`rollback to savepoint optional_step`.execute(db);
    }
  }
  await step.up?.(db, dialect);
}

export async function migrate(db: Db): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [name, step] of Object.entries(STEPS)) {
    migrations[name] = { up: (kysely) => apply(kysely, db.dialect, step) };
  }
  const provider = { getMigrations: () => Promise.resolve(migrations) };
  const { error, results } = await new Migrator({ db: db.kysely, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (!error && !failed) return;
  const reason = error instanceof Error ? error.message : String(error);
  if (isDatabaseDown(error)) {
    throw new DatabaseOpenError(
      `Cannot reach the database (${reason}); check DATABASE_URL and that the server is running.`,
    );
  }
  const step = failed ? ` ${failed.migrationName}` : '';
  throw new DatabaseOpenError(`The database migration${step} failed: ${reason}`);
}

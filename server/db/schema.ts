/** Table types of the database, as Kysely sees them. Row types never leave repositories. */
import { SqliteAdapter, type Generated, type Kysely } from 'kysely';
import type { Role } from '../../core/schemas.js';
import type { DateFormat, PaceFormat, Theme, Units } from '../../core/preferences.js';
import type { TokenScope } from '../../core/tokens.js';

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  role: Role;
  timezone: string;
  units: Generated<Units>;
  theme: Generated<Theme>;
  pace_format: Generated<PaceFormat>;
  date_format: Generated<DateFormat>;
  is_demo: number;
  entry_count: Generated<number>;
  created_at: string;
  updated_at: string;
  /** userSearchText(name, email) of core/search.ts: written with every name or e-mail. */
  search_text: string;
}

export interface EntriesTable {
  id: Generated<number>;
  user_id: number;
  date: string;
  /** Metres, so that three decimals of a km stay exact. */
  distance_m: number;
  seconds: number;
  /** km/h, kept for ordering by speed; always distance_m / seconds * 3.6. */
  speed: number;
  title: string | null;
  notes: string | null;
  kind: string | null;
  effort: number | null;
  shoe_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ShoesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  brand: string | null;
  limit_km: Generated<number>;
  /** km the shoe had run before it was tracked here (CONTRACT.md §18). */
  start_km: Generated<number>;
  retired: Generated<number>;
  is_default: Generated<number>;
  /** Kept by triggers (migrations.ts): the runs that name the shoe. */
  distance_m: Generated<number>;
  runs: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface GoalsTable {
  id: Generated<number>;
  user_id: number;
  period: 'week' | 'month' | 'year';
  metric: 'distance' | 'time' | 'runs';
  /** km, seconds or a number of runs. */
  target: number;
  created_at: string;
  updated_at: string;
}

/** A runner's runs per day, kept by triggers (migrations.ts). */
export interface RunnerDaysTable {
  user_id: number;
  date: string;
  runs: number;
  distance_m: number;
  seconds: number;
  /** Sum of effort x seconds of the runs with an effort. */
  effort_seconds: number;
  /** Seconds and number of the runs without an effort. */
  unrated_seconds: number;
  unrated_runs: number;
}

/** Each run that counts for a standard distance (CONTRACT.md §10), kept by triggers (db/efforts.ts). */
export interface RunnerEffortsTable {
  entry_id: number;
  user_id: number;
  /** The standard distance's key (`5k`, `half`...). */
  key: string;
  date: string;
  distance_m: number;
  seconds: number;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  /** `sign-in` (login, registration: idle expiry) or `personal` (an API token of CONTRACT.md §11). */
  kind: Generated<TokenKind>;
  /** Personal tokens only. */
  name: string | null;
  scope: TokenScope | null;
  created_at: string;
  /** Null until a personal token's first use; a sign-in token's idle expiry counts from it. */
  last_used_at: string | null;
  /** Personal tokens only; null = never. */
  expires_at: string | null;
}

export type TokenKind = 'sign-in' | 'personal';

export interface ThrottlesTable {
  key: string;
  hits: number;
  window_start: number;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface JobsTable {
  name: string;
  last_run: string;
}

/** Runs per day, kept by triggers (see migrations.ts). */
export interface EntryDaysTable {
  date: string;
  n: number;
}

/** Runs per user and month (`YYYY-MM`), kept by triggers. */
export interface EntryMonthsTable {
  user_id: number;
  month: string;
  n: number;
  /** Sums of the month's runs (migration 007), kept by the same triggers. */
  distance_m: Generated<number>;
  seconds: Generated<number>;
}

/** Everyone's runs per day and whole kilometre of distance (migration 010), kept by triggers. */
export interface EntryBlocksTable {
  date: string;
  block: number;
  n: number;
}

/** Everyone's runs per month (`YYYY-MM`, migration 010), kept by triggers. */
export interface EntryAllMonthsTable {
  month: string;
  n: number;
}

/** Sign-ups per UTC day of created_at, kept by triggers. */
export interface UserDaysTable {
  day: string;
  n: number;
}

export interface UserMonthsTable {
  month: string;
  n: number;
}

export interface UserHoursTable {
  hour: string;
  n: number;
}

export interface UserRevisionsTable {
  id: number;
  revision: number;
}

/** The runs' revision (migration steps 014 on SQLite, 015 on PostgreSQL). */
export interface RunRevisionsTable {
  id: number;
  revision: number;
}

export interface Database {
  users: UsersTable;
  entries: EntriesTable;
  tokens: TokensTable;
  throttles: ThrottlesTable;
  counters: CountersTable;
  jobs: JobsTable;
  entry_days: EntryDaysTable;
  entry_months: EntryMonthsTable;
  entry_blocks: EntryBlocksTable;
  entry_all_months: EntryAllMonthsTable;
  user_days: UserDaysTable;
  user_months: UserMonthsTable;
  user_hours: UserHoursTable;
  user_revisions: UserRevisionsTable;
  run_revisions: RunRevisionsTable;
  shoes: ShoesTable;
  runner_days: RunnerDaysTable;
  runner_efforts: RunnerEffortsTable;
  goals: GoalsTable;
}

/** What a query runs on: the database, or a transaction of it. */
export type Executor = Kysely<Database>;

export const isSqlite = (db: Executor): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

/** Table types of the database, as Kysely sees them. Row types never leave repositories. */
import { SqliteAdapter, type Generated, type Kysely } from 'kysely';
import type { Role, UserStatus } from '../../core/schemas.js';
import type { DateFormat, Locale, PaceFormat, Theme, Units } from '../../core/preferences.js';
import type { TokenScope } from '../../core/tokens.js';

export type { UserStatus };

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
  locale: Generated<Locale>;
  is_demo: number;
  /** 1 when two-factor sign-in is on (migration 030; the two-factor feature writes it with its secret). */
  two_factor: Generated<number>;
  /** The user's runs (db/tallies.ts). */
  entry_count: Generated<number>;
  /** The heart-rate profile of CONTRACT.md §14 (null: not set). */
  max_heart_rate: number | null;
  resting_heart_rate: number | null;
  created_at: string;
  updated_at: string;
  /** userSearchText(name, email) of core/search.ts: written with every name or e-mail. */
  search_text: string;
  /** CONTRACT.md §21 (migration 029): active, unverified or pending. */
  status: Generated<UserStatus>;
  /** A new e-mail waiting for its confirmation link (migration 029). */
  pending_email: string | null;
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
  /** The track's summary (CONTRACT.md §13), written with the track; 0 and nulls without one. */
  has_track: Generated<number>;
  elevation_gain: number | null;
  elevation_loss: number | null;
  avg_heart_rate: number | null;
  max_heart_rate: number | null;
  avg_cadence: number | null;
  /** The import that stored the run, until the mark is cleared; hidden while that import is staged (decision 037). */
  staged: number | null;
}

/** Imports whose runs are stored but not shown yet (migration 022, decision 037). */
export interface StagedImportsTable {
  id: Generated<number>;
  user_id: number;
  started_at: string;
}

/** A run's track (migration 018): stored once, read whole. */
export interface TracksTable {
  entry_id: number;
  user_id: number;
  samples: number;
  /** The first sample's instant (ISO). */
  started_at: string;
  max_heart_rate: number | null;
  /** The route for the map of every run (encoded polyline, at most 200 points) and its bounds. */
  map_route: string | null;
  south: number | null;
  west: number | null;
  north: number | null;
  east: number | null;
  /** JSON of core/tracks HeartRateSummary, or null without heart rate. */
  hr_summary: string | null;
  /** The run page's answer without heart_rate: deflated JSON. */
  analysis: Uint8Array;
  /** The samples, laps and pauses: server/features/tracks/codec.ts. */
  data: Uint8Array;
  /** JSON `[{key, ms, start}]` of its best efforts; null when the track has no distances (migration 020). */
  efforts: string | null;
  /** 1 once matched against all its owner's segments (migration 025). */
  segments_matched: Generated<number>;
}

/** A run's original file, un-gzipped, when at most 32 MiB. */
export interface TrackFilesTable {
  entry_id: number;
  name: string;
  content: Uint8Array;
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

/** A runner's runs per day (db/tallies.ts). */
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

/** Each run that counts for a standard distance (CONTRACT.md §10), kept by db/tallies.ts. */
export interface RunnerEffortsTable {
  entry_id: number;
  user_id: number;
  /** The standard distance's key (`5k`, `half`...). */
  key: string;
  date: string;
  distance_m: number;
  /** `run`: the run's own seconds (its time at D is scaled from them); `best_effort`: the effort's elapsed seconds. */
  seconds: number;
  source: Generated<'run' | 'best_effort'>;
  /** A best effort's start, metres from the track's first sample. */
  start_m: number | null;
  /** As entries.staged: the row is hidden while its import is staged. */
  staged: number | null;
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

export interface JobsTable {
  name: string;
  last_run: string;
}

/** Everyone's runs per day (db/tallies.ts): the seek of a page of everyone's runs. */
export interface EntryDaysTable {
  date: string;
  n: number;
}

/** The accounts created on each UTC day (db/tallies.ts): the users list's pages (decision 029). */
export interface UserDaysTable {
  day: string;
  n: number;
}

/** Each runner's insights revision (db/tallies.ts): it moves with every write of one of their runs. */
export interface InsightRevisionsTable {
  user_id: number;
  revision: number;
}

/** Each user's calendar feed key (migration 024, decision 042): one a user at most. */
export interface CalendarFeedsTable {
  user_id: number;
  feed_key: string;
  created_at: string;
}

/** A runner's route (migration 025, decision 043): founded by its earliest run, named. */
export interface RoutesTable {
  id: Generated<number>;
  user_id: number;
  founder_id: number;
  name: string;
  created_at: string;
}

/** Each run's route (a run on no route has no row). */
export interface RouteRunsTable {
  entry_id: number;
  route_id: number;
  user_id: number;
}

/** Per runner: the routes they have ever had, and whether their routes are being regrouped. */
export interface RouteOwnersTable {
  user_id: number;
  routes_made: Generated<number>;
  matching: Generated<number>;
  /** The first runs in (date, id) order its routes were grouped from, and their SHA-256 (migration 032). */
  grouped_count: number | null;
  grouped_hash: string | null;
}

/** A stretch a runner marked on a run (§22): its path as JSON [[lat, lon], ...] and its bounds. */
export interface SegmentsTable {
  id: Generated<number>;
  user_id: number;
  entry_id: number;
  name: string;
  start_m: number;
  end_m: number;
  distance_m: number;
  path: string;
  south: number;
  west: number;
  north: number;
  east: number;
  /** 1 until every tracked run of the owner has been matched against the segment. */
  matching: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** One pass of a run over a segment, timed in whole seconds of timer time. */
export interface SegmentEffortsTable {
  id: Generated<number>;
  segment_id: number;
  entry_id: number;
  user_id: number;
  seconds: number;
  start_sample: number;
}

/**
 * The `Idempotency-Key`s of `POST /entry` (migration 028, decision 047): the answer each key got,
 * kept 7 days.
 */
export interface EntryIdempotencyKeysTable {
  user_id: number;
  idempotency_key: string;
  status: number;
  body: string;
  created_at: string;
}

/** The purpose of a mailed link's token (migration 029). */
export type AccountLinkPurpose = 'reset' | 'verify' | 'invite' | 'email';

/** Tokens of mailed links (migration 029): only their hash, once, until they expire. */
export interface AccountLinksTable {
  id: Generated<number>;
  token_hash: string;
  purpose: AccountLinkPurpose;
  user_id: number | null;
  /** The address the link was mailed to (an invitee's, a new e-mail). */
  email: string;
  /** An invitation's role. */
  role: Role | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Mails waiting to be sent (migration 029): deleted once the SMTP server accepted them. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  created_at: string;
}

/** Each user's TOTP secret (migration 030, decision 049); instants in milliseconds. */
export interface TwoFactorSecretsTable {
  user_id: number;
  secret: string;
  enabled: Generated<number>;
  /** The last TOTP time step accepted: a code of that step or an earlier one is refused. */
  last_step: Generated<number>;
  /** Wrong codes since failures_since (an hour's window), and the end of the block they caused. */
  failures: Generated<number>;
  failures_since: Generated<number>;
  blocked_until: Generated<number>;
  created_at: string;
}

export interface TwoFactorRecoveryCodesTable {
  user_id: number;
  code_hash: string;
  used_at: string | null;
}

export interface TwoFactorChallengesTable {
  challenge_hash: string;
  user_id: number;
  expires_at: number;
  failures: Generated<number>;
}

/** An OpenID provider's identity linked to an account (migration 031, decision 051). */
export interface OidcIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: number;
  created_at: string;
}

/** A sign-in sent to the provider and not yet back (migration 031): taken once, by its state's hash. */
export interface OidcSignInsTable {
  state_hash: string;
  /** SHA-256 of the random value of the browser's cookie: the callback must come from that browser. */
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  expires_at: number;
}

/** The one-use code of a callback (migration 031): `login` signs in `user_id`, `link` waits for its password. */
export interface OidcCodesTable {
  code_hash: string;
  purpose: 'login' | 'link';
  user_id: number;
  issuer: string;
  subject: string;
  expires_at: number;
}

/** A runner's webhooks (migration 027, decision 046): at most five a user. */
export interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  /** The events it wants, comma-separated (run.created,run.updated,run.deleted). */
  events: string;
  secret: string;
  created_at: string;
  /** The lease of the instance sending its deliveries, or null. */
  sending_until: string | null;
  last_at: string | null;
  last_status: number | null;
  last_error: string | null;
}

/** The outbox: a webhook's deliveries waiting to go (migration 027). */
export interface WebhookDeliveriesTable {
  seq: Generated<number>;
  delivery_id: string;
  webhook_id: number;
  event: string;
  body: string;
  attempts: Generated<number>;
  next_at: string;
  last_at: string | null;
  last_status: number | null;
  last_error: string | null;
}

/** Each user's inbox folder key (migration 026, decision 045): one a user at most. */
export interface InboxFoldersTable {
  user_id: number;
  folder_key: string;
  created_at: string;
}

/** The rows the files of a user's inbox gave (migration 026), the newest listed by `GET /inbox`. */
export interface InboxRowsTable {
  id: Generated<number>;
  user_id: number;
  file: string;
  source: string;
  status: string;
  reason: string | null;
  entry_id: number | null;
  at: string;
}

export interface Database {
  users: UsersTable;
  entries: EntriesTable;
  tokens: TokensTable;
  throttles: ThrottlesTable;
  jobs: JobsTable;
  entry_days: EntryDaysTable;
  user_days: UserDaysTable;
  insight_revisions: InsightRevisionsTable;
  shoes: ShoesTable;
  runner_days: RunnerDaysTable;
  runner_efforts: RunnerEffortsTable;
  staged_imports: StagedImportsTable;
  goals: GoalsTable;
  tracks: TracksTable;
  track_files: TrackFilesTable;
  calendar_feeds: CalendarFeedsTable;
  routes: RoutesTable;
  route_runs: RouteRunsTable;
  route_owners: RouteOwnersTable;
  segments: SegmentsTable;
  segment_efforts: SegmentEffortsTable;
  entry_idempotency_keys: EntryIdempotencyKeysTable;
  account_links: AccountLinksTable;
  mail_outbox: MailOutboxTable;
  two_factor_secrets: TwoFactorSecretsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  oidc_identities: OidcIdentitiesTable;
  oidc_sign_ins: OidcSignInsTable;
  oidc_codes: OidcCodesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  inbox_folders: InboxFoldersTable;
  inbox_rows: InboxRowsTable;
}

/** What a query runs on: the database, or a transaction of it. */
export type Executor = Kysely<Database>;

export const isSqlite = (db: Executor): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

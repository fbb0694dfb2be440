/**
 * Two-factor sign-in (CONTRACT.md §21, decision 049): the user's `two_factor` flag (on every
 * user answer, so it lives on the row the answers are read from); each user's TOTP secret, on
 * or still being confirmed, the last time step used (each code once) and the wrong codes of the
 * last hour (the account's block); the recovery codes, hashed; and the challenges a login of
 * such a user answers with, hashed. Every row goes with its user.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [
  `alter table users add column two_factor integer not null default 0`,
  `create table two_factor_secrets (user_id integer primary key references users (id) on delete cascade, secret varchar(64) not null, enabled integer not null default 0, last_step bigint not null default 0, failures integer not null default 0, failures_since bigint not null default 0, blocked_until bigint not null default 0, created_at varchar(32) not null)`,
  `create table two_factor_recovery_codes (user_id integer not null references users (id) on delete cascade, code_hash varchar(64) not null, used_at varchar(32), primary key (user_id, code_hash))`,
  `create table two_factor_challenges (challenge_hash varchar(64) primary key, user_id integer not null references users (id) on delete cascade, expires_at bigint not null, failures integer not null default 0)`,
  `create index two_factor_challenges_user_idx on two_factor_challenges (user_id)`,
  `create index two_factor_challenges_expiry_idx on two_factor_challenges (expires_at)`,
];

export const statements = { sqlite: both, postgres: both };

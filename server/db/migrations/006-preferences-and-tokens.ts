/**
 * Preferences and personal API tokens (CONTRACT.md §11): each user's units and theme; tokens
 * gain a kind (`sign-in`: §6's idle expiry; `personal`: a name, a scope, an optional expiry
 * and a last use that stays null until the first one).
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `alter table "users" add column "units" varchar(2) default 'km' not null`,
    `alter table "users" add column "theme" varchar(8) default 'auto' not null`,
    `create table tokens_v6 (
        id integer primary key autoincrement,
        user_id integer not null references users (id) on delete cascade,
        token_hash varchar(64) not null unique,
        kind varchar(16) not null default 'sign-in',
        name varchar(100),
        scope varchar(8),
        created_at varchar(32) not null,
        last_used_at varchar(32),
        expires_at varchar(32)
      )`,
    `insert into tokens_v6 (id, user_id, token_hash, created_at, last_used_at)
        select id, user_id, token_hash, created_at, last_used_at from tokens`,
    `drop table tokens`,
    `alter table tokens_v6 rename to tokens`,
    `create index "tokens_user_idx" on "tokens" ("user_id")`,
    `create index "tokens_last_used_idx" on "tokens" ("last_used_at")`,
    `create index tokens_expires_idx on tokens (expires_at) where expires_at is not null`,
  ],
  postgres: [
    `alter table "users" add column "units" varchar(2) default 'km' not null`,
    `alter table "users" add column "theme" varchar(8) default 'auto' not null`,
    `alter table tokens
        add column kind varchar(16) not null default 'sign-in',
        add column name varchar(100),
        add column scope varchar(8),
        add column expires_at varchar(32),
        alter column last_used_at drop not null`,
    `create index tokens_expires_idx on tokens (expires_at) where expires_at is not null`,
  ],
};

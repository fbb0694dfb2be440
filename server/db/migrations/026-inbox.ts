/**
 * The inbox folder (CONTRACT.md §20, decision 045): each user's private key, the name of their
 * folder under INBOX_DIR, one a user at most, made by a POST and replaced by a later one; and the
 * rows its files gave, the newest of which `GET /inbox` lists. Removed with their user.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const common = [
  `create table inbox_folders (user_id integer primary key references users (id) on delete cascade, folder_key varchar(24) not null, created_at varchar(32) not null)`,
  `create unique index inbox_folders_key_idx on inbox_folders (folder_key)`,
];
const rows = (id: string) =>
  `create table inbox_rows (id ${id}, user_id integer not null references users (id) on delete cascade, file varchar(1000) not null, source varchar(2000) not null, status varchar(16) not null, reason text, entry_id integer, at varchar(32) not null)`;
const index = `create index inbox_rows_user_idx on inbox_rows (user_id, id)`;

export const statements = {
  sqlite: [...common, rows('integer primary key autoincrement'), index],
  postgres: [...common, rows('bigserial primary key'), index],
};

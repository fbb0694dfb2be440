/**
 * The `Idempotency-Key` of `POST /entry` (CONTRACT.md §20, decision 047): each key a user sent
 * with a run that was created, and the answer it got (status and body), kept 7 days so that a
 * repeat of the key answers the same again and stores nothing. The primary key is what makes two
 * requests with one key meet: the second one's insert waits for the first one's transaction and
 * then fails as a duplicate. Removed with their user; the index serves the daily purge.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const keys = [
  `create table entry_idempotency_keys (user_id integer not null references users (id) on delete cascade, idempotency_key varchar(100) not null, status integer not null, body text not null, created_at varchar(32) not null, primary key (user_id, idempotency_key))`,
  `create index entry_idempotency_keys_created_idx on entry_idempotency_keys (created_at)`,
];

export const statements = { sqlite: keys, postgres: keys };

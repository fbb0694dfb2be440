/**
 * The users list paged like everyone's runs (decision 029): `user_days` holds the accounts
 * created on each UTC day (the first ten characters of `created_at`), written by the service
 * that creates or deletes an account, in its transaction (server/db/tallies.ts), and filled here
 * from the users there are.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [
  `create table user_days (day varchar(10) primary key, n integer not null)`,
  `insert into user_days (day, n) select substr(created_at, 1, 10), count(*) from users group by substr(created_at, 1, 10)`,
];

export const statements = { sqlite: both, postgres: both };

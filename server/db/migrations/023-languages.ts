/**
 * Six languages (CONTRACT.md §19): each user's `locale` (`auto`, the default, follows the
 * browser). The `auto` date format needs no column: users created from now on are written with
 * it (users.repository.ts); stored users keep the format they have.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [`alter table users add column locale varchar(4) not null default 'auto'`];

export const statements = { sqlite: both, postgres: both };

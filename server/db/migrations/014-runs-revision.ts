/**
 * SQLite: `run_revisions`, one row that every insert and deletion of a run, and every change
 * of its date or distance, moves (trigger `entries_revision`): everything the buckets of
 * everyone's runs (days, months, blocks) count. A deep page of everyone's runs remembers the
 * bucket lists it sought through at a revision (tallies.ts seekRun), and a page read at the
 * same revision needs no bucket read. PostgreSQL has it since step 015.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create table "run_revisions" ("id" integer primary key, "revision" bigint not null)`,
    `insert into "run_revisions" (id, revision) values (1, 1)`,
    `create trigger entries_revision_insert after insert on entries begin update run_revisions set revision = revision + 1 where id = 1; end`,
    `create trigger entries_revision_delete after delete on entries begin update run_revisions set revision = revision + 1 where id = 1; end`,
    `create trigger entries_revision_update after update of date, distance_m on entries begin update run_revisions set revision = revision + 1 where id = 1; update run_revisions set revision = revision + 1 where id = 1; end`,
  ],
  postgres: [],
};

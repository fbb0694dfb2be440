/**
 * PostgreSQL: the runs' revision too (`run_revisions`, as step 014 on SQLite), moved once per
 * statement that inserts or deletes runs or changes a run's date or distance, by the statement
 * triggers `entries_revision_insert|_delete|_update`. They fire after entries_ordered_tallies_*
 * (names in order), which have already locked the `entries` counter row that every writer of
 * runs queues on: the revision's row is always locked after it, so it adds no wait and no
 * deadlock. A deep page of everyone's runs then seeks through remembered bucket lists
 * (tallies.ts RememberedLists), as on SQLite.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [],
  postgres: [
    `create table "run_revisions" ("id" integer primary key, "revision" bigint not null)`,
    `insert into "run_revisions" (id, revision) values (1, 1)`,
    `create function entries_revision_insert() returns trigger language plpgsql as $$
       
       begin
         if exists (select 1 from added) then perform 1 from counters where name = 'entries' for no key update; update run_revisions set revision = revision + 1 where id = 1; end if;
         return null;
       end $$`,
    `create trigger entries_revision_insert after insert on entries referencing new table as added
       for each statement execute function entries_revision_insert()`,
    `create function entries_revision_delete() returns trigger language plpgsql as $$
       
       begin
         if exists (select 1 from removed) then perform 1 from counters where name = 'entries' for no key update; update run_revisions set revision = revision + 1 where id = 1; end if;
         return null;
       end $$`,
    `create trigger entries_revision_delete after delete on entries referencing old table as removed
       for each statement execute function entries_revision_delete()`,
    `create function entries_revision_update() returns trigger language plpgsql as $$
       
       begin
         if exists (select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (r.id, r.user_id, r.date, r.distance_m, r.seconds, r.effort, r.shoe_id, -1), (a.id, a.user_id, a.date, a.distance_m, a.seconds, a.effort, a.shoe_id, 1)) as v(id, user_id, date, distance_m, seconds, effort, shoe_id, s)
    where (r.date, r.distance_m) is distinct from (a.date, a.distance_m)) then perform 1 from counters where name = 'entries' for no key update; update run_revisions set revision = revision + 1 where id = 1; end if;
         return null;
       end $$`,
    `create trigger entries_revision_update after update on entries referencing old table as removed new table as added
       for each statement execute function entries_revision_update()`,
  ],
};

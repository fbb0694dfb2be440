/**
 * Each runner's insights revision (decision 017): a number that moves in the writing
 * transaction of every insert, update (any column) or delete of one of their runs, so that an
 * answer computed at a revision is known to be current while the revision stands, in every
 * process. No row reads as revision 0 (a runner without writes since this step, or seeded with
 * the triggers off). A deleted runner's row goes with them; the `exists` keeps a cascade of
 * that deletion from writing it again. SQLite bumps per row (an update in place); PostgreSQL
 * per statement and runner, from the transition tables, so that an import of many runs does not
 * stack row versions of one row in one transaction.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create table "insight_revisions" ("user_id" integer primary key references "users" ("id") on delete cascade, "revision" bigint not null)`,
    `create trigger entries_revisions_insert after insert on entries begin 
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (select new.user_id as user_id) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1; end`,
    `create trigger entries_revisions_delete after delete on entries begin 
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (select old.user_id as user_id) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1; end`,
    `create trigger entries_revisions_update after update on entries begin 
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (select old.user_id as user_id union select new.user_id) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1; end`,
  ],
  postgres: [
    `create table "insight_revisions" ("user_id" integer primary key references "users" ("id") on delete cascade, "revision" bigint not null)`,
    `create function entries_revisions_insert() returns trigger language plpgsql as $$
           begin 
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (select distinct user_id from changed) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1; return null; end $$`,
    `create trigger entries_revisions_insert after insert on entries referencing new table as changed
           for each statement execute function entries_revisions_insert()`,
    `create function entries_revisions_delete() returns trigger language plpgsql as $$
           begin 
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (select distinct user_id from changed) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1; return null; end $$`,
    `create trigger entries_revisions_delete after delete on entries referencing old table as changed
           for each statement execute function entries_revisions_delete()`,
    `create function entries_revisions_update() returns trigger language plpgsql as $$
           begin 
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (select user_id from before union select user_id from after) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1; return null; end $$`,
    `create trigger entries_revisions_update after update on entries referencing old table as before new table as after
           for each statement execute function entries_revisions_update()`,
  ],
};

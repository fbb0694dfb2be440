/**
 * The users list's deep pages and the search's totals (decision 011): sign-ups per month
 * (`user_months`) above the day buckets and per hour (`user_hours`) below them, so that a
 * page seeks through a few dozen rows of each and skips at most one hour's sign-ups; and
 * `user_revisions`, one row that every insert, deletion and change of a user's search text
 * or creation time moves (the key of the search's remembered totals). Triggers
 * `users_list_buckets` and `users_revision`.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create table "user_months" ("month" varchar(7) primary key, "n" integer not null)`,
    `create table "user_hours" ("hour" varchar(13) primary key, "n" integer not null)`,
    `insert into user_months (month, n) select substr(day, 1, 7), sum(n) from user_days group by substr(day, 1, 7)`,
    `insert into user_hours (hour, n) select substr(created_at, 1, 13), count(*) from users group by substr(created_at, 1, 13)`,
    `create trigger users_list_buckets_insert after insert on users begin 
      insert into user_months (month, n) values (substr(new.created_at, 1, 7), 1)
        on conflict (month) do update set n = user_months.n + 1;
      insert into user_hours (hour, n) values (substr(new.created_at, 1, 13), 1)
        on conflict (hour) do update set n = user_hours.n + 1; end`,
    `create trigger users_list_buckets_delete after delete on users begin 
      update user_months set n = n - 1 where month = substr(old.created_at, 1, 7);
      update user_hours set n = n - 1 where hour = substr(old.created_at, 1, 13); end`,
    `create trigger users_list_buckets_update after update of created_at on users begin 
      update user_months set n = n - 1 where month = substr(old.created_at, 1, 7);
      update user_hours set n = n - 1 where hour = substr(old.created_at, 1, 13); 
      insert into user_months (month, n) values (substr(new.created_at, 1, 7), 1)
        on conflict (month) do update set n = user_months.n + 1;
      insert into user_hours (hour, n) values (substr(new.created_at, 1, 13), 1)
        on conflict (hour) do update set n = user_hours.n + 1; end`,
    `create table "user_revisions" ("id" integer primary key, "revision" bigint not null)`,
    `insert into "user_revisions" (id, revision) values (1, 1)`,
    `create trigger users_revision_insert after insert on users begin update user_revisions set revision = revision + 1 where id = 1; end`,
    `create trigger users_revision_delete after delete on users begin update user_revisions set revision = revision + 1 where id = 1; end`,
    `create trigger users_revision_update after update of search_text, created_at on users begin update user_revisions set revision = revision + 1 where id = 1; update user_revisions set revision = revision + 1 where id = 1; end`,
  ],
  postgres: [
    `create table "user_months" ("month" varchar(7) primary key, "n" integer not null)`,
    `create table "user_hours" ("hour" varchar(13) primary key, "n" integer not null)`,
    `insert into user_months (month, n) select substr(day, 1, 7), sum(n) from user_days group by substr(day, 1, 7)`,
    `insert into user_hours (hour, n) select substr(created_at, 1, 13), count(*) from users group by substr(created_at, 1, 13)`,
    `create function users_list_buckets() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then 
      update user_months set n = n - 1 where month = substr(old.created_at, 1, 7);
      update user_hours set n = n - 1 where hour = substr(old.created_at, 1, 13); end if;
         if tg_op in ('INSERT', 'UPDATE') then 
      insert into user_months (month, n) values (substr(new.created_at, 1, 7), 1)
        on conflict (month) do update set n = user_months.n + 1;
      insert into user_hours (hour, n) values (substr(new.created_at, 1, 13), 1)
        on conflict (hour) do update set n = user_hours.n + 1; end if;
         return null;
       end $$`,
    `create trigger users_list_buckets after insert or delete or update of created_at on users
       for each row execute function users_list_buckets()`,
    `create table "user_revisions" ("id" integer primary key, "revision" bigint not null)`,
    `insert into "user_revisions" (id, revision) values (1, 1)`,
    `create function users_revision() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then update user_revisions set revision = revision + 1 where id = 1; end if;
         if tg_op in ('INSERT', 'UPDATE') then update user_revisions set revision = revision + 1 where id = 1; end if;
         return null;
       end $$`,
    `create trigger users_revision after insert or delete or update of search_text, created_at on users
       for each row execute function users_revision()`,
  ],
};

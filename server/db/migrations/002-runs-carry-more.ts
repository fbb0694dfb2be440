/**
 * Runs carry more (CONTRACT.md §8): title, notes, kind, effort and a shoe. Shoes (§11) with
 * their distance and runs, and each runner's daily totals (runner_days) for insights and
 * goals, both kept by triggers (docs/decisions/010).
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create table "shoes" ("id" integer primary key autoincrement, "user_id" integer not null references "users" ("id") on delete cascade, "name" varchar(100) not null, "brand" varchar(100), "limit_km" double precision default 700 not null, "retired" integer default 0 not null, "is_default" integer default 0 not null, "distance_m" bigint default 0 not null, "runs" integer default 0 not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "shoes_user_idx" on "shoes" ("user_id", "id")`,
    `create unique index shoes_one_default_idx on shoes (user_id) where is_default = 1`,
    `alter table "entries" add column "title" varchar(100)`,
    `alter table "entries" add column "notes" text`,
    `alter table "entries" add column "kind" varchar(16)`,
    `alter table "entries" add column "effort" integer`,
    `alter table "entries" add column "shoe_id" integer references "shoes" ("id") on delete set null`,
    `create index entries_shoe_idx on entries (shoe_id) where shoe_id is not null`,
    `create table "runner_days" ("user_id" integer not null references "users" ("id") on delete cascade, "date" varchar(10) not null, "runs" integer not null, "distance_m" bigint not null, "seconds" bigint not null, "effort_seconds" bigint not null, "unrated_seconds" bigint not null, "unrated_runs" integer not null, constraint "runner_days_pk" primary key ("user_id", "date"))`,
    `create trigger entries_tallies_insert after insert on entries begin insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
           values (new.user_id, new.date, 1, new.distance_m, new.seconds, coalesce(new.effort, 0) * new.seconds, case when new.effort is null then 1 else 0 end * new.seconds, case when new.effort is null then 1 else 0 end)
         on conflict (user_id, date) do update set runs = runner_days.runs + 1,
           distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds,
           effort_seconds = runner_days.effort_seconds + excluded.effort_seconds,
           unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds,
           unrated_runs = runner_days.unrated_runs + excluded.unrated_runs; update shoes set distance_m = distance_m + new.distance_m, runs = runs + 1
    where id = new.shoe_id; end`,
    `create trigger entries_tallies_delete after delete on entries begin update runner_days set runs = runs - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds,
           effort_seconds = effort_seconds - coalesce(old.effort, 0) * old.seconds, unrated_seconds = unrated_seconds - case when old.effort is null then 1 else 0 end * old.seconds,
           unrated_runs = unrated_runs - case when old.effort is null then 1 else 0 end
         where user_id = old.user_id and date = old.date; update shoes set distance_m = distance_m - old.distance_m, runs = runs - 1
    where id = old.shoe_id; end`,
    `create trigger entries_tallies_update after update of date, user_id, distance_m, seconds, effort, shoe_id on entries begin update runner_days set runs = runs - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds,
           effort_seconds = effort_seconds - coalesce(old.effort, 0) * old.seconds, unrated_seconds = unrated_seconds - case when old.effort is null then 1 else 0 end * old.seconds,
           unrated_runs = unrated_runs - case when old.effort is null then 1 else 0 end
         where user_id = old.user_id and date = old.date; update shoes set distance_m = distance_m - old.distance_m, runs = runs - 1
    where id = old.shoe_id; insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
           values (new.user_id, new.date, 1, new.distance_m, new.seconds, coalesce(new.effort, 0) * new.seconds, case when new.effort is null then 1 else 0 end * new.seconds, case when new.effort is null then 1 else 0 end)
         on conflict (user_id, date) do update set runs = runner_days.runs + 1,
           distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds,
           effort_seconds = runner_days.effort_seconds + excluded.effort_seconds,
           unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds,
           unrated_runs = runner_days.unrated_runs + excluded.unrated_runs; update shoes set distance_m = distance_m + new.distance_m, runs = runs + 1
    where id = new.shoe_id; end`,
  ],
  postgres: [
    `create table "shoes" ("id" serial primary key, "user_id" integer not null references "users" ("id") on delete cascade, "name" varchar(100) not null, "brand" varchar(100), "limit_km" double precision default 700 not null, "retired" integer default 0 not null, "is_default" integer default 0 not null, "distance_m" bigint default 0 not null, "runs" integer default 0 not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "shoes_user_idx" on "shoes" ("user_id", "id")`,
    `create unique index shoes_one_default_idx on shoes (user_id) where is_default = 1`,
    `alter table "entries" add column "title" varchar(100)`,
    `alter table "entries" add column "notes" text`,
    `alter table "entries" add column "kind" varchar(16)`,
    `alter table "entries" add column "effort" integer`,
    `alter table "entries" add column "shoe_id" integer references "shoes" ("id") on delete set null`,
    `create index entries_shoe_idx on entries (shoe_id) where shoe_id is not null`,
    `create table "runner_days" ("user_id" integer not null references "users" ("id") on delete cascade, "date" varchar(10) not null, "runs" integer not null, "distance_m" bigint not null, "seconds" bigint not null, "effort_seconds" bigint not null, "unrated_seconds" bigint not null, "unrated_runs" integer not null, constraint "runner_days_pk" primary key ("user_id", "date"))`,
    `create function entries_tallies() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then update runner_days set runs = runs - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds,
           effort_seconds = effort_seconds - coalesce(old.effort, 0) * old.seconds, unrated_seconds = unrated_seconds - case when old.effort is null then 1 else 0 end * old.seconds,
           unrated_runs = unrated_runs - case when old.effort is null then 1 else 0 end
         where user_id = old.user_id and date = old.date; update shoes set distance_m = distance_m - old.distance_m, runs = runs - 1
    where id = old.shoe_id; end if;
         if tg_op in ('INSERT', 'UPDATE') then insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
           values (new.user_id, new.date, 1, new.distance_m, new.seconds, coalesce(new.effort, 0) * new.seconds, case when new.effort is null then 1 else 0 end * new.seconds, case when new.effort is null then 1 else 0 end)
         on conflict (user_id, date) do update set runs = runner_days.runs + 1,
           distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds,
           effort_seconds = runner_days.effort_seconds + excluded.effort_seconds,
           unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds,
           unrated_runs = runner_days.unrated_runs + excluded.unrated_runs; update shoes set distance_m = distance_m + new.distance_m, runs = runs + 1
    where id = new.shoe_id; end if;
         return null;
       end $$`,
    `create trigger entries_tallies after insert or delete or update of date, user_id, distance_m, seconds, effort, shoe_id on entries
       for each row execute function entries_tallies()`,
  ],
};

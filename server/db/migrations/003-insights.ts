/**
 * Insights (CONTRACT.md §10): each run that counts for a standard distance, kept by triggers
 * (db/efforts.ts), so that records read a runner's few counting runs instead of all their runs.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create table "runner_efforts" ("entry_id" integer not null, "user_id" integer not null references "users" ("id") on delete cascade, "key" varchar(16) not null, "date" varchar(10) not null, "distance_m" integer not null, "seconds" integer not null, constraint "runner_efforts_pk" primary key ("entry_id", "key"))`,
    `create index "runner_efforts_user_idx" on "runner_efforts" ("user_id", "date", "entry_id")`,
    `insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select e.id, e.user_id, case when e.distance_m between 1000 and 1030 then '1k' when e.distance_m between 1610 and 1657 then '1mi' when e.distance_m between 5000 and 5150 then '5k' when e.distance_m between 10000 and 10300 then '10k' when e.distance_m between 15000 and 15450 then '15k' when e.distance_m between 16094 and 16576 then '10mi' when e.distance_m between 21098 and 21730 then 'half' when e.distance_m between 30000 and 30900 then '30k' when e.distance_m between 42195 and 43460 then 'marathon' when e.distance_m between 50000 and 51500 then '50k' end, e.date, e.distance_m, e.seconds
    from entries e where e.id >= 0 and case when e.distance_m between 1000 and 1030 then '1k' when e.distance_m between 1610 and 1657 then '1mi' when e.distance_m between 5000 and 5150 then '5k' when e.distance_m between 10000 and 10300 then '10k' when e.distance_m between 15000 and 15450 then '15k' when e.distance_m between 16094 and 16576 then '10mi' when e.distance_m between 21098 and 21730 then 'half' when e.distance_m between 30000 and 30900 then '30k' when e.distance_m between 42195 and 43460 then 'marathon' when e.distance_m between 50000 and 51500 then '50k' end is not null`,
    `create trigger entries_efforts_insert after insert on entries begin insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select new.id, new.user_id, s.k, new.date, new.distance_m, new.seconds
    from (select case when new.distance_m between 1000 and 1030 then '1k' when new.distance_m between 1610 and 1657 then '1mi' when new.distance_m between 5000 and 5150 then '5k' when new.distance_m between 10000 and 10300 then '10k' when new.distance_m between 15000 and 15450 then '15k' when new.distance_m between 16094 and 16576 then '10mi' when new.distance_m between 21098 and 21730 then 'half' when new.distance_m between 30000 and 30900 then '30k' when new.distance_m between 42195 and 43460 then 'marathon' when new.distance_m between 50000 and 51500 then '50k' end as k) as s where s.k is not null; end`,
    `create trigger entries_efforts_delete after delete on entries begin delete from runner_efforts where entry_id = old.id; end`,
    `create trigger entries_efforts_update after update of date, user_id, distance_m, seconds on entries begin delete from runner_efforts where entry_id = old.id; insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select new.id, new.user_id, s.k, new.date, new.distance_m, new.seconds
    from (select case when new.distance_m between 1000 and 1030 then '1k' when new.distance_m between 1610 and 1657 then '1mi' when new.distance_m between 5000 and 5150 then '5k' when new.distance_m between 10000 and 10300 then '10k' when new.distance_m between 15000 and 15450 then '15k' when new.distance_m between 16094 and 16576 then '10mi' when new.distance_m between 21098 and 21730 then 'half' when new.distance_m between 30000 and 30900 then '30k' when new.distance_m between 42195 and 43460 then 'marathon' when new.distance_m between 50000 and 51500 then '50k' end as k) as s where s.k is not null; end`,
  ],
  postgres: [
    `create table "runner_efforts" ("entry_id" integer not null, "user_id" integer not null references "users" ("id") on delete cascade, "key" varchar(16) not null, "date" varchar(10) not null, "distance_m" integer not null, "seconds" integer not null, constraint "runner_efforts_pk" primary key ("entry_id", "key"))`,
    `create index "runner_efforts_user_idx" on "runner_efforts" ("user_id", "date", "entry_id")`,
    `insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select e.id, e.user_id, case when e.distance_m between 1000 and 1030 then '1k' when e.distance_m between 1610 and 1657 then '1mi' when e.distance_m between 5000 and 5150 then '5k' when e.distance_m between 10000 and 10300 then '10k' when e.distance_m between 15000 and 15450 then '15k' when e.distance_m between 16094 and 16576 then '10mi' when e.distance_m between 21098 and 21730 then 'half' when e.distance_m between 30000 and 30900 then '30k' when e.distance_m between 42195 and 43460 then 'marathon' when e.distance_m between 50000 and 51500 then '50k' end, e.date, e.distance_m, e.seconds
    from entries e where e.id >= 0 and case when e.distance_m between 1000 and 1030 then '1k' when e.distance_m between 1610 and 1657 then '1mi' when e.distance_m between 5000 and 5150 then '5k' when e.distance_m between 10000 and 10300 then '10k' when e.distance_m between 15000 and 15450 then '15k' when e.distance_m between 16094 and 16576 then '10mi' when e.distance_m between 21098 and 21730 then 'half' when e.distance_m between 30000 and 30900 then '30k' when e.distance_m between 42195 and 43460 then 'marathon' when e.distance_m between 50000 and 51500 then '50k' end is not null`,
    `create function entries_efforts() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then delete from runner_efforts where entry_id = old.id; end if;
         if tg_op in ('INSERT', 'UPDATE') then insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select new.id, new.user_id, s.k, new.date, new.distance_m, new.seconds
    from (select case when new.distance_m between 1000 and 1030 then '1k' when new.distance_m between 1610 and 1657 then '1mi' when new.distance_m between 5000 and 5150 then '5k' when new.distance_m between 10000 and 10300 then '10k' when new.distance_m between 15000 and 15450 then '15k' when new.distance_m between 16094 and 16576 then '10mi' when new.distance_m between 21098 and 21730 then 'half' when new.distance_m between 30000 and 30900 then '30k' when new.distance_m between 42195 and 43460 then 'marathon' when new.distance_m between 50000 and 51500 then '50k' end as k) as s where s.k is not null; end if;
         return null;
       end $$`,
    `create trigger entries_efforts after insert or delete or update of date, user_id, distance_m, seconds on entries
       for each row execute function entries_efforts()`,
  ],
};

/**
 * A second level under the day buckets, and one above them, for everyone's list
 * (decision 010): runs per day and whole kilometre of distance (`entry_blocks`, the
 * list's order within a day is distance desc) and runs per month (`entry_all_months`). A
 * deep page sums at most a few dozen month, day and block rows and skips at most one
 * block's runs. The entries_buckets triggers are recreated to keep both.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create table "entry_blocks" ("date" varchar(10) not null, "block" integer not null, "n" integer not null, constraint "entry_blocks_pk" primary key ("date", "block"))`,
    `create table "entry_all_months" ("month" varchar(7) primary key, "n" integer not null)`,
    `insert into entry_blocks (date, block, n)
      select date, distance_m / 1000, count(*) from entries group by date, distance_m / 1000`,
    `insert into entry_all_months (month, n)
      select substr(date, 1, 7), sum(n) from entry_days group by substr(date, 1, 7)`,
    `drop trigger entries_buckets_insert`,
    `drop trigger entries_buckets_delete`,
    `drop trigger entries_buckets_update`,
    `create trigger entries_buckets_insert after insert on entries begin 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; 
    insert into entry_blocks (date, block, n) values (new.date, new.distance_m / 1000, 1)
      on conflict (date, block) do update set n = entry_blocks.n + 1;
    insert into entry_all_months (month, n) values (substr(new.date, 1, 7), 1)
      on conflict (month) do update set n = entry_all_months.n + 1; end`,
    `create trigger entries_buckets_delete after delete on entries begin 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); 
    update entry_blocks set n = n - 1 where date = old.date and block = old.distance_m / 1000;
    update entry_all_months set n = n - 1 where month = substr(old.date, 1, 7); end`,
    `create trigger entries_buckets_update after update of date, user_id, distance_m, seconds on entries begin 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); 
    update entry_blocks set n = n - 1 where date = old.date and block = old.distance_m / 1000;
    update entry_all_months set n = n - 1 where month = substr(old.date, 1, 7); 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; 
    insert into entry_blocks (date, block, n) values (new.date, new.distance_m / 1000, 1)
      on conflict (date, block) do update set n = entry_blocks.n + 1;
    insert into entry_all_months (month, n) values (substr(new.date, 1, 7), 1)
      on conflict (month) do update set n = entry_all_months.n + 1; end`,
  ],
  postgres: [
    `create table "entry_blocks" ("date" varchar(10) not null, "block" integer not null, "n" integer not null, constraint "entry_blocks_pk" primary key ("date", "block"))`,
    `create table "entry_all_months" ("month" varchar(7) primary key, "n" integer not null)`,
    `insert into entry_blocks (date, block, n)
      select date, distance_m / 1000, count(*) from entries group by date, distance_m / 1000`,
    `insert into entry_all_months (month, n)
      select substr(date, 1, 7), sum(n) from entry_days group by substr(date, 1, 7)`,
    `drop trigger entries_buckets on entries`,
    `drop function entries_buckets()`,
    `create function entries_buckets() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); 
    update entry_blocks set n = n - 1 where date = old.date and block = old.distance_m / 1000;
    update entry_all_months set n = n - 1 where month = substr(old.date, 1, 7); end if;
         if tg_op in ('INSERT', 'UPDATE') then 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; 
    insert into entry_blocks (date, block, n) values (new.date, new.distance_m / 1000, 1)
      on conflict (date, block) do update set n = entry_blocks.n + 1;
    insert into entry_all_months (month, n) values (substr(new.date, 1, 7), 1)
      on conflict (month) do update set n = entry_all_months.n + 1; end if;
         return null;
       end $$`,
    `create trigger entries_buckets after insert or delete or update of date, user_id, distance_m, seconds on entries
       for each row execute function entries_buckets()`,
  ],
};

/**
 * Each runner's month buckets also add up distance and time, so that monthly and yearly
 * totals (goals, the year in review) read at most 12 rows a year, never a day per run.
 * The entries_buckets triggers are recreated to keep the sums, and follow distance and time.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `alter table "entry_months" add column "distance_m" bigint default 0 not null`,
    `alter table "entry_months" add column "seconds" bigint default 0 not null`,
    `update entry_months set
      distance_m = (select coalesce(sum(d.distance_m), 0) from runner_days d
        where d.user_id = entry_months.user_id and d.date >= entry_months.month || '-01' and d.date <= entry_months.month || '-31'),
      seconds = (select coalesce(sum(d.seconds), 0) from runner_days d
        where d.user_id = entry_months.user_id and d.date >= entry_months.month || '-01' and d.date <= entry_months.month || '-31')`,
    `drop trigger entries_buckets_insert`,
    `drop trigger entries_buckets_delete`,
    `drop trigger entries_buckets_update`,
    `create trigger entries_buckets_insert after insert on entries begin 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; end`,
    `create trigger entries_buckets_delete after delete on entries begin 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); end`,
    `create trigger entries_buckets_update after update of date, user_id, distance_m, seconds on entries begin 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; end`,
  ],
  postgres: [
    `alter table "entry_months" add column "distance_m" bigint default 0 not null`,
    `alter table "entry_months" add column "seconds" bigint default 0 not null`,
    `update entry_months set
      distance_m = (select coalesce(sum(d.distance_m), 0) from runner_days d
        where d.user_id = entry_months.user_id and d.date >= entry_months.month || '-01' and d.date <= entry_months.month || '-31'),
      seconds = (select coalesce(sum(d.seconds), 0) from runner_days d
        where d.user_id = entry_months.user_id and d.date >= entry_months.month || '-01' and d.date <= entry_months.month || '-31')`,
    `drop trigger entries_buckets on entries`,
    `drop function entries_buckets()`,
    `create function entries_buckets() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); end if;
         if tg_op in ('INSERT', 'UPDATE') then 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; end if;
         return null;
       end $$`,
    `create trigger entries_buckets after insert or delete or update of date, user_id, distance_m, seconds on entries
       for each row execute function entries_buckets()`,
  ],
};

/**
 * PostgreSQL: writes of runs take their turns on the tallies instead of deadlocking, and a
 * batch of runs moves each tally row once. The row triggers entries_buckets, entries_tallies
 * and entries_efforts become one statement trigger per event, `entries_ordered_tallies_insert
 * |_delete|_update` (orderedTallyTriggers below), which keeps the same tables from the
 * statement's transition tables. Before the first tally moves, it locks the `entries` counter
 * row, which each insert and deletion of runs writes anyway (at its end) and an edit of date,
 * distance, time, effort or shoe now locks too: from there to its commit a transaction has
 * every shared tally row (the days, months and blocks of everyone's runs) to itself, so no two
 * of them hold rows the other waits for. SQLite keeps its row triggers (one writer at a time).
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [],
  postgres: [
    `drop trigger entries_buckets on entries`,
    `drop function entries_buckets()`,
    `drop trigger entries_tallies on entries`,
    `drop function entries_tallies()`,
    `drop trigger entries_efforts on entries`,
    `drop function entries_efforts()`,
    `create function entries_ordered_tallies_insert() returns trigger language plpgsql as $$
       declare moved bigint;
       begin
         select count(*) into moved from added;
      if moved > 0 then perform 1 from users where id in (select user_id from added) order by id for no key update; end if;
      if moved = 1 then
        select * into new from added;
        perform 1 from counters where name = 'entries' for no key update; 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; 
    insert into entry_blocks (date, block, n) values (new.date, new.distance_m / 1000, 1)
      on conflict (date, block) do update set n = entry_blocks.n + 1;
    insert into entry_all_months (month, n) values (substr(new.date, 1, 7), 1)
      on conflict (month) do update set n = entry_all_months.n + 1; insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
           values (new.user_id, new.date, 1, new.distance_m, new.seconds, coalesce(new.effort, 0) * new.seconds, case when new.effort is null then 1 else 0 end * new.seconds, case when new.effort is null then 1 else 0 end)
         on conflict (user_id, date) do update set runs = runner_days.runs + 1,
           distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds,
           effort_seconds = runner_days.effort_seconds + excluded.effort_seconds,
           unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds,
           unrated_runs = runner_days.unrated_runs + excluded.unrated_runs; update shoes set distance_m = distance_m + new.distance_m, runs = runs + 1
    where id = new.shoe_id; insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select new.id, new.user_id, s.k, new.date, new.distance_m, new.seconds
    from (select case when new.distance_m between 1000 and 1030 then '1k' when new.distance_m between 1610 and 1657 then '1mi' when new.distance_m between 5000 and 5150 then '5k' when new.distance_m between 10000 and 10300 then '10k' when new.distance_m between 15000 and 15450 then '15k' when new.distance_m between 16094 and 16576 then '10mi' when new.distance_m between 21098 and 21730 then 'half' when new.distance_m between 30000 and 30900 then '30k' when new.distance_m between 42195 and 43460 then 'marathon' when new.distance_m between 50000 and 51500 then '50k' end as k) as s where s.k is not null;
      elsif moved > 1 then perform 1 from counters where name = 'entries' for no key update;
with m as materialized (select id, user_id, date, distance_m, seconds, effort, shoe_id, 1 as s from added),
    all_months as (insert into entry_all_months (month, n)
    select month, n from (
      select substr(date, 1, 7) as month, sum(s) as n
      from m group by 1
    ) t
    where (t.n <> 0)
    order by month
    on conflict (month) do update set n = entry_all_months.n + excluded.n),
    days as (insert into entry_days (date, n)
    select date, n from (
      select date as date, sum(s) as n
      from m group by 1
    ) t
    where (t.n <> 0)
    order by date
    on conflict (date) do update set n = entry_days.n + excluded.n),
    blocks as (insert into entry_blocks (date, block, n)
    select date, block, n from (
      select date as date, distance_m / 1000 as block, sum(s) as n
      from m group by 1, 2
    ) t
    where (t.n <> 0)
    order by date, block
    on conflict (date, block) do update set n = entry_blocks.n + excluded.n)
    insert into entry_months (user_id, month, n, distance_m, seconds)
    select user_id, month, n, distance_m, seconds from (
      select user_id as user_id, substr(date, 1, 7) as month, sum(s) as n, sum(s * distance_m) as distance_m, sum(s * seconds) as seconds
      from m group by 1, 2
    ) t
    where (t.n <> 0 or t.distance_m <> 0 or t.seconds <> 0) and (t.n > 0 or exists (select 1 from entry_months x where x.user_id = t.user_id and x.month = t.month))
    order by user_id, month
    on conflict (user_id, month) do update set n = entry_months.n + excluded.n, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds;
with m as materialized (select id, user_id, date, distance_m, seconds, effort, shoe_id, 1 as s from added),
    worn as (
      update shoes set distance_m = shoes.distance_m + t.distance_m, runs = shoes.runs + t.n
      from (select shoe_id, sum(s) as n, sum(s * distance_m) as distance_m from m where shoe_id is not null group by shoe_id) t
      where shoes.id = t.shoe_id and (t.n <> 0 or t.distance_m <> 0))
    insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
    select user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs from (
      select user_id as user_id, date as date, sum(s) as runs, sum(s * distance_m) as distance_m, sum(s * seconds) as seconds, sum(s * coalesce(effort, 0) * seconds) as effort_seconds, sum(s * case when effort is null then 1 else 0 end * seconds) as unrated_seconds, sum(s * case when effort is null then 1 else 0 end) as unrated_runs
      from m group by 1, 2
    ) t
    where (t.runs <> 0 or t.distance_m <> 0 or t.seconds <> 0 or t.effort_seconds <> 0 or t.unrated_seconds <> 0 or t.unrated_runs <> 0) and (t.runs > 0 or exists (select 1 from runner_days x where x.user_id = t.user_id and x.date = t.date))
    order by user_id, date
    on conflict (user_id, date) do update set runs = runner_days.runs + excluded.runs, distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds, effort_seconds = runner_days.effort_seconds + excluded.effort_seconds, unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds, unrated_runs = runner_days.unrated_runs + excluded.unrated_runs;
insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select id, user_id, k, date, distance_m, seconds from (
      select m.*, case when m.distance_m between 1000 and 1030 then '1k' when m.distance_m between 1610 and 1657 then '1mi' when m.distance_m between 5000 and 5150 then '5k' when m.distance_m between 10000 and 10300 then '10k' when m.distance_m between 15000 and 15450 then '15k' when m.distance_m between 16094 and 16576 then '10mi' when m.distance_m between 21098 and 21730 then 'half' when m.distance_m between 30000 and 30900 then '30k' when m.distance_m between 42195 and 43460 then 'marathon' when m.distance_m between 50000 and 51500 then '50k' end as k from (select id, user_id, date, distance_m, seconds, effort, shoe_id, 1 as s from added) m where m.s > 0
    ) e where k is not null;
      end if;
         return null;
       end $$`,
    `create trigger entries_ordered_tallies_insert after insert on entries referencing new table as added
       for each statement execute function entries_ordered_tallies_insert()`,
    `create function entries_ordered_tallies_delete() returns trigger language plpgsql as $$
       declare moved bigint;
       begin
         select count(*) into moved from removed;
      if moved > 0 then perform 1 from users where id in (select user_id from removed) order by id for no key update; end if;
      if moved = 1 then
        select * into old from removed;
        perform 1 from counters where name = 'entries' for no key update; 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); 
    update entry_blocks set n = n - 1 where date = old.date and block = old.distance_m / 1000;
    update entry_all_months set n = n - 1 where month = substr(old.date, 1, 7); update runner_days set runs = runs - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds,
           effort_seconds = effort_seconds - coalesce(old.effort, 0) * old.seconds, unrated_seconds = unrated_seconds - case when old.effort is null then 1 else 0 end * old.seconds,
           unrated_runs = unrated_runs - case when old.effort is null then 1 else 0 end
         where user_id = old.user_id and date = old.date; update shoes set distance_m = distance_m - old.distance_m, runs = runs - 1
    where id = old.shoe_id; delete from runner_efforts where entry_id = old.id;
      elsif moved > 1 then perform 1 from counters where name = 'entries' for no key update;
with m as materialized (select id, user_id, date, distance_m, seconds, effort, shoe_id, -1 as s from removed),
    all_months as (insert into entry_all_months (month, n)
    select month, n from (
      select substr(date, 1, 7) as month, sum(s) as n
      from m group by 1
    ) t
    where (t.n <> 0)
    order by month
    on conflict (month) do update set n = entry_all_months.n + excluded.n),
    days as (insert into entry_days (date, n)
    select date, n from (
      select date as date, sum(s) as n
      from m group by 1
    ) t
    where (t.n <> 0)
    order by date
    on conflict (date) do update set n = entry_days.n + excluded.n),
    blocks as (insert into entry_blocks (date, block, n)
    select date, block, n from (
      select date as date, distance_m / 1000 as block, sum(s) as n
      from m group by 1, 2
    ) t
    where (t.n <> 0)
    order by date, block
    on conflict (date, block) do update set n = entry_blocks.n + excluded.n)
    insert into entry_months (user_id, month, n, distance_m, seconds)
    select user_id, month, n, distance_m, seconds from (
      select user_id as user_id, substr(date, 1, 7) as month, sum(s) as n, sum(s * distance_m) as distance_m, sum(s * seconds) as seconds
      from m group by 1, 2
    ) t
    where (t.n <> 0 or t.distance_m <> 0 or t.seconds <> 0) and (t.n > 0 or exists (select 1 from entry_months x where x.user_id = t.user_id and x.month = t.month))
    order by user_id, month
    on conflict (user_id, month) do update set n = entry_months.n + excluded.n, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds;
with m as materialized (select id, user_id, date, distance_m, seconds, effort, shoe_id, -1 as s from removed),
    worn as (
      update shoes set distance_m = shoes.distance_m + t.distance_m, runs = shoes.runs + t.n
      from (select shoe_id, sum(s) as n, sum(s * distance_m) as distance_m from m where shoe_id is not null group by shoe_id) t
      where shoes.id = t.shoe_id and (t.n <> 0 or t.distance_m <> 0))
    insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
    select user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs from (
      select user_id as user_id, date as date, sum(s) as runs, sum(s * distance_m) as distance_m, sum(s * seconds) as seconds, sum(s * coalesce(effort, 0) * seconds) as effort_seconds, sum(s * case when effort is null then 1 else 0 end * seconds) as unrated_seconds, sum(s * case when effort is null then 1 else 0 end) as unrated_runs
      from m group by 1, 2
    ) t
    where (t.runs <> 0 or t.distance_m <> 0 or t.seconds <> 0 or t.effort_seconds <> 0 or t.unrated_seconds <> 0 or t.unrated_runs <> 0) and (t.runs > 0 or exists (select 1 from runner_days x where x.user_id = t.user_id and x.date = t.date))
    order by user_id, date
    on conflict (user_id, date) do update set runs = runner_days.runs + excluded.runs, distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds, effort_seconds = runner_days.effort_seconds + excluded.effort_seconds, unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds, unrated_runs = runner_days.unrated_runs + excluded.unrated_runs;
delete from runner_efforts where entry_id in (select id from (select id, user_id, date, distance_m, seconds, effort, shoe_id, -1 as s from removed) m where s < 0);
      end if;
         return null;
       end $$`,
    `create trigger entries_ordered_tallies_delete after delete on entries referencing old table as removed
       for each statement execute function entries_ordered_tallies_delete()`,
    `create function entries_ordered_tallies_update() returns trigger language plpgsql as $$
       declare moved bigint;
       begin
         select count(*) into moved from added;
      if moved = 1 then
        select * into old from removed;
        select * into new from added;
        if (old.date, old.user_id, old.distance_m, old.seconds, old.effort, old.shoe_id) is distinct from (new.date, new.user_id, new.distance_m, new.seconds, new.effort, new.shoe_id) then
          perform 1 from counters where name = 'entries' for no key update; 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds where user_id = old.user_id and month = substr(old.date, 1, 7); 
    update entry_blocks set n = n - 1 where date = old.date and block = old.distance_m / 1000;
    update entry_all_months set n = n - 1 where month = substr(old.date, 1, 7); update runner_days set runs = runs - 1, distance_m = distance_m - old.distance_m, seconds = seconds - old.seconds,
           effort_seconds = effort_seconds - coalesce(old.effort, 0) * old.seconds, unrated_seconds = unrated_seconds - case when old.effort is null then 1 else 0 end * old.seconds,
           unrated_runs = unrated_runs - case when old.effort is null then 1 else 0 end
         where user_id = old.user_id and date = old.date; update shoes set distance_m = distance_m - old.distance_m, runs = runs - 1
    where id = old.shoe_id; 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n, distance_m, seconds) values (new.user_id, substr(new.date, 1, 7), 1, new.distance_m, new.seconds)
      on conflict (user_id, month) do update set n = entry_months.n + 1, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds; 
    insert into entry_blocks (date, block, n) values (new.date, new.distance_m / 1000, 1)
      on conflict (date, block) do update set n = entry_blocks.n + 1;
    insert into entry_all_months (month, n) values (substr(new.date, 1, 7), 1)
      on conflict (month) do update set n = entry_all_months.n + 1; insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
           values (new.user_id, new.date, 1, new.distance_m, new.seconds, coalesce(new.effort, 0) * new.seconds, case when new.effort is null then 1 else 0 end * new.seconds, case when new.effort is null then 1 else 0 end)
         on conflict (user_id, date) do update set runs = runner_days.runs + 1,
           distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds,
           effort_seconds = runner_days.effort_seconds + excluded.effort_seconds,
           unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds,
           unrated_runs = runner_days.unrated_runs + excluded.unrated_runs; update shoes set distance_m = distance_m + new.distance_m, runs = runs + 1
    where id = new.shoe_id;
          if (old.date, old.user_id, old.distance_m, old.seconds) is distinct from (new.date, new.user_id, new.distance_m, new.seconds) then delete from runner_efforts where entry_id = old.id; insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select new.id, new.user_id, s.k, new.date, new.distance_m, new.seconds
    from (select case when new.distance_m between 1000 and 1030 then '1k' when new.distance_m between 1610 and 1657 then '1mi' when new.distance_m between 5000 and 5150 then '5k' when new.distance_m between 10000 and 10300 then '10k' when new.distance_m between 15000 and 15450 then '15k' when new.distance_m between 16094 and 16576 then '10mi' when new.distance_m between 21098 and 21730 then 'half' when new.distance_m between 30000 and 30900 then '30k' when new.distance_m between 42195 and 43460 then 'marathon' when new.distance_m between 50000 and 51500 then '50k' end as k) as s where s.k is not null; end if;
        end if;
      elsif exists (select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (r.id, r.user_id, r.date, r.distance_m, r.seconds, r.effort, r.shoe_id, -1), (a.id, a.user_id, a.date, a.distance_m, a.seconds, a.effort, a.shoe_id, 1)) as v(id, user_id, date, distance_m, seconds, effort, shoe_id, s)
    where (r.date, r.user_id, r.distance_m, r.seconds, r.effort, r.shoe_id) is distinct from (a.date, a.user_id, a.distance_m, a.seconds, a.effort, a.shoe_id)) then perform 1 from counters where name = 'entries' for no key update;
with m as materialized (select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (r.id, r.user_id, r.date, r.distance_m, r.seconds, r.effort, r.shoe_id, -1), (a.id, a.user_id, a.date, a.distance_m, a.seconds, a.effort, a.shoe_id, 1)) as v(id, user_id, date, distance_m, seconds, effort, shoe_id, s)
    where (r.date, r.user_id, r.distance_m, r.seconds, r.effort, r.shoe_id) is distinct from (a.date, a.user_id, a.distance_m, a.seconds, a.effort, a.shoe_id)),
    all_months as (insert into entry_all_months (month, n)
    select month, n from (
      select substr(date, 1, 7) as month, sum(s) as n
      from m group by 1
    ) t
    where (t.n <> 0)
    order by month
    on conflict (month) do update set n = entry_all_months.n + excluded.n),
    days as (insert into entry_days (date, n)
    select date, n from (
      select date as date, sum(s) as n
      from m group by 1
    ) t
    where (t.n <> 0)
    order by date
    on conflict (date) do update set n = entry_days.n + excluded.n),
    blocks as (insert into entry_blocks (date, block, n)
    select date, block, n from (
      select date as date, distance_m / 1000 as block, sum(s) as n
      from m group by 1, 2
    ) t
    where (t.n <> 0)
    order by date, block
    on conflict (date, block) do update set n = entry_blocks.n + excluded.n)
    insert into entry_months (user_id, month, n, distance_m, seconds)
    select user_id, month, n, distance_m, seconds from (
      select user_id as user_id, substr(date, 1, 7) as month, sum(s) as n, sum(s * distance_m) as distance_m, sum(s * seconds) as seconds
      from m group by 1, 2
    ) t
    where (t.n <> 0 or t.distance_m <> 0 or t.seconds <> 0) and (t.n > 0 or exists (select 1 from entry_months x where x.user_id = t.user_id and x.month = t.month))
    order by user_id, month
    on conflict (user_id, month) do update set n = entry_months.n + excluded.n, distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds;
with m as materialized (select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (r.id, r.user_id, r.date, r.distance_m, r.seconds, r.effort, r.shoe_id, -1), (a.id, a.user_id, a.date, a.distance_m, a.seconds, a.effort, a.shoe_id, 1)) as v(id, user_id, date, distance_m, seconds, effort, shoe_id, s)
    where (r.date, r.user_id, r.distance_m, r.seconds, r.effort, r.shoe_id) is distinct from (a.date, a.user_id, a.distance_m, a.seconds, a.effort, a.shoe_id)),
    worn as (
      update shoes set distance_m = shoes.distance_m + t.distance_m, runs = shoes.runs + t.n
      from (select shoe_id, sum(s) as n, sum(s * distance_m) as distance_m from m where shoe_id is not null group by shoe_id) t
      where shoes.id = t.shoe_id and (t.n <> 0 or t.distance_m <> 0))
    insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
    select user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs from (
      select user_id as user_id, date as date, sum(s) as runs, sum(s * distance_m) as distance_m, sum(s * seconds) as seconds, sum(s * coalesce(effort, 0) * seconds) as effort_seconds, sum(s * case when effort is null then 1 else 0 end * seconds) as unrated_seconds, sum(s * case when effort is null then 1 else 0 end) as unrated_runs
      from m group by 1, 2
    ) t
    where (t.runs <> 0 or t.distance_m <> 0 or t.seconds <> 0 or t.effort_seconds <> 0 or t.unrated_seconds <> 0 or t.unrated_runs <> 0) and (t.runs > 0 or exists (select 1 from runner_days x where x.user_id = t.user_id and x.date = t.date))
    order by user_id, date
    on conflict (user_id, date) do update set runs = runner_days.runs + excluded.runs, distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds, effort_seconds = runner_days.effort_seconds + excluded.effort_seconds, unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds, unrated_runs = runner_days.unrated_runs + excluded.unrated_runs;
delete from runner_efforts where entry_id in (select id from (select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (r.id, r.user_id, r.date, r.distance_m, r.seconds, r.effort, r.shoe_id, -1), (a.id, a.user_id, a.date, a.distance_m, a.seconds, a.effort, a.shoe_id, 1)) as v(id, user_id, date, distance_m, seconds, effort, shoe_id, s)
    where (r.date, r.user_id, r.distance_m, r.seconds) is distinct from (a.date, a.user_id, a.distance_m, a.seconds)) m where s < 0);
insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select id, user_id, k, date, distance_m, seconds from (
      select m.*, case when m.distance_m between 1000 and 1030 then '1k' when m.distance_m between 1610 and 1657 then '1mi' when m.distance_m between 5000 and 5150 then '5k' when m.distance_m between 10000 and 10300 then '10k' when m.distance_m between 15000 and 15450 then '15k' when m.distance_m between 16094 and 16576 then '10mi' when m.distance_m between 21098 and 21730 then 'half' when m.distance_m between 30000 and 30900 then '30k' when m.distance_m between 42195 and 43460 then 'marathon' when m.distance_m between 50000 and 51500 then '50k' end as k from (select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (r.id, r.user_id, r.date, r.distance_m, r.seconds, r.effort, r.shoe_id, -1), (a.id, a.user_id, a.date, a.distance_m, a.seconds, a.effort, a.shoe_id, 1)) as v(id, user_id, date, distance_m, seconds, effort, shoe_id, s)
    where (r.date, r.user_id, r.distance_m, r.seconds) is distinct from (a.date, a.user_id, a.distance_m, a.seconds)) m where m.s > 0
    ) e where k is not null;
      end if;
         return null;
       end $$`,
    `create trigger entries_ordered_tallies_update after update on entries referencing old table as removed new table as added
       for each statement execute function entries_ordered_tallies_update()`,
  ],
};

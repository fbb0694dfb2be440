/** Step 001-initial. */
export const statements = {
  sqlite: [
    `create table "users" ("id" integer primary key autoincrement, "name" varchar(255) not null, "email" varchar(255) not null unique, "password_hash" varchar(255) not null, "role" varchar(16) default 'user' not null, "timezone" varchar(64) default 'UTC' not null, "is_demo" integer default 0 not null, "entry_count" integer default 0 not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "users_created_idx" on "users" ("created_at" desc, "id" desc)`,
    `create index "users_role_idx" on "users" ("role", "id")`,
    `create table "entries" ("id" integer primary key autoincrement, "user_id" integer not null references "users" ("id") on delete cascade, "date" varchar(10) not null, "distance_m" integer not null, "seconds" integer not null, "speed" double precision not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "entries_user_date_idx" on "entries" ("user_id", "date", "id")`,
    `create index "entries_user_speed_idx" on "entries" ("user_id", "speed")`,
    `create index "entries_user_distance_idx" on "entries" ("user_id", "distance_m")`,
    `create index "entries_user_seconds_idx" on "entries" ("user_id", "seconds")`,
    `create index "entries_all_idx" on "entries" ("date", "distance_m", "id")`,
    `create index "entries_fastest_idx" on "entries" ("speed" desc, "id" asc)`,
    `create index "entries_longest_idx" on "entries" ("distance_m" desc, "id" asc)`,
    `create table "tokens" ("id" integer primary key autoincrement, "user_id" integer not null references "users" ("id") on delete cascade, "token_hash" varchar(64) not null unique, "created_at" varchar(32) not null, "last_used_at" varchar(32) not null)`,
    `create index "tokens_user_idx" on "tokens" ("user_id")`,
    `create index "tokens_last_used_idx" on "tokens" ("last_used_at")`,
    `create table "throttles" ("key" varchar(600) primary key, "hits" integer not null, "window_start" bigint not null)`,
    `create index "throttles_window_idx" on "throttles" ("window_start")`,
    `create table "counters" ("name" varchar(32) primary key, "value" bigint not null)`,
    `insert into counters (name, value) values ('users', 0), ('entries', 0)`,
    `create virtual table users_search using fts5(doc, tokenize = 'trigram')`,
    `create trigger users_search_insert after insert on users begin
        insert into users_search (rowid, doc) values (new.id, new.name || char(10) || new.email);
      end`,
    `create trigger users_search_update after update of name, email on users begin
        update users_search set doc = new.name || char(10) || new.email where rowid = new.id;
      end`,
    `create trigger users_search_delete after delete on users begin
        delete from users_search where rowid = old.id;
      end`,
    `create table "entry_days" ("date" varchar(10) primary key, "n" integer not null)`,
    `create table "entry_months" ("user_id" integer not null references "users" ("id") on delete cascade, "month" varchar(7) not null, "n" integer not null, constraint "entry_months_pk" primary key ("user_id", "month"))`,
    `create table "user_days" ("day" varchar(10) primary key, "n" integer not null)`,
    `create trigger entries_buckets_insert after insert on entries begin 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n) values (new.user_id, substr(new.date, 1, 7), 1)
      on conflict (user_id, month) do update set n = entry_months.n + 1; end`,
    `create trigger entries_buckets_delete after delete on entries begin 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1 where user_id = old.user_id and month = substr(old.date, 1, 7); end`,
    `create trigger entries_buckets_update after update of date, user_id on entries begin 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1 where user_id = old.user_id and month = substr(old.date, 1, 7); 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n) values (new.user_id, substr(new.date, 1, 7), 1)
      on conflict (user_id, month) do update set n = entry_months.n + 1; end`,
    `create trigger users_buckets_insert after insert on users begin 
    insert into user_days (day, n) values (substr(new.created_at, 1, 10), 1)
      on conflict (day) do update set n = user_days.n + 1; end`,
    `create trigger users_buckets_delete after delete on users begin 
    update user_days set n = n - 1 where day = substr(old.created_at, 1, 10); end`,
    `create trigger users_buckets_update after update of created_at on users begin 
    update user_days set n = n - 1 where day = substr(old.created_at, 1, 10); 
    insert into user_days (day, n) values (substr(new.created_at, 1, 10), 1)
      on conflict (day) do update set n = user_days.n + 1; end`,
    `create table "jobs" ("name" varchar(64) primary key, "last_run" varchar(32) not null)`,
  ],
  postgres: [
    `create table "users" ("id" serial primary key, "name" varchar(255) not null, "email" varchar(255) not null unique, "password_hash" varchar(255) not null, "role" varchar(16) default 'user' not null, "timezone" varchar(64) default 'UTC' not null, "is_demo" integer default 0 not null, "entry_count" integer default 0 not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "users_created_idx" on "users" ("created_at" desc, "id" desc)`,
    `create index "users_role_idx" on "users" ("role", "id")`,
    `create table "entries" ("id" serial primary key, "user_id" integer not null references "users" ("id") on delete cascade, "date" varchar(10) not null, "distance_m" integer not null, "seconds" integer not null, "speed" double precision not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "entries_user_date_idx" on "entries" ("user_id", "date", "id")`,
    `create index "entries_user_speed_idx" on "entries" ("user_id", "speed")`,
    `create index "entries_user_distance_idx" on "entries" ("user_id", "distance_m")`,
    `create index "entries_user_seconds_idx" on "entries" ("user_id", "seconds")`,
    `create index "entries_all_idx" on "entries" ("date", "distance_m", "id")`,
    `create index "entries_fastest_idx" on "entries" ("speed" desc, "id" asc)`,
    `create index "entries_longest_idx" on "entries" ("distance_m" desc, "id" asc)`,
    `create table "tokens" ("id" serial primary key, "user_id" integer not null references "users" ("id") on delete cascade, "token_hash" varchar(64) not null unique, "created_at" varchar(32) not null, "last_used_at" varchar(32) not null)`,
    `create index "tokens_user_idx" on "tokens" ("user_id")`,
    `create index "tokens_last_used_idx" on "tokens" ("last_used_at")`,
    `create table "throttles" ("key" varchar(600) primary key, "hits" integer not null, "window_start" bigint not null)`,
    `create index "throttles_window_idx" on "throttles" ("window_start")`,
    `create table "counters" ("name" varchar(32) primary key, "value" bigint not null)`,
    `insert into counters (name, value) values ('users', 0), ('entries', 0)`,
    // Without the pg_trgm extension (not installed, or no right to create it) search reads the table.
    {
      ifPossible: [
        `create extension if not exists pg_trgm`,
        `create index users_search_idx on users
      using gin (lower(name || chr(10) || email) gin_trgm_ops) with (fastupdate = off)`,
      ],
    },
    `create table "entry_days" ("date" varchar(10) primary key, "n" integer not null)`,
    `create table "entry_months" ("user_id" integer not null references "users" ("id") on delete cascade, "month" varchar(7) not null, "n" integer not null, constraint "entry_months_pk" primary key ("user_id", "month"))`,
    `create table "user_days" ("day" varchar(10) primary key, "n" integer not null)`,
    `create function entries_buckets() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then 
    update entry_days set n = n - 1 where date = old.date;
    update entry_months set n = n - 1 where user_id = old.user_id and month = substr(old.date, 1, 7); end if;
         if tg_op in ('INSERT', 'UPDATE') then 
    insert into entry_days (date, n) values (new.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n) values (new.user_id, substr(new.date, 1, 7), 1)
      on conflict (user_id, month) do update set n = entry_months.n + 1; end if;
         return null;
       end $$`,
    `create trigger entries_buckets after insert or delete or update of date, user_id on entries
       for each row execute function entries_buckets()`,
    `create function users_buckets() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then 
    update user_days set n = n - 1 where day = substr(old.created_at, 1, 10); end if;
         if tg_op in ('INSERT', 'UPDATE') then 
    insert into user_days (day, n) values (substr(new.created_at, 1, 10), 1)
      on conflict (day) do update set n = user_days.n + 1; end if;
         return null;
       end $$`,
    `create trigger users_buckets after insert or delete or update of created_at on users
       for each row execute function users_buckets()`,
    `create table "jobs" ("name" varchar(64) primary key, "last_run" varchar(32) not null)`,
  ],
};

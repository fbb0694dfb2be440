/** Versioned schema migrations, applied in order at start-up. */
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './connection.js';
import { addEffortSql, backfillEffortsSql, EFFORT_COLUMNS, effortKeySql, removeEffortSql } from './efforts.js';
import { DatabaseOpenError, isDatabaseDown } from './errors.js';
import { RUN_BLOCK_M } from './tallies.js';
import { addUserSearchText } from './user-search.js';

type Step = (db: Kysely<unknown>, dialect: Dialect) => Promise<void>;

function idType(dialect: Dialect) {
  return dialect === 'postgres' ? 'serial' : 'integer';
}

const steps: Record<string, Step> = {
  async '001-initial'(db, dialect) {
    await db.schema
      .createTable('users')
      .addColumn('id', idType(dialect), (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
      .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('user'))
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull().defaultTo('UTC'))
      .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('entry_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    // Users list: newest first. New users this week/month: a range on created_at.
    await db.schema.createIndex('users_created_idx').on('users').columns(['created_at desc', 'id desc']).execute();
    // Admin count for the last-admin rule.
    await db.schema.createIndex('users_role_idx').on('users').columns(['role', 'id']).execute();

    await db.schema
      .createTable('entries')
      .addColumn('id', idType(dialect), (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('distance_m', 'integer', (c) => c.notNull())
      .addColumn('seconds', 'integer', (c) => c.notNull())
      .addColumn('speed', 'double precision', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    // Own list (date desc, id desc), date filters, dashboard week, weekly report, min/max year.
    await db.schema.createIndex('entries_user_date_idx').on('entries').columns(['user_id', 'date', 'id']).execute();
    // Own best results.
    await db.schema.createIndex('entries_user_speed_idx').on('entries').columns(['user_id', 'speed']).execute();
    await db.schema.createIndex('entries_user_distance_idx').on('entries').columns(['user_id', 'distance_m']).execute();
    await db.schema.createIndex('entries_user_seconds_idx').on('entries').columns(['user_id', 'seconds']).execute();
    // Everyone's list: date desc, distance desc, id desc.
    await db.schema.createIndex('entries_all_idx').on('entries').columns(['date', 'distance_m', 'id']).execute();
    // Admin dashboard: fastest and longest run, ties to the lowest id.
    await db.schema.createIndex('entries_fastest_idx').on('entries').columns(['speed desc', 'id asc']).execute();
    await db.schema.createIndex('entries_longest_idx').on('entries').columns(['distance_m desc', 'id asc']).execute();

    await db.schema
      .createTable('tokens')
      .addColumn('id', idType(dialect), (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('tokens_user_idx').on('tokens').column('user_id').execute();
    // Housekeeping forgets idle tokens by a range on last use.
    await db.schema.createIndex('tokens_last_used_idx').on('tokens').column('last_used_at').execute();

    await db.schema
      .createTable('throttles')
      .addColumn('key', 'varchar(600)', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('throttles_window_idx').on('throttles').column('window_start').execute();

    await db.schema
      .createTable('counters')
      .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into counters (name, value) values ('users', 0), ('entries', 0)`.execute(db);

    await createSearchIndex(db, dialect);
    await createBuckets(db, dialect);

    await db.schema
      .createTable('jobs')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('last_run', 'varchar(32)', (c) => c.notNull())
      .execute();
  },

  /**
   * Runs carry more (CONTRACT.md §8): title, notes, kind, effort and a shoe. Shoes (§11) with
   * their distance and runs, and each runner's daily totals (runner_days) for insights and
   * goals, both kept by triggers (docs/decisions/010).
   */
  async '002-runs-carry-more'(db, dialect) {
    await db.schema
      .createTable('shoes')
      .addColumn('id', idType(dialect), (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      .addColumn('brand', 'varchar(100)')
      .addColumn('limit_km', 'double precision', (c) => c.notNull().defaultTo(700))
      .addColumn('retired', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('distance_m', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('shoes_user_idx').on('shoes').columns(['user_id', 'id']).execute();
    // At most one default shoe per runner, whatever the races.
    await sql`create unique index shoes_one_default_idx on shoes (user_id) where is_default = 1`.execute(db);

    await db.schema.alterTable('entries').addColumn('title', 'varchar(100)').execute();
    await db.schema.alterTable('entries').addColumn('notes', 'text').execute();
    await db.schema.alterTable('entries').addColumn('kind', 'varchar(16)').execute();
    await db.schema.alterTable('entries').addColumn('effort', 'integer').execute();
    await db.schema
      .alterTable('entries')
      .addColumn('shoe_id', 'integer', (c) => c.references('shoes.id').onDelete('set null'))
      .execute();
    // Deleting a shoe finds its runs through this index (only runs with a shoe are in it).
    await sql`create index entries_shoe_idx on entries (shoe_id) where shoe_id is not null`.execute(db);

    await db.schema
      .createTable('runner_days')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('runs', 'integer', (c) => c.notNull())
      .addColumn('distance_m', 'bigint', (c) => c.notNull())
      .addColumn('seconds', 'bigint', (c) => c.notNull())
      // Sum of effort x seconds over the runs with an effort; the seconds and count of those without.
      .addColumn('effort_seconds', 'bigint', (c) => c.notNull())
      .addColumn('unrated_seconds', 'bigint', (c) => c.notNull())
      .addColumn('unrated_runs', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('runner_days_pk', ['user_id', 'date'])
      .execute();
    await createRunTallies(db, dialect);
  },

  /**
   * Insights (CONTRACT.md §10): each run that counts for a standard distance, kept by triggers
   * (db/efforts.ts), so that records read a runner's few counting runs instead of all their runs.
   */
  async '003-insights'(db, dialect) {
    await db.schema
      .createTable('runner_efforts')
      .addColumn('entry_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('key', 'varchar(16)', (c) => c.notNull())
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('distance_m', 'integer', (c) => c.notNull())
      .addColumn('seconds', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('runner_efforts_pk', ['entry_id', 'key'])
      .execute();
    // A runner's records: their counting runs in (date, id) order.
    await db.schema
      .createIndex('runner_efforts_user_idx')
      .on('runner_efforts')
      .columns(['user_id', 'date', 'entry_id'])
      .execute();
    await sql.raw(backfillEffortsSql(0)).execute(db);
    await createRowTriggers(db, dialect, {
      name: 'entries_efforts',
      table: 'entries',
      updateOf: EFFORT_COLUMNS,
      add: addEffortSql,
      remove: removeEffortSql,
    });
  },
  /** Goals (CONTRACT.md §11): a runner's weekly, monthly and yearly targets. */
  async '004-goals'(db, dialect) {
    await db.schema
      .createTable('goals')
      .addColumn('id', idType(dialect), (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('period', 'varchar(8)', (c) => c.notNull())
      .addColumn('metric', 'varchar(8)', (c) => c.notNull())
      .addColumn('target', 'double precision', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('goals_user_idx').on('goals').columns(['user_id', 'id']).execute();
  },

  /**
   * Each runner's month buckets also add up distance and time, so that monthly and yearly
   * totals (goals, the year in review) read at most 12 rows a year, never a day per run.
   * The entries_buckets triggers are recreated to keep the sums, and follow distance and time.
   */
  async '007-month-totals'(db, dialect) {
    await db.schema
      .alterTable('entry_months')
      .addColumn('distance_m', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('entry_months')
      .addColumn('seconds', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update entry_months set
      distance_m = (select coalesce(sum(d.distance_m), 0) from runner_days d
        where d.user_id = entry_months.user_id and d.date >= entry_months.month || '-01' and d.date <= entry_months.month || '-31'),
      seconds = (select coalesce(sum(d.seconds), 0) from runner_days d
        where d.user_id = entry_months.user_id and d.date >= entry_months.month || '-01' and d.date <= entry_months.month || '-31')`.execute(
      db,
    );
    if (dialect === 'sqlite') {
      for (const event of ['insert', 'delete', 'update'])
        await sql.raw(`drop trigger entries_buckets_${event}`).execute(db);
    } else {
      await sql`drop trigger entries_buckets on entries`.execute(db);
      await sql`drop function entries_buckets()`.execute(db);
    }
    await createRowTriggers(db, dialect, {
      name: 'entries_buckets',
      table: 'entries',
      updateOf: 'date, user_id, distance_m, seconds',
      add: (row) => addRunToBuckets(row, true),
      remove: (row) => removeRunFromBuckets(row, true),
    });
  },

  /**
   * Preferences and personal API tokens (CONTRACT.md §11): each user's units and theme; tokens
   * gain a kind (`sign-in`: §6's idle expiry; `personal`: a name, a scope, an optional expiry
   * and a last use that stays null until the first one).
   */
  async '006-preferences-and-tokens'(db, dialect) {
    await db.schema
      .alterTable('users')
      .addColumn('units', 'varchar(2)', (c) => c.notNull().defaultTo('km'))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('theme', 'varchar(8)', (c) => c.notNull().defaultTo('auto'))
      .execute();
    if (dialect === 'postgres') {
      await sql`alter table tokens
        add column kind varchar(16) not null default 'sign-in',
        add column name varchar(100),
        add column scope varchar(8),
        add column expires_at varchar(32),
        alter column last_used_at drop not null`.execute(db);
    } else {
      // SQLite cannot drop a NOT NULL: the table is rebuilt with the same rows and ids.
      await sql`create table tokens_v6 (
        id integer primary key autoincrement,
        user_id integer not null references users (id) on delete cascade,
        token_hash varchar(64) not null unique,
        kind varchar(16) not null default 'sign-in',
        name varchar(100),
        scope varchar(8),
        created_at varchar(32) not null,
        last_used_at varchar(32),
        expires_at varchar(32)
      )`.execute(db);
      await sql`insert into tokens_v6 (id, user_id, token_hash, created_at, last_used_at)
        select id, user_id, token_hash, created_at, last_used_at from tokens`.execute(db);
      await sql`drop table tokens`.execute(db);
      await sql`alter table tokens_v6 rename to tokens`.execute(db);
      await db.schema.createIndex('tokens_user_idx').on('tokens').column('user_id').execute();
      await db.schema.createIndex('tokens_last_used_idx').on('tokens').column('last_used_at').execute();
    }
    // Housekeeping forgets expired personal tokens by a range on expires_at.
    await sql`create index tokens_expires_idx on tokens (expires_at) where expires_at is not null`.execute(db);
  },

  /**
   * Each runner's insights revision (decision 017): a number that moves in the writing
   * transaction of every insert, update (any column) or delete of one of their runs, so that an
   * answer computed at a revision is known to be current while the revision stands, in every
   * process. No row reads as revision 0 (a runner without writes since this step, or seeded with
   * the triggers off). A deleted runner's row goes with them; the `exists` keeps a cascade of
   * that deletion from writing it again. SQLite bumps per row (an update in place); PostgreSQL
   * per statement and runner, from the transition tables, so that an import of many runs does not
   * stack row versions of one row in one transaction.
   */
  async '008-insight-revisions'(db, dialect) {
    await db.schema
      .createTable('insight_revisions')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('revision', 'bigint', (c) => c.notNull())
      .execute();
    const bump = (users: string) => `
      insert into insight_revisions (user_id, revision)
        select r.user_id, 1 from (${users}) r where exists (select 1 from users u where u.id = r.user_id)
        order by r.user_id
      on conflict (user_id) do update set revision = insight_revisions.revision + 1;`;
    if (dialect === 'sqlite') {
      const one = (row: 'new' | 'old') => bump(`select ${row}.user_id as user_id`);
      await sql
        .raw(`create trigger entries_revisions_insert after insert on entries begin ${one('new')} end`)
        .execute(db);
      await sql
        .raw(`create trigger entries_revisions_delete after delete on entries begin ${one('old')} end`)
        .execute(db);
      await sql
        .raw(
          `create trigger entries_revisions_update after update on entries begin ${bump(
            'select old.user_id as user_id union select new.user_id',
          )} end`,
        )
        .execute(db);
      return;
    }
    for (const [event, tables, users] of [
      ['insert', 'new table as changed', 'select distinct user_id from changed'],
      ['delete', 'old table as changed', 'select distinct user_id from changed'],
      [
        'update',
        'old table as before new table as after',
        'select user_id from before union select user_id from after',
      ],
    ] as const) {
      await sql
        .raw(
          `create function entries_revisions_${event}() returns trigger language plpgsql as $$
           begin ${bump(users)} return null; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger entries_revisions_${event} after ${event} on entries referencing ${tables}
           for each statement execute function entries_revisions_${event}()`,
        )
        .execute(db);
    }
  },

  /** The users search on a stored, folded text, found alike by both databases (user-search.ts). */
  async '009-user-search-text'(db, dialect) {
    await addUserSearchText(db, dialect);
  },

  /**
   * A second level under the day buckets, and one above them, for everyone's list
   * (decision 010): runs per day and whole kilometre of distance (`entry_blocks`, the
   * list's order within a day is distance desc) and runs per month (`entry_all_months`). A
   * deep page sums at most a few dozen month, day and block rows and skips at most one
   * block's runs. The entries_buckets triggers are recreated to keep both.
   */
  async '010-run-blocks'(db, dialect) {
    await db.schema
      .createTable('entry_blocks')
      .addColumn('date', 'varchar(10)', (c) => c.notNull())
      .addColumn('block', 'integer', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('entry_blocks_pk', ['date', 'block'])
      .execute();
    await db.schema
      .createTable('entry_all_months')
      .addColumn('month', 'varchar(7)', (c) => c.primaryKey())
      .addColumn('n', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into entry_blocks (date, block, n)
      select date, distance_m / ${sql.lit(RUN_BLOCK_M)}, count(*) from entries group by date, distance_m / ${sql.lit(RUN_BLOCK_M)}`.execute(
      db,
    );
    await sql`insert into entry_all_months (month, n)
      select substr(date, 1, 7), sum(n) from entry_days group by substr(date, 1, 7)`.execute(db);
    if (dialect === 'sqlite') {
      for (const event of ['insert', 'delete', 'update'])
        await sql.raw(`drop trigger entries_buckets_${event}`).execute(db);
    } else {
      await sql`drop trigger entries_buckets on entries`.execute(db);
      await sql`drop function entries_buckets()`.execute(db);
    }
    await createRowTriggers(db, dialect, {
      name: 'entries_buckets',
      table: 'entries',
      updateOf: 'date, user_id, distance_m, seconds',
      add: (row) => `${addRunToBuckets(row, true)} ${addRunToBlocks(row)}`,
      remove: (row) => `${removeRunFromBuckets(row, true)} ${removeRunFromBlocks(row)}`,
    });
  },

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
   */
  async '011-ordered-tally-writes'(db, dialect) {
    if (dialect === 'sqlite') return;
    for (const name of ['entries_buckets', 'entries_tallies', 'entries_efforts']) {
      await sql.raw(`drop trigger ${name} on entries`).execute(db);
      await sql.raw(`drop function ${name}()`).execute(db);
    }
    await orderedTallyTriggers(db);
  },

  /**
   * The users list's deep pages and the search's totals (decision 011): sign-ups per month
   * (`user_months`) above the day buckets and per hour (`user_hours`) below them, so that a
   * page seeks through a few dozen rows of each and skips at most one hour's sign-ups; and
   * `user_revisions`, one row that every insert, deletion and change of a user's search text
   * or creation time moves (the key of the search's remembered totals). Triggers
   * `users_list_buckets` and `users_revision`.
   */
  async '012-users-list-keys'(db, dialect) {
    await createUserListKeys(db, dialect);
  },

  /**
   * SQLite: the buckets the deep pages seek through read from their index alone. A deep page
   * of everyone's runs reads the months, then one month's days, then one day's blocks, newest
   * first (tallies.ts seekRun), a deep page of users the months, days and hours of sign-ups;
   * with `n` in the index a step no longer looks up the row.
   * PostgreSQL answers that seek in one statement and keeps its indexes.
   */
  async '013-tally-covering-indexes'(db, dialect) {
    if (dialect !== 'sqlite') return;
    await sql`create index entry_all_months_cover on entry_all_months (month, n)`.execute(db);
    await sql`create index entry_days_cover on entry_days (date, n)`.execute(db);
    await sql`create index entry_blocks_cover on entry_blocks (date, block, n)`.execute(db);
    await sql`create index user_months_cover on user_months (month, n)`.execute(db);
    await sql`create index user_days_cover on user_days (day, n)`.execute(db);
    await sql`create index user_hours_cover on user_hours (hour, n)`.execute(db);
  },

  /**
   * SQLite: `run_revisions`, one row that every insert and deletion of a run, and every change
   * of its date or distance, moves (trigger `entries_revision`): everything the buckets of
   * everyone's runs (days, months, blocks) count. A deep page of everyone's runs remembers the
   * bucket lists it sought through at a revision (tallies.ts seekRun), and a page read at the
   * same revision needs no bucket read. PostgreSQL has it since step 015.
   */
  async '014-runs-revision'(db, dialect) {
    if (dialect !== 'sqlite') return;
    await createRevision(db, dialect, {
      table: 'run_revisions',
      trigger: 'entries_revision',
      of: 'entries',
      updateOf: 'date, distance_m',
    });
  },

  /**
   * PostgreSQL: the runs' revision too (`run_revisions`, as step 014 on SQLite), moved once per
   * statement that inserts or deletes runs or changes a run's date or distance, by the statement
   * triggers `entries_revision_insert|_delete|_update`. They fire after entries_ordered_tallies_*
   * (names in order), which have already locked the `entries` counter row that every writer of
   * runs queues on: the revision's row is always locked after it, so it adds no wait and no
   * deadlock. A deep page of everyone's runs then seeks through remembered bucket lists
   * (tallies.ts RememberedLists), as on SQLite.
   */
  async '015-runs-revision-postgres'(db, dialect) {
    if (dialect !== 'postgres') return;
    await createRevisionTable(db, 'run_revisions');
    const moved: Record<RunEvent, string> = {
      insert: 'select 1 from added',
      delete: 'select 1 from removed',
      update: movedRuns('update', ['date', 'distance_m']),
    };
    for (const event of ['insert', 'delete', 'update'] as const) {
      await createRunStatementTrigger(
        db,
        `entries_revision_${event}`,
        event,
        `if exists (${moved[event]}) then ${LOCK_TALLIES} ${bumpRevision('run_revisions')} end if;`,
      );
    }
  },

  /**
   * PostgreSQL: the admin dashboard counts the users of a partial hour (an instant off the
   * whole hour, in a zone such as UTC+05:30) by that hour and a range of creation times
   * (tallies.ts signupTotals). Its plan for any values guessed the range alone at 0.5% of the
   * users and cost more than planning each request, so the dashboard was planned on every
   * request (0.61-0.69 ms a call at 100,000 users, 1,031 custom plans and no generic one). With
   * the hour indexed, that plan reads one hour's users, and is kept (0.37-0.40 ms, 1,026
   * generic plans). SQLite plans each statement once whatever its values.
   */
  async '016-users-created-hour-postgres'(db, dialect) {
    if (dialect !== 'postgres') return;
    await sql`create index users_created_hour_idx on users (substr(created_at, 1, 13), created_at)`.execute(db);
  },

  /**
   * CONTRACT.md §18: how the web app writes a runner's paces and dates, and the distance a shoe
   * had before it was tracked here (counted in its distance and against its limit).
   */
  async '017-formats-and-shoe-start'(db) {
    await sql`alter table users add column pace_format varchar(8) not null default 'decimal'`.execute(db);
    await sql`alter table users add column date_format varchar(10) not null default 'MM/DD/YYYY'`.execute(db);
    await sql`alter table shoes add column start_km double precision not null default 0`.execute(db);
  },
};

/** The statement that moves a revision (user_revisions, run_revisions). */
const bumpRevision = (table: 'user_revisions' | 'run_revisions') =>
  `update ${table} set revision = revision + 1 where id = 1;`;

/** SQLite: the statement that moves the runs' revision (step 014; the seed runs it after its bulk load). */
export const BUMP_RUNS_REVISION = bumpRevision('run_revisions');

/**
 * A revision: a table of one row (`id` 1) that row triggers `trigger` move with every insert
 * and deletion of a row of `of`, and every change of its columns `updateOf`.
 */
async function createRevision(
  db: Kysely<unknown>,
  dialect: Dialect,
  revision: { table: 'user_revisions' | 'run_revisions'; trigger: string; of: string; updateOf: string },
): Promise<void> {
  await createRevisionTable(db, revision.table);
  const bump = bumpRevision(revision.table);
  await createRowTriggers(db, dialect, {
    name: revision.trigger,
    table: revision.of,
    updateOf: revision.updateOf,
    add: () => bump,
    remove: () => bump,
  });
}

/** A revision's table: one row, `id` 1, at revision 1. */
async function createRevisionTable(db: Kysely<unknown>, table: 'user_revisions' | 'run_revisions'): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into ${sql.table(table)} (id, revision) values (1, 1)`.execute(db);
}

async function createUserListKeys(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('user_months')
    .addColumn('month', 'varchar(7)', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('user_hours')
    .addColumn('hour', 'varchar(13)', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into user_months (month, n) select substr(day, 1, 7), sum(n) from user_days group by substr(day, 1, 7)`.execute(
    db,
  );
  await sql`insert into user_hours (hour, n) select substr(created_at, 1, 13), count(*) from users group by substr(created_at, 1, 13)`.execute(
    db,
  );
  await createRowTriggers(db, dialect, {
    name: 'users_list_buckets',
    table: 'users',
    updateOf: 'created_at',
    add: (row) => `
      insert into user_months (month, n) values (substr(${row}.created_at, 1, 7), 1)
        on conflict (month) do update set n = user_months.n + 1;
      insert into user_hours (hour, n) values (substr(${row}.created_at, 1, 13), 1)
        on conflict (hour) do update set n = user_hours.n + 1;`,
    remove: (row) => `
      update user_months set n = n - 1 where month = substr(${row}.created_at, 1, 7);
      update user_hours set n = n - 1 where hour = substr(${row}.created_at, 1, 13);`,
  });
  await createRevision(db, dialect, {
    table: 'user_revisions',
    trigger: 'users_revision',
    of: 'users',
    updateOf: 'search_text, created_at',
  });
}

/**
 * Substring search over users' names and e-mails without reading every user.
 * SQLite: an FTS5 table with the trigram tokenizer, kept in step by triggers; a quoted
 * phrase of three or more characters matches exactly the documents that contain it.
 * PostgreSQL: a pg_trgm GIN index for LIKE on the same text, without a pending list
 * (fastupdate off), which would otherwise slow every search until the next vacuum. Without the pg_trgm extension
 * (not installed, or no right to create it) search still works, by reading the table.
 * The document is `name`, a newline and `email`: a query (no control characters) never
 * matches across the two.
 */
async function createSearchIndex(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table users_search using fts5(doc, tokenize = 'trigram')`.execute(db);
    await sql`create trigger users_search_insert after insert on users begin
        insert into users_search (rowid, doc) values (new.id, new.name || char(10) || new.email);
      end`.execute(db);
    await sql`create trigger users_search_update after update of name, email on users begin
        update users_search set doc = new.name || char(10) || new.email where rowid = new.id;
      end`.execute(db);
    await sql`create trigger users_search_delete after delete on users begin
        delete from users_search where rowid = old.id;
      end`.execute(db);
    return;
  }
  await sql`savepoint search_index`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index users_search_idx on users
      using gin (lower(name || chr(10) || email) gin_trgm_ops) with (fastupdate = off)`.execute(db);
    await sql`release savepoint search_index`.execute(db);
  } catch {
    await sql`rollback to savepoint search_index`.execute(db);
  }
}

/** A run (`new`) added to its day's and its runner's month's buckets (count, distance, time). */
function addRunToBuckets(row: string, withSums: boolean): string {
  const sums = withSums ? ', distance_m, seconds' : '';
  const values = withSums ? `, ${row}.distance_m, ${row}.seconds` : '';
  const onConflict = withSums
    ? ', distance_m = entry_months.distance_m + excluded.distance_m, seconds = entry_months.seconds + excluded.seconds'
    : '';
  return `
    insert into entry_days (date, n) values (${row}.date, 1)
      on conflict (date) do update set n = entry_days.n + 1;
    insert into entry_months (user_id, month, n${sums}) values (${row}.user_id, substr(${row}.date, 1, 7), 1${values})
      on conflict (user_id, month) do update set n = entry_months.n + 1${onConflict};`;
}

/** A run (`new`) added to, or (`old`) taken out of, its block and its month of everyone's runs. */
function addRunToBlocks(row: string): string {
  return `
    insert into entry_blocks (date, block, n) values (${row}.date, ${row}.distance_m / ${RUN_BLOCK_M}, 1)
      on conflict (date, block) do update set n = entry_blocks.n + 1;
    insert into entry_all_months (month, n) values (substr(${row}.date, 1, 7), 1)
      on conflict (month) do update set n = entry_all_months.n + 1;`;
}
function removeRunFromBlocks(row: string): string {
  return `
    update entry_blocks set n = n - 1 where date = ${row}.date and block = ${row}.distance_m / ${RUN_BLOCK_M};
    update entry_all_months set n = n - 1 where month = substr(${row}.date, 1, 7);`;
}

/** A run (`old`) taken out of the same buckets. */
function removeRunFromBuckets(row: string, withSums: boolean): string {
  const sums = withSums ? `, distance_m = distance_m - ${row}.distance_m, seconds = seconds - ${row}.seconds` : '';
  return `
    update entry_days set n = n - 1 where date = ${row}.date;
    update entry_months set n = n - 1${sums} where user_id = ${row}.user_id and month = substr(${row}.date, 1, 7);`;
}

/**
 * Bucket counts, so that deep pages and range totals never read what they skip:
 * runs per day (everyone's list), runs per user and month (a runner's own list) and
 * sign-ups per UTC day (the users list, new users this week or month). Triggers keep
 * them in step with every write, in the writing transaction, cascades included.
 */
async function createBuckets(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('entry_days')
    .addColumn('date', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('entry_months')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_months_pk', ['user_id', 'month'])
    .execute();
  await db.schema
    .createTable('user_days')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();

  const addUser = (row: string) => `
    insert into user_days (day, n) values (substr(${row}.created_at, 1, 10), 1)
      on conflict (day) do update set n = user_days.n + 1;`;
  const removeUser = (row: string) => `
    update user_days set n = n - 1 where day = substr(${row}.created_at, 1, 10);`;

  await createRowTriggers(db, dialect, {
    name: 'entries_buckets',
    table: 'entries',
    updateOf: 'date, user_id',
    add: (row) => addRunToBuckets(row, false),
    remove: (row) => removeRunFromBuckets(row, false),
  });
  await createRowTriggers(db, dialect, {
    name: 'users_buckets',
    table: 'users',
    updateOf: 'created_at',
    add: addUser,
    remove: removeUser,
  });
}

/** The statements that add a run (`new`) to, or take it (`old`) out of, runner_days and its shoe. */
export function runTallyStatements(row: 'new' | 'old', sign: 1 | -1): string {
  const unrated = `case when ${row}.effort is null then 1 else 0 end`;
  const values = [
    `${row}.distance_m`,
    `${row}.seconds`,
    `coalesce(${row}.effort, 0) * ${row}.seconds`,
    `${unrated} * ${row}.seconds`,
    unrated,
  ];
  const day =
    sign === 1
      ? `insert into runner_days (user_id, date, runs, distance_m, seconds, effort_seconds, unrated_seconds, unrated_runs)
           values (${row}.user_id, ${row}.date, 1, ${values.join(', ')})
         on conflict (user_id, date) do update set runs = runner_days.runs + 1,
           distance_m = runner_days.distance_m + excluded.distance_m, seconds = runner_days.seconds + excluded.seconds,
           effort_seconds = runner_days.effort_seconds + excluded.effort_seconds,
           unrated_seconds = runner_days.unrated_seconds + excluded.unrated_seconds,
           unrated_runs = runner_days.unrated_runs + excluded.unrated_runs;`
      : `update runner_days set runs = runs - 1, distance_m = distance_m - ${values[0]}, seconds = seconds - ${values[1]},
           effort_seconds = effort_seconds - ${values[2]}, unrated_seconds = unrated_seconds - ${values[3]},
           unrated_runs = unrated_runs - ${values[4]}
         where user_id = ${row}.user_id and date = ${row}.date;`;
  const op = sign === 1 ? '+' : '-';
  const shoe = `update shoes set distance_m = distance_m ${op} ${row}.distance_m, runs = runs ${op} 1
    where id = ${row}.shoe_id;`;
  return `${day} ${shoe}`;
}

/**
 * Each runner's daily totals and each shoe's distance and runs follow every write of a run
 * (cascades included) in the writing transaction, like the buckets above.
 */
async function createRunTallies(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await createRowTriggers(db, dialect, {
    name: 'entries_tallies',
    table: 'entries',
    updateOf: 'date, user_id, distance_m, seconds, effort, shoe_id',
    add: (row) => runTallyStatements(row, 1),
    remove: (row) => runTallyStatements(row, -1),
  });
}

/**
 * Row triggers that keep a tally in step with a table, in the writing transaction: `add`
 * runs for an inserted row (`new`), `remove` for a deleted one (`old`), and both for an
 * update of `updateOf`. SQLite gets three triggers `<name>_insert|_delete|_update`;
 * PostgreSQL one function and one trigger `<name>`. The names are listed in decision 010.
 */
async function createRowTriggers(
  db: Kysely<unknown>,
  dialect: Dialect,
  trigger: {
    name: string;
    table: string;
    updateOf: string;
    add: (row: 'new') => string;
    remove: (row: 'old') => string;
  },
): Promise<void> {
  const { name, table, updateOf, add, remove } = trigger;
  if (dialect === 'sqlite') {
    await sql.raw(`create trigger ${name}_insert after insert on ${table} begin ${add('new')} end`).execute(db);
    await sql.raw(`create trigger ${name}_delete after delete on ${table} begin ${remove('old')} end`).execute(db);
    await sql
      .raw(
        `create trigger ${name}_update after update of ${updateOf} on ${table} begin ${remove('old')} ${add('new')} end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $$
       begin
         if tg_op in ('DELETE', 'UPDATE') then ${remove('old')} end if;
         if tg_op in ('INSERT', 'UPDATE') then ${add('new')} end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${name} after insert or delete or update of ${updateOf} on ${table}
       for each row execute function ${name}()`,
    )
    .execute(db);
}

type RunEvent = 'insert' | 'delete' | 'update';

/** The columns of a run that its tallies (buckets, runner_days, its shoe) depend on. */
const RUN_TALLY_COLUMNS = ['date', 'user_id', 'distance_m', 'seconds', 'effort', 'shoe_id'];
const RUN_COLUMNS = ['id', 'user_id', 'date', 'distance_m', 'seconds', 'effort', 'shoe_id'];

/** Taken before any tally moves, held to the commit: writers of runs queue here (step 011). */
const LOCK_TALLIES = `perform 1 from counters where name = 'entries' for no key update;`;
/**
 * An insert or a deletion of runs first locks their runners' rows (in id order), which it
 * writes later (users.entry_count): a runner's deletion and an import lock the runner first too.
 */
const lockRunners = (table: 'added' | 'removed') =>
  `perform 1 from users where id in (select user_id from ${table}) order by id for no key update;`;

/**
 * The runs a statement on entries moved, as a query over its transition tables (`added`,
 * `removed`): one row per run and direction, `s` 1 for a run added and -1 for one taken out.
 * An update moves only the runs whose `columns` changed, out of their old values into the new.
 */
function movedRuns(event: RunEvent, columns: string[]): string {
  const list = RUN_COLUMNS.join(', ');
  if (event === 'insert') return `select ${list}, 1 as s from added`;
  if (event === 'delete') return `select ${list}, -1 as s from removed`;
  const of = (t: string) => RUN_COLUMNS.map((c) => `${t}.${c}`).join(', ');
  const changed = (t: string) => columns.map((c) => `${t}.${c}`).join(', ');
  return `select v.* from removed r join added a on a.id = r.id
    cross join lateral (values (${of('r')}, -1), (${of('a')}, 1)) as v(${list}, s)
    where (${changed('r')}) is distinct from (${changed('a')})`;
}

/** Deltas of one tally table: rows of (`keys`, sums) with a change, in key order, added on conflict. */
function tallyUpsert(
  table: string,
  keys: string[],
  sums: Record<string, string>,
  options: { from: string; keyOf?: Record<string, string>; onlyExisting?: boolean },
): string {
  const names = Object.keys(sums);
  const keyOf = (k: string) => `${options.keyOf?.[k] ?? k} as ${k}`;
  const match = keys.map((k) => `x.${k} = t.${k}`).join(' and ');
  // A negative delta for a row that is gone (its runner's rows deleted by the same cascade) is dropped.
  const gone = options.onlyExisting
    ? ` and (t.${names[0]} > 0 or exists (select 1 from ${table} x where ${match}))`
    : '';
  return `insert into ${table} (${[...keys, ...names].join(', ')})
    select ${[...keys, ...names].join(', ')} from (
      select ${keys.map(keyOf).join(', ')}, ${names.map((n) => `sum(${sums[n]}) as ${n}`).join(', ')}
      from ${options.from} group by ${keys.map((_, i) => i + 1).join(', ')}
    ) t
    where (${names.map((n) => `t.${n} <> 0`).join(' or ')})${gone}
    order by ${keys.join(', ')}
    on conflict (${keys.join(', ')}) do update set ${names.map((n) => `${n} = ${table}.${n} + excluded.${n}`).join(', ')}`;
}

/** One statement: everyone's months, days and blocks, and each runner's months, from `moves`. */
function runBucketsSql(moves: string): string {
  const month = { month: 'substr(date, 1, 7)' };
  return `with m as materialized (${moves}),
    all_months as (${tallyUpsert('entry_all_months', ['month'], { n: 's' }, { from: 'm', keyOf: month })}),
    days as (${tallyUpsert('entry_days', ['date'], { n: 's' }, { from: 'm' })}),
    blocks as (${tallyUpsert('entry_blocks', ['date', 'block'], { n: 's' }, { from: 'm', keyOf: { block: `distance_m / ${RUN_BLOCK_M}` } })})
    ${tallyUpsert('entry_months', ['user_id', 'month'], { n: 's', distance_m: 's * distance_m', seconds: 's * seconds' }, { from: 'm', keyOf: month, onlyExisting: true })};`;
}

/** One statement: each runner's daily totals (as runTallyStatements) and each shoe's distance and runs. */
function runTalliesSql(moves: string): string {
  const unrated = 'case when effort is null then 1 else 0 end';
  const days = tallyUpsert(
    'runner_days',
    ['user_id', 'date'],
    {
      runs: 's',
      distance_m: 's * distance_m',
      seconds: 's * seconds',
      effort_seconds: 's * coalesce(effort, 0) * seconds',
      unrated_seconds: `s * ${unrated} * seconds`,
      unrated_runs: `s * ${unrated}`,
    },
    { from: 'm', onlyExisting: true },
  );
  return `with m as materialized (${moves}),
    worn as (
      update shoes set distance_m = shoes.distance_m + t.distance_m, runs = shoes.runs + t.n
      from (select shoe_id, sum(s) as n, sum(s * distance_m) as distance_m from m where shoe_id is not null group by shoe_id) t
      where shoes.id = t.shoe_id and (t.n <> 0 or t.distance_m <> 0))
    ${days};`;
}

/** runner_efforts rows for the runs `moves` adds that count for a standard distance. */
function addEffortsSql(moves: string): string {
  return `insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select id, user_id, k, date, distance_m, seconds from (
      select m.*, ${effortKeySql('m')} as k from (${moves}) m where m.s > 0
    ) e where k is not null;`;
}

/**
 * PostgreSQL (step 011): the statement triggers `entries_ordered_tallies_insert|_delete|_update`
 * keep everything the row triggers entries_buckets, entries_tallies and entries_efforts kept
 * (their names sort before entries_revisions_*: they fire first). A statement that moved runs
 * (for an update: changed one of RUN_TALLY_COLUMNS) first locks the `entries` counter row,
 * an insert or a deletion its runners' rows before it; then one run is kept by the row triggers' statements
 * (`old`, `new`), and more by one statement per kind of tally, each row moved once, in key order.
 */
async function orderedTallyTriggers(db: Kysely<unknown>): Promise<void> {
  const effortColumns = EFFORT_COLUMNS.split(', ');
  const differ = (columns: string[]) =>
    `(${columns.map((c) => `old.${c}`).join(', ')}) is distinct from (${columns.map((c) => `new.${c}`).join(', ')})`;
  const addOne = `${addRunToBuckets('new', true)} ${addRunToBlocks('new')} ${runTallyStatements('new', 1)}`;
  const removeOne = `${removeRunFromBuckets('old', true)} ${removeRunFromBlocks('old')} ${runTallyStatements('old', -1)}`;
  const many = (event: RunEvent) => {
    const moves = movedRuns(event, RUN_TALLY_COLUMNS);
    const efforts = movedRuns(event, effortColumns);
    return [
      LOCK_TALLIES,
      runBucketsSql(moves),
      runTalliesSql(moves),
      ...(event === 'insert'
        ? []
        : [`delete from runner_efforts where entry_id in (select id from (${efforts}) m where s < 0);`]),
      ...(event === 'delete' ? [] : [addEffortsSql(efforts)]),
    ].join('\n');
  };
  const bodies: Record<RunEvent, string> = {
    insert: `select count(*) into moved from added;
      if moved > 0 then ${lockRunners('added')} end if;
      if moved = 1 then
        select * into new from added;
        ${LOCK_TALLIES} ${addOne} ${addEffortSql('new')}
      elsif moved > 1 then ${many('insert')}
      end if;`,
    delete: `select count(*) into moved from removed;
      if moved > 0 then ${lockRunners('removed')} end if;
      if moved = 1 then
        select * into old from removed;
        ${LOCK_TALLIES} ${removeOne} ${removeEffortSql('old')}
      elsif moved > 1 then ${many('delete')}
      end if;`,
    update: `select count(*) into moved from added;
      if moved = 1 then
        select * into old from removed;
        select * into new from added;
        if ${differ(RUN_TALLY_COLUMNS)} then
          ${LOCK_TALLIES} ${removeOne} ${addOne}
          if ${differ(effortColumns)} then ${removeEffortSql('old')} ${addEffortSql('new')} end if;
        end if;
      elsif exists (${movedRuns('update', RUN_TALLY_COLUMNS)}) then ${many('update')}
      end if;`,
  };
  for (const event of ['insert', 'delete', 'update'] as const) {
    await createRunStatementTrigger(db, `entries_ordered_tallies_${event}`, event, bodies[event], 'moved bigint;');
  }
}

/**
 * PostgreSQL: a statement trigger `name` after `event` on entries, and its function of the same
 * name running `body` (with `declare`d variables), over the transition tables `added` (the
 * runs inserted, or after an update) and `removed` (deleted, or before an update).
 */
async function createRunStatementTrigger(
  db: Kysely<unknown>,
  name: string,
  event: RunEvent,
  body: string,
  declare = '',
): Promise<void> {
  const tables: Record<RunEvent, string> = {
    insert: 'new table as added',
    delete: 'old table as removed',
    update: 'old table as removed new table as added',
  };
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $$
       ${declare ? `declare ${declare}` : ''}
       begin
         ${body}
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${name} after ${event} on entries referencing ${tables[event]}
       for each statement execute function ${name}()`,
    )
    .execute(db);
}

export async function migrate(db: Db): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const migrations: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(steps)) {
        migrations[name] = { up: (kysely) => step(kysely, db.dialect) };
      }
      return migrations;
    },
  };
  const { error, results } = await new Migrator({ db: db.kysely, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (!error && !failed) return;
  const reason = error instanceof Error ? error.message : String(error);
  if (isDatabaseDown(error)) {
    throw new DatabaseOpenError(
      `Cannot reach the database (${reason}); check DATABASE_URL and that the server is running.`,
    );
  }
  const step = failed ? ` ${failed.migrationName}` : '';
  throw new DatabaseOpenError(`The database migration${step} failed: ${reason}`);
}

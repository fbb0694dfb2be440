/** Versioned schema migrations, applied in order at start-up. */
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db, Dialect } from './database.js';

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

    await db.schema
      .createTable('throttles')
      .addColumn('key', 'varchar(600)', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('counters')
      .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into counters (name, value) values ('users', 0), ('entries', 0)`.execute(db);

    await db.schema
      .createTable('jobs')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('last_run', 'varchar(32)', (c) => c.notNull())
      .execute();
  },
};

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
  if (error || failed) {
    throw new Error(
      `Database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`,
    );
  }
}

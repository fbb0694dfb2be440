/**
 * Bulk seeding of a Running Times database (SQLite or PostgreSQL) with realistic runners
 * and runs. The schema comes from the server's own migrations; the password is hashed
 * once with the server's hasher. The rows are written in one transaction, then every tally
 * and the search index are computed from them by the server's own rebuildTallies (the repair
 * command's), in a second one. Tracks, when asked for, come last (seed-tracks.ts), each batch
 * in a transaction of its own through the server's storeTrack, which keeps its tallies: an
 * interrupted seed leaves consistent runs, some of them without their track.
 */
import pg from 'pg';
import type SQLite from 'better-sqlite3';
import type { Config } from '../../server/config.js';
import { contextOf, type AppContext } from '../../server/context.js';
import { openDatabase, type Db } from '../../server/db/connection.js';
import { migrate } from '../../server/db/migrate.js';
import { rebuildTallies } from '../../server/features/entries/entries.service.js';
import { userSearchText } from '../../core/search.js';
import { ensureFirstAdmin, hashPassword, type FirstAdmin } from '../../server/features/users/users.service.js';
import { MAX_TRACK_SECONDS } from './tracks.js';
import { defaultTrackThreads, lastRunId, latestRuns, pickRuns, seedTracks, type SeededTracks } from './seed-tracks.js';
import {
  createRandom,
  entryCounts,
  generateEntries,
  generateUsers,
  longHistoryRunner,
  type Random,
  type SeedUser,
} from './generate.js';

/** The password of every seeded user unless `--password` says otherwise. */
export const DEFAULT_SEED_PASSWORD = 'running-times';

export interface SeedProgress {
  users: number;
  entries: number;
}

export interface SeedOptions {
  users: number;
  entries: number;
  password?: string;
  /** Same seed, same data. */
  randomSeed?: number;
  /** The instant "now" of the generated data (default: the real clock). */
  now?: Date;
  /**
   * Adds one more runner, with a run every day of the last five years (generate.ts,
   * longHistoryRunner): the longest history insights must serve. Off by default.
   */
  longHistoryRunner?: boolean;
  /**
   * Runs of this seed's runners (the long-history runner's aside) that get a synthetic track, one
   * sample a second (tracks.ts), picked at random. Default 0.
   */
  tracks?: number;
  /** The long-history runner's latest runs that get a track (needs `longHistoryRunner`). Default 0. */
  longHistoryTracks?: number;
  /** Worker threads that make and prepare tracks (default: the cores, at most 4; none for a few). */
  trackThreads?: number;
  onProgress?: (done: SeedProgress) => void;
  /** Tracks stored so far, of all asked for. */
  onTrackProgress?: (done: number, total: number) => void;
  /** Phases after the rows are written (index builds, statistics). */
  onStatus?: (message: string) => void;
}

export interface SeedResult {
  users: number;
  entries: number;
  /** The n of the first `user{n}@example.com` written. */
  firstNumber: number;
  /** The e-mail and runs of the long-history runner, when asked for. */
  longHistoryRunner: { email: string; entries: number; tracks: number } | null;
  /** The tracks stored, their samples, and the time they took. */
  tracks: SeededTracks;
  /** The admin created on an empty database (with its generated password, if any). */
  admin: FirstAdmin | null;
  ms: number;
}

/** Users are written in batches of about this many runs, one transaction each. */
const BATCH_ENTRIES = 50_000;
const MAX_BATCH_USERS = 5_000;

interface Batch {
  users: SeedUser[];
  entries: number;
}

interface Writer {
  /** Writes one batch of users and their runs in one transaction; returns the user ids in order. */
  write(
    batch: Batch,
    runs: (user: SeedUser) => ReturnType<typeof generateEntries>,
    passwordHash: string,
  ): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  /** After the tallies: what makes the database fast to read (a checkpoint, fresh statistics). */
  settle(): Promise<void>;
}

/** The highest n among existing `user{n}@example.com`, so that a second run appends. */
async function lastSeededNumber(db: Db): Promise<number> {
  const rows = await db.kysely
    .selectFrom('users')
    .select('email')
    .where('email', 'like', 'user%@example.com')
    .execute();
  let max = 0;
  for (const { email } of rows) {
    const match = /^user(\d+)@example\.com$/.exec(email);
    if (match) max = Math.max(max, Number(match[1]));
  }
  return max;
}

export async function seedDatabase(config: Config, options: SeedOptions): Promise<SeedResult> {
  const started = Date.now();
  if (!Number.isInteger(options.users) || options.users < 0) throw new Error('users must be a whole number >= 0');
  if (!Number.isInteger(options.entries) || options.entries < 0) throw new Error('entries must be a whole number >= 0');
  if (options.entries > 0 && options.users === 0) throw new Error('entries need at least one user');
  const password = options.password ?? DEFAULT_SEED_PASSWORD;
  if (password.length < 8 || password.length > 128) throw new Error('The password must be 8 to 128 characters long.');
  const tracks = options.tracks ?? 0;
  const longTracks = options.longHistoryTracks ?? 0;
  if (!Number.isInteger(tracks) || tracks < 0 || tracks > options.entries)
    throw new Error('tracks must be a whole number from 0 to the number of runs');
  if (!Number.isInteger(longTracks) || longTracks < 0) throw new Error('longHistoryTracks must be a whole number >= 0');
  if (longTracks > 0 && !options.longHistoryRunner) throw new Error('longHistoryTracks needs the long-history runner');

  const db = openDatabase(config.databaseUrl, { poolSize: 2, backgroundCheckpoints: false });
  try {
    await migrate(db);
    const ctx: AppContext = contextOf(db.kysely, config);
    const admin = await ensureFirstAdmin(ctx);
    const first = (await lastSeededNumber(db)) + 1;
    const runsBefore = await lastRunId(db.kysely);
    const passwordHash = await hashPassword(password);

    const now = options.now ?? new Date();
    const randomSeed = options.randomSeed ?? 20_240_601;
    const random: Random = createRandom(randomSeed);
    const users = generateUsers(random, now, first, entryCounts(random, options.users, options.entries));
    const long = options.longHistoryRunner ? longHistoryRunner(first + users.length, now) : null;
    if (long) users.push(long.user);
    const runsOf = (user: SeedUser) => (user === long?.user ? long.runs : generateEntries(random, user, now));

    const onStatus = options.onStatus ?? (() => undefined);
    const existing = await countRuns(db);
    const rebuild = options.entries > 0 && options.entries >= existing;
    const writer =
      db.dialect === 'sqlite'
        ? sqliteWriter(db.sqlite!, rebuild, onStatus)
        : await postgresWriter(config.databaseUrl, rebuild, onStatus);
    const done: SeedProgress = { users: 0, entries: 0 };
    try {
      let batch: Batch = { users: [], entries: 0 };
      const flush = async () => {
        if (batch.users.length === 0) return;
        await writer.write(batch, runsOf, passwordHash);
        done.users += batch.users.length;
        done.entries += batch.entries;
        options.onProgress?.({ ...done });
        batch = { users: [], entries: 0 };
      };
      for (const user of users) {
        batch.users.push(user);
        batch.entries += user.entryCount;
        if (batch.entries >= BATCH_ENTRIES || batch.users.length >= MAX_BATCH_USERS) await flush();
      }
      await flush();
      await writer.commit();
    } catch (error) {
      await writer.abort().catch(() => undefined);
      throw error;
    }
    onStatus('counting runs per day and each runner, and indexing the search');
    await rebuildTallies(ctx);

    const longId = long ? await userIdOf(db, long.user.email) : null;
    const tracked = [
      ...(longId !== null ? await latestRuns(db.kysely, longId, longTracks) : []),
      ...(await pickRuns(db.kysely, createRandom(randomSeed ^ TRACKS_STREAM), runsBefore, longId, tracks)),
    ];
    let seededTracks: SeededTracks = { runs: 0, samples: 0, ms: 0 };
    if (tracked.length > 0) {
      const threads = options.trackThreads ?? defaultTrackThreads(tracked.length);
      onStatus(
        `making ${tracked.length} tracks (one sample a second, at most ${MAX_TRACK_SECONDS / 3600} hours) on ${threads || 'no'} worker threads`,
      );
      seededTracks = await seedTracks(ctx, tracked, {
        randomSeed,
        threads,
        onProgress: (count) => options.onTrackProgress?.(count, tracked.length),
      });
    }
    await writer.settle();
    return {
      users: done.users,
      entries: done.entries,
      firstNumber: first,
      tracks: seededTracks,
      longHistoryRunner: long
        ? { email: long.user.email, entries: long.user.entryCount, tracks: Math.min(longTracks, long.user.entryCount) }
        : null,
      admin,
      ms: Date.now() - started,
    };
  } finally {
    await db.close();
  }
}

/** Mixed into the seed for the choice of tracked runs: its own stream, so the rest of the data stays the same. */
const TRACKS_STREAM = 0x7472_6b73;

async function userIdOf(db: Db, email: string): Promise<number> {
  const row = await db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return Number(row.id);
}

const ENTRY_COLUMNS = '(user_id, date, distance_m, seconds, speed, created_at, updated_at)';

/** Everyone's runs, from their days. */
async function countRuns(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('entry_days')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Sets the journal mode and returns the one in force (unchanged while others have the file open). */
function switchJournal(conn: SQLite.Database, mode: 'delete' | 'wal'): string {
  try {
    return String(conn.pragma(`journal_mode = ${mode}`, { simple: true })).toLowerCase();
  } catch {
    return String(conn.pragma('journal_mode', { simple: true })).toLowerCase();
  }
}

/** Runs per INSERT statement: fewer statements, same prepared plan. */
const ROWS_PER_INSERT = 100;

function sqliteWriter(conn: SQLite.Database, rebuildIndexes: boolean, onStatus: (message: string) => void): Writer {
  // A big page cache while seeding, so that pages stay in memory across batches.
  const previousCache = conn.pragma('cache_size', { simple: true }) as number;
  conn.pragma('cache_size = -524288');
  const insertUser = conn.prepare(
    `insert into users (name, email, password_hash, role, timezone, is_demo, created_at, updated_at, search_text)
     values (?, ?, ?, 'user', ?, 0, ?, ?, ?)`,
  );
  const rowSql = '(?, ?, ?, ?, ?, ?, ?)';
  const insertMany = conn.prepare(
    `insert into entries ${ENTRY_COLUMNS} values ${Array(ROWS_PER_INSERT).fill(rowSql).join(', ')}`,
  );
  const insertOne = conn.prepare(`insert into entries ${ENTRY_COLUMNS} values ${rowSql}`);

  // In WAL mode every page of the seed is written twice: into the WAL at commit, then into
  // the database by the checkpoint. With a rollback journal it is written once, and the
  // journal holds only the pages that existed before (few, on a new database); the commit
  // stays atomic (with full syncs, which a rollback journal needs against power loss).
  // Possible only while no other connection (a running server) has the file open;
  // otherwise the seed stays in WAL mode.
  const journal = switchJournal(conn, 'delete');
  const previousSync = conn.pragma('synchronous', { simple: true }) as number;
  if (journal === 'delete') conn.pragma('synchronous = FULL');
  // The whole seed is one transaction: an interrupted seed leaves the database as it was.
  conn.exec('begin immediate');
  // Index upkeep dominates bulk inserts: when the seed at least doubles the runs, the
  // entries' secondary indexes are dropped and each is built once at the end (one sort
  // instead of millions of random b-tree inserts), inside the same transaction.
  const indexes = rebuildIndexes
    ? (conn
        .prepare(
          `select name, sql from sqlite_master where type = 'index' and tbl_name = 'entries' and sql is not null`,
        )
        .all() as { name: string; sql: string }[])
    : [];
  for (const index of indexes) conn.exec(`drop index ${index.name}`);
  const writeBatch = conn.transaction(
    (batch: Batch, runs: (user: SeedUser) => ReturnType<typeof generateEntries>, passwordHash: string) => {
      const params: unknown[] = [];
      let pending = 0;
      for (const user of batch.users) {
        const { lastInsertRowid } = insertUser.run(
          user.name,
          user.email,
          passwordHash,
          user.timezone,
          user.createdAt,
          user.createdAt,
          userSearchText(user.name, user.email),
        );
        const userId = Number(lastInsertRowid);
        for (const run of runs(user)) {
          params.push(userId, run.date, run.distanceM, run.seconds, run.speed, run.createdAt, run.createdAt);
          if (++pending === ROWS_PER_INSERT) {
            insertMany.run(params);
            params.length = 0;
            pending = 0;
          }
        }
      }
      for (let i = 0; i < params.length; i += 7) insertOne.run(params.slice(i, i + 7));
    },
  );

  const restore = () => {
    conn.pragma(`cache_size = ${previousCache}`);
    if (journal === 'delete') {
      switchJournal(conn, 'wal');
      conn.pragma(`synchronous = ${previousSync}`);
    }
  };
  return {
    async write(batch, runs, passwordHash) {
      writeBatch(batch, runs, passwordHash);
    },
    async commit() {
      if (indexes.length > 0) {
        onStatus(`building ${indexes.length} indexes`);
        // Sorting for CREATE INDEX may use a helper thread.
        conn.pragma('threads = 2');
        for (const index of indexes) conn.exec(index.sql);
        conn.pragma('threads = 0');
      }
      conn.exec('commit');
      restore();
    },
    async settle() {
      // Whatever went into the WAL after the commit (the tallies, the tracks) moves into the file.
      conn.pragma('wal_checkpoint(TRUNCATE)');
    },
    async abort() {
      if (conn.inTransaction) conn.exec('rollback');
      restore();
    },
  };
}

/** Runs per multi-row INSERT ... SELECT FROM unnest(...) statement. */
const PG_ROWS_PER_INSERT = 20_000;

async function postgresWriter(
  url: string,
  rebuildIndexes: boolean,
  onStatus: (message: string) => void,
): Promise<Writer> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const insertEntries = async (columns: unknown[][]) => {
    await client.query(
      `insert into entries ${ENTRY_COLUMNS}
       select * from unnest($1::int[], $2::varchar[], $3::int[], $4::int[], $5::float8[], $6::varchar[], $6::varchar[])`,
      columns,
    );
  };
  // One transaction for the whole seed, as on SQLite; indexes rebuilt at the end likewise.
  await client.query('begin');
  const indexes = rebuildIndexes
    ? (
        await client.query<{ name: string; sql: string }>(
          `select i.indexname as name, i.indexdef as sql from pg_indexes i
           where i.schemaname = current_schema() and i.tablename = 'entries'
             and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
        )
      ).rows
    : [];
  for (const index of indexes) await client.query(`drop index ${index.name}`);

  return {
    async write(batch, runs, passwordHash) {
      const inserted = await client.query<{ id: number; email: string }>(
        `insert into users (name, email, password_hash, role, timezone, is_demo, created_at, updated_at, search_text)
         select u.name, u.email, $3, 'user', u.timezone, 0, u.created_at, u.created_at, u.search_text
         from unnest($1::varchar[], $2::varchar[], $4::varchar[], $5::varchar[], $6::text[])
           as u(name, email, timezone, created_at, search_text)
         returning id, email`,
        [
          batch.users.map((u) => u.name),
          batch.users.map((u) => u.email),
          passwordHash,
          batch.users.map((u) => u.timezone),
          batch.users.map((u) => u.createdAt),
          batch.users.map((u) => userSearchText(u.name, u.email)),
        ],
      );
      const ids = new Map(inserted.rows.map((r) => [r.email, Number(r.id)]));
      let columns: unknown[][] = [[], [], [], [], [], []];
      for (const user of batch.users) {
        const userId = ids.get(user.email)!;
        for (const run of runs(user)) {
          columns[0]!.push(userId);
          columns[1]!.push(run.date);
          columns[2]!.push(run.distanceM);
          columns[3]!.push(run.seconds);
          columns[4]!.push(run.speed);
          columns[5]!.push(run.createdAt);
          if (columns[0]!.length === PG_ROWS_PER_INSERT) {
            await insertEntries(columns);
            columns = [[], [], [], [], [], []];
          }
        }
      }
      if (columns[0]!.length > 0) await insertEntries(columns);
    },
    async commit() {
      if (indexes.length > 0) {
        onStatus(`building ${indexes.length} indexes`);
        for (const index of indexes) await client.query(index.sql);
      }
      await client.query('commit');
    },
    async settle() {
      // What autovacuum would do soon after a bulk load, done now so that it does not run
      // later under load: fresh statistics, and a visibility map that lets index-only
      // scans skip the table.
      onStatus('vacuuming and analyzing');
      for (const table of ['users', 'user_days', 'entries', 'entry_days', 'runner_days', 'runner_efforts', 'tracks']) {
        await client.query(`vacuum (analyze) ${table}`);
      }
      await client.end();
    },
    async abort() {
      await client.query('rollback').catch(() => undefined);
      await client.end();
    },
  };
}

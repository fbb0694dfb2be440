/** SQL for users. Rows are mapped to API users here and never leave this file. */
import { SqliteAdapter, sql, type RawBuilder, type Selectable } from 'kysely';
import type { Theme, Units } from '../../../core/preferences.js';
import type { Role, User } from '../../../core/schemas.js';
import { compiled } from '../../db/compiled.js';
import type { Executor, UsersTable } from '../../db/schema.js';
import { SEEK_FROM, afterDay, readCounter, seekUserDay } from '../../db/tallies.js';

type UserRow = Selectable<UsersTable>;

/** A user as services see it: the API user plus what only the server needs. */
export interface UserRecord extends User {
  passwordHash: string;
  isDemo: boolean;
  entryCount: number;
}

/** The API user of a record (or of a session's user): never a hash or an internal count. */
export function toUser(record: User): User {
  return {
    id: record.id,
    name: record.name,
    email: record.email,
    role: record.role,
    timezone: record.timezone,
    units: record.units,
    theme: record.theme,
    date: record.date,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    role: row.role,
    timezone: row.timezone,
    units: row.units,
    theme: row.theme,
    date: row.created_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    passwordHash: row.password_hash,
    isDemo: Number(row.is_demo) === 1,
    entryCount: Number(row.entry_count),
  };
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  timezone: string;
  isDemo?: boolean;
  createdAt: string;
}

export async function insertUser(db: Executor, user: NewUser): Promise<UserRecord> {
  const row = await db
    .insertInto('users')
    .values({
      name: user.name,
      email: user.email,
      password_hash: user.passwordHash,
      role: user.role,
      timezone: user.timezone,
      is_demo: user.isDemo ? 1 : 0,
      created_at: user.createdAt,
      updated_at: user.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toUserRecord(row);
}

export async function findUserById(db: Executor, id: number): Promise<UserRecord | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRecord | null> {
  const row = await db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

export async function emailTakenByOther(db: Executor, email: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
  if (exceptId !== null) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface UserChanges {
  name?: string;
  email?: string;
  passwordHash?: string;
  role?: Role;
  timezone?: string;
  units?: Units;
  theme?: Theme;
  updatedAt: string;
}

export async function updateUser(db: Executor, id: number, changes: UserChanges): Promise<UserRecord | null> {
  const row = await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
      ...(changes.units !== undefined ? { units: changes.units } : {}),
      ...(changes.theme !== undefined ? { theme: changes.theme } : {}),
      updated_at: changes.updatedAt,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

/**
 * Deletes a user; their entries and tokens go with them (foreign keys cascade). Returns the
 * number of runs they had, read in the same statement (null when the user was already gone).
 */
export async function deleteUser(db: Executor, id: number): Promise<{ entryCount: number } | null> {
  const row = await db.deleteFrom('users').where('id', '=', id).returning('entry_count').executeTakeFirst();
  return row ? { entryCount: Number(row.entry_count) } : null;
}

/** Every account (the demo reset). */
export async function deleteAllUsers(db: Executor): Promise<void> {
  await db.deleteFrom('users').execute();
}

/**
 * The admins, counted under a lock that the last-admin rule needs when requests race: on
 * PostgreSQL their rows are locked until the transaction ends, so a concurrent demotion or
 * deletion waits and then counts what this one left (SQLite runs one transaction at a time).
 */
export async function lockAdmins(db: Executor): Promise<number> {
  if (isSqlite(db)) return countAdmins(db);
  const rows = await db.selectFrom('users').select('id').where('role', '=', 'admin').forUpdate().execute();
  return rows.length;
}

export async function countAdmins(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `%` and `_` in a search are taken literally. */
function likePattern(query: string): string {
  return `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const isSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter;

/** Shorter searches have no trigram to look up and read the users table. */
const MIN_INDEXED_QUERY = 3;

type SearchKind = 'trigrams' | 'likeSqlite' | 'likePostgres';

/**
 * The users whose name or e-mail contains the query (case-insensitive), through the
 * trigram search index of migrations.ts, which indexes name, a newline and e-mail.
 *
 * On SQLite the index finds the candidates through the query's two rarest trigrams (see
 * rarestTrigrams) and `contains_text` (database.ts) keeps those that contain the whole
 * query. Asking FTS5 for the whole query as a phrase reads the lists of all its trigrams,
 * and the common ones (`use`, `ser` of `user...`) list nearly everyone. On PostgreSQL,
 * LIKE on the pg_trgm index.
 */
type Text = string | RawBuilder<string>;

function matching(db: Executor, kind: SearchKind, needle: Text, trigrams: Text) {
  if (kind === 'trigrams') {
    return db
      .selectFrom('users')
      .innerJoin(sql<{ rowid: number }>`users_search`.as('users_search'), 'users_search.rowid', 'users.id')
      .where(sql<boolean>`users_search match ${trigrams}`)
      .where(
        (eb) => sql<boolean>`contains_text(${eb.ref('users.name')} || char(10) || ${eb.ref('users.email')}, ${needle})`,
      );
  }
  if (kind === 'likeSqlite') {
    return db
      .selectFrom('users')
      .where((eb) =>
        eb.or([
          sql<boolean>`lower(${eb.ref('name')}) like ${needle} escape '\\'`,
          sql<boolean>`${eb.ref('email')} like ${needle} escape '\\'`,
        ]),
      );
  }
  return db
    .selectFrom('users')
    .where((eb) => sql<boolean>`lower(${eb.ref('name')} || chr(10) || ${eb.ref('email')}) like ${needle} escape '\\'`);
}

type Matching = ReturnType<typeof matching>;

/** The page of a search, newest first, and with each row the number of all matches. */
function searchPage(query: Matching, limit: RawBuilder<number>, offset: RawBuilder<number>) {
  return query
    .selectAll('users')
    .select((eb) => eb.fn.countAll<number>().over().as('matches'))
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id', 'desc')
    .limit(limit)
    .offset(offset);
}

/** Each search compiled once. */
type SearchArgs = { needle: string; trigrams: string; limit: number; offset: number };
const searchOf = (kind: SearchKind) =>
  compiled<SearchArgs>()((db, param) =>
    searchPage(matching(db, kind, param('needle'), param('trigrams')), param('limit'), param('offset')),
  );
const searches = {
  trigrams: searchOf('trigrams'),
  likeSqlite: searchOf('likeSqlite'),
  likePostgres: searchOf('likePostgres'),
};

/** How many users' text holds each trigram, as last counted; recounted after a while. */
const trigramCounts = new WeakMap<Executor, Map<string, { users: number; countedAt: number }>>();
const RECOUNT_AFTER_MS = 5 * 60_000;
const MAX_COUNTED_TRIGRAMS = 50_000;
const MAX_TRIGRAMS_WEIGHED = 8;

/**
 * The query's two trigrams that the fewest users have, as an FTS5 query for users having
 * both. The counts only choose which trigrams to ask for: every user containing the query
 * has all its trigrams, so stale or missing counts cost time, never a match. Counting a
 * trigram reads its whole list, so counts are remembered for a few minutes.
 */
async function rarestTrigrams(db: Executor, query: string): Promise<string> {
  // Trigrams as typed: FTS5 folds their case as it folded the indexed text. A long query
  // is judged by a spread of its trigrams, so that counting stays a few lookups.
  const chars = [...query];
  const all = chars.slice(2).map((_, i) => chars.slice(i, i + 3).join(''));
  const step = Math.max(1, (all.length - 1) / (MAX_TRIGRAMS_WEIGHED - 1));
  const trigrams = [
    ...new Set(
      Array.from({ length: Math.min(all.length, MAX_TRIGRAMS_WEIGHED) }, (_, i) => all[Math.round(i * step)]!),
    ),
  ];
  let counts = trigramCounts.get(db);
  if (!counts) {
    counts = new Map();
    trigramCounts.set(db, counts);
  }
  const now = Date.now();
  const usersWith = async (trigram: string) => {
    const term = trigram.toLowerCase();
    const known = counts.get(term);
    if (known && now - known.countedAt < RECOUNT_AFTER_MS) return known.users;
    const row = await trigramUsers(db, { term });
    const users = Number(row[0]?.doc ?? 0);
    if (counts.size >= MAX_COUNTED_TRIGRAMS) counts.clear();
    counts.set(term, { users, countedAt: now });
    return users;
  };
  const counted: { trigram: string; users: number }[] = [];
  for (const trigram of trigrams) counted.push({ trigram, users: await usersWith(trigram) });
  return counted
    .sort((a, b) => a.users - b.users)
    .slice(0, 2)
    .map(({ trigram }) => `"${trigram.replace(/"/g, '""')}"`)
    .join(' AND ');
}

const trigramUsers = compiled<{ term: string }>()((db, param) =>
  db
    .selectFrom(sql<{ term: string; doc: number }>`temp.users_search_terms`.as('terms'))
    .select('doc')
    .where('term', '=', param('term')),
);

export async function listUsers(
  db: Executor,
  options: { query?: string | undefined; limit: number; offset: number; seekFrom?: number },
): Promise<{ users: UserRecord[]; total: number }> {
  if (options.query) {
    const query = options.query;
    const kind: SearchKind = !isSqlite(db)
      ? 'likePostgres'
      : [...query].length >= MIN_INDEXED_QUERY
        ? 'trigrams'
        : 'likeSqlite';
    const needle = kind === 'trigrams' ? query.toLowerCase() : likePattern(query);
    const trigrams = kind === 'trigrams' ? await rarestTrigrams(db, query) : '';
    const rows = await searches[kind](db, { needle, trigrams, limit: options.limit, offset: options.offset });
    let total = rows.length > 0 ? Number(rows[0]!.matches) : 0;
    if (rows.length === 0 && options.offset > 0) {
      // Past the last page: the number of matches still counts.
      const row = await matching(db, kind, needle, trigrams)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      total = Number(row.n);
    }
    return { users: rows.map(toUserRecord), total };
  }
  const total = await countUsers(db);
  let offset = options.offset;
  // Later than any created_at.
  let upTo = '9999';
  // A deep page starts at its sign-up day, found from the day buckets.
  if (offset >= (options.seekFrom ?? SEEK_FROM)) {
    const start = await seekUserDay(db, offset);
    if (!start) return { users: [], total };
    offset -= start.before;
    upTo = afterDay(start.key);
  }
  const rows = await usersPage(db, { before: upTo, limit: options.limit, offset });
  return { users: rows.map(toUserRecord), total };
}

const usersPage = compiled<{ before: string; limit: number; offset: number }>()((db, param) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('created_at', '<', param('before'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(param('limit'))
    .offset(param('offset')),
);

export function countUsers(db: Executor): Promise<number> {
  return readCounter(db, 'users');
}

export async function adjustEntryCount(db: Executor, userId: number, delta: number): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ entry_count: eb('entry_count', '+', delta) }))
    .where('id', '=', userId)
    .execute();
}

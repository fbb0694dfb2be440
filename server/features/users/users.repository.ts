/** SQL for users. Rows are mapped to API users here and never leave this file. */
import { sql, type AliasedSelectQueryBuilder, type RawBuilder, type Selectable } from 'kysely';
import type { DateFormat, PaceFormat, Theme, Units } from '../../../core/preferences.js';
import type { Role, User } from '../../../core/schemas.js';
import { foldSearch, userSearchText } from '../../../core/search.js';
import { checkedPageSize, compiled, compiledPer, pageReach, reachKey, type PageReach } from '../../db/compiled.js';
import { isSqlite, type Executor, type UsersTable } from '../../db/schema.js';
import {
  SEEK_FROM,
  USER_LIST_COLUMNS,
  readCounter,
  rememberedUsersPage,
  seekUserHour,
  seekUsersPage,
  usersTotal,
  type UserListRow,
  type UserSeek,
} from '../../db/tallies.js';
import { SEARCH_KEY_MAX_ID, usersRevision } from '../../db/user-search.js';

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
    pace_format: record.pace_format,
    date_format: record.date_format,
    date: record.date,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

const LISTED_OF_USERS = USER_LIST_COLUMNS.map((column) => `users.${column}` as const);

/** A user of the users list (USER_LIST_COLUMNS), or the API part of a whole row. */
function toListedUser(row: UserListRow): User {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    role: row.role,
    timezone: row.timezone,
    units: row.units,
    theme: row.theme,
    pace_format: row.pace_format,
    date_format: row.date_format,
    date: row.created_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toUserRecord(row: UserRow): UserRecord {
  const record = toListedUser(row) as UserRecord;
  record.passwordHash = row.password_hash;
  record.isDemo = Number(row.is_demo) === 1;
  record.entryCount = Number(row.entry_count);
  return record;
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
      search_text: userSearchText(user.name, user.email),
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
  paceFormat?: PaceFormat;
  dateFormat?: DateFormat;
  updatedAt: string;
}

/**
 * The new search text when the name or the e-mail changes. Given one of them, the other
 * half is kept from the stored text (split at its newline, which neither holds), in the
 * same statement, so racing changes of the name and of the e-mail both land.
 */
function searchTextChange(db: Executor, changes: UserChanges): { search_text?: string | RawBuilder<string> } {
  const { name, email } = changes;
  if (name !== undefined && email !== undefined) return { search_text: userSearchText(name, email) };
  const newline = isSqlite(db) ? sql<number>`instr(search_text, ${'\n'})` : sql<number>`strpos(search_text, ${'\n'})`;
  if (name !== undefined) {
    return { search_text: sql<string>`${`${foldSearch(name)}\n`} || substr(search_text, ${newline} + 1)` };
  }
  if (email !== undefined)
    return { search_text: sql<string>`substr(search_text, 1, ${newline}) || ${foldSearch(email)}` };
  return {};
}

export async function updateUser(db: Executor, id: number, changes: UserChanges): Promise<UserRecord | null> {
  const row = await db
    .updateTable('users')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...searchTextChange(db, changes),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.role !== undefined ? { role: changes.role } : {}),
      ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
      ...(changes.units !== undefined ? { units: changes.units } : {}),
      ...(changes.theme !== undefined ? { theme: changes.theme } : {}),
      ...(changes.paceFormat !== undefined ? { pace_format: changes.paceFormat } : {}),
      ...(changes.dateFormat !== undefined ? { date_format: changes.dateFormat } : {}),
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
function likePattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Queries of fewer characters have no trigram to look up. */
const MIN_INDEXED_QUERY = 3;

/*
 * The users whose name or e-mail contains the query, case-insensitively: those whose
 * stored search_text (core/search.ts: the folded name, a newline and the folded e-mail)
 * contains the folded query, compared byte for byte, so that both databases find the same
 * users (decision 011, server/db/user-search.ts).
 */

/**
 * SQLite, three characters or more: the page's keys straight from the FTS5 index, which
 * yields matches in the list's order (its rowid is the user's search key), then only the
 * page's users read by id. Neither the page number nor the matches beyond the page read
 * a user.
 */
const indexedPage = compiled<{ match: string; limit: number; offset: number }>()((db, param) =>
  db
    .selectFrom(
      db
        .selectFrom(sql<{ rowid: number }>`users_search`.as('s'))
        .select(sql<number>`rowid`.as('k'))
        .where(sql<boolean>`users_search match ${param('match')}`)
        .orderBy(sql`rowid`)
        .limit(param('limit'))
        .offset(param('offset'))
        .as('p'),
    )
    .innerJoin('users', (join) => join.on(sql<boolean>`users.id = (-p.k & ${sql.lit(SEARCH_KEY_MAX_ID)})`))
    .select(LISTED_OF_USERS)
    .select(usersRevision(db).as('revision'))
    .orderBy('p.k'),
);

/** The number of matches, from the FTS5 index alone. */
const indexedCount = compiled<{ match: string }>()((db, param) =>
  db
    .selectFrom(sql<{ rowid: number }>`users_search`.as('s'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql<boolean>`users_search match ${param('match')}`),
);

/*
 * A phrase reads the index's entries of every one of its trigrams. When some of them are in
 * most texts (`10@example`: `@ex`, `exa` ... are in every e-mail), counting its matches reads
 * all their entries: 8.2 ms for 1,000 matches among 100,000 users. Such a query is counted
 * instead from the entries of its rarest trigram, each checked against the user's stored text
 * (0.6 ms): a text contains the query only if it contains each of its trigrams, and the check
 * is the same byte-for-byte containment as the phrase's.
 *
 * How many entries a trigram has is read up to COMMON_TRIGRAM (a capped read, 0.4 ms at most)
 * and remembered per database handle for ten minutes, the least recently used dropped past
 * REMEMBERED_TRIGRAMS. A remembered number may be older than the users: that only makes the
 * choice less apt, never a count wrong. The rarest trigram is used when the others have
 * RARER_BY times its entries or more; otherwise the phrase costs about as much.
 */
const COMMON_TRIGRAM = 4096;
const RARER_BY = 8;
const REMEMBERED_TRIGRAMS = 4096;

const trigramEntries = compiled<{ match: string; cap: number }>()((db, param) =>
  db
    .selectFrom(
      db
        .selectFrom(sql<{ rowid: number }>`users_search`.as('s'))
        .select(sql<number>`rowid`.as('k'))
        .where(sql<boolean>`users_search match ${param('match')}`)
        .limit(param('cap'))
        .as('t'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

/** The users among a trigram's entries whose stored text contains the query. */
const checkedCount = compiled<{ match: string; needle: string }>()((db, param) =>
  db
    .selectFrom(sql<{ rowid: number }>`users_search`.as('s'))
    .innerJoin('users', (join) => join.on(sql<boolean>`users.id = (-s.rowid & ${sql.lit(SEARCH_KEY_MAX_ID)})`))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql<boolean>`users_search match ${param('match')}`)
    .where(sql<boolean>`instr(users.search_text, ${param('needle')}) > 0`),
);

/** A trigram's entries, read up to a cap (`capped`: that many or more) at `readAt`. */
const rememberedTrigrams = new WeakMap<object, Map<string, { n: number; capped: boolean; readAt: number }>>();
/** A trigram's number of entries is read again after this long. */
const TRIGRAM_READ_AGAIN_MS = 10 * 60_000;

/** An FTS5 phrase of one text. */
const phraseOf = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The distinct trigrams of a query, by character, as the index's tokenizer cuts them. */
function trigramsOf(folded: string): string[] {
  const chars = [...folded];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars.slice(i, i + 3).join(''));
  return [...trigrams];
}

/** How many entries each trigram has, up to `common`: remembered, or read now. */
async function trigramCounts(db: Executor, trigrams: string[], common: number): Promise<number[]> {
  const key = db.getExecutor().adapter;
  let known = rememberedTrigrams.get(key);
  if (!known) {
    known = new Map();
    rememberedTrigrams.set(key, known);
  }
  const counts: number[] = [];
  for (const trigram of trigrams) {
    let seen = known.get(trigram);
    const now = Date.now();
    if (!seen || (seen.capped && seen.n < common) || now - seen.readAt > TRIGRAM_READ_AGAIN_MS) {
      const n = Number((await trigramEntries(db, { match: phraseOf(trigram), cap: common }))[0]?.n ?? 0);
      seen = { n, capped: n >= common, readAt: now };
    }
    known.delete(trigram);
    known.set(trigram, seen);
    if (known.size > REMEMBERED_TRIGRAMS) known.delete(known.keys().next().value!);
    counts.push(Math.min(seen.n, common));
  }
  return counts;
}

/**
 * SQLite: the number of users whose text contains `folded` (no newline), whose FTS5 query is
 * `match` (its phrase, or a short query's trigrams).
 */
async function indexedMatches(db: Executor, folded: string, match: string, common: number): Promise<number> {
  const phrase = async () => Number((await indexedCount(db, { match }))[0]?.n ?? 0);
  const trigrams = trigramsOf(folded);
  if (trigrams.length < 2) return phrase();
  const counts = await trigramCounts(db, trigrams, common);
  const rarest = counts.indexOf(Math.min(...counts));
  const others = counts.reduce((sum, n) => sum + n, 0) - counts[rarest]!;
  if (counts[rarest]! >= common || others < RARER_BY * counts[rarest]!) return phrase();
  return Number((await checkedCount(db, { match: phraseOf(trigrams[rarest]!), needle: folded }))[0]?.n ?? 0);
}

/**
 * A query of two characters: the index's trigrams that begin with it (every two characters
 * of a text begin one), from the `fts5vocab` view `temp.users_search_terms` (sqlite.ts). A
 * text contains the query exactly when it has one of them. Reading the list costs as much
 * as the matches' entries in the index; beyond this many trigrams the query reads the
 * list's index instead, as a query of one character does (one character is in most texts,
 * and the entries of its trigrams outnumber the users several times).
 */
const MAX_SHORT_TERMS = 300;

const termsFrom = compiled<{ from: string; before: string }>()((db, param) =>
  db
    .selectFrom(sql<{ term: string }>`temp.users_search_terms`.as('terms'))
    .select('term')
    .where('term', '>=', param('from'))
    .where('term', '<', param('before'))
    .limit(MAX_SHORT_TERMS + 1),
);

/** The FTS5 query for the users whose text contains a short query, or null to read the table instead. */
async function shortQueryMatch(db: Executor, folded: string): Promise<string | null> {
  const chars = [...folded];
  const last = chars.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return null;
  // Every term from the query up to its last character's successor begins with the query.
  const rows = await termsFrom(db, { from: folded, before: chars.join('') + String.fromCodePoint(last + 1) });
  if (rows.length > MAX_SHORT_TERMS) return null;
  return rows.map((r) => phraseOf(r.term)).join(' OR ');
}

/** Whether every user's id fits its search key (the index's order is the list's). */
const highestId = compiled()((db) => db.selectFrom('users').select((eb) => eb.fn.max('id').as('id')));

/**
 * Otherwise (PostgreSQL through its pg_trgm index, or a short query on SQLite, which reads
 * the users list's index, search_text included, not the table), only the page's users are
 * read by id. SQLite walks the list's index until the page is full, and counts apart;
 * PostgreSQL reads the matches once, for the page and their number.
 */
function contains(db: Executor, needle: RawBuilder<string>) {
  return isSqlite(db)
    ? sql<boolean>`instr(search_text, ${needle}) > 0`
    : sql<boolean>`search_text like ${needle} escape '\\'`;
}

type ScanArgs = { needle: string; limit: number; offset: number };

/** The users of a page of keys (`p`: id, created_at), in the list's order, with the users' revision. */
const usersOfPage = (db: Executor, page: AliasedSelectQueryBuilder<{ id: number; created_at: string }, 'p'>) =>
  db
    .selectFrom(page)
    .innerJoin('users', 'users.id', 'p.id')
    .select(LISTED_OF_USERS)
    .select(usersRevision(db).as('revision'))
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc');

const scannedPageSqlite = compiled<ScanArgs>()((db, param) =>
  usersOfPage(
    db,
    db
      .selectFrom('users')
      .select(['id', 'created_at'])
      .where(contains(db, param('needle')))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(param('limit'))
      .offset(param('offset'))
      .as('p'),
  ),
);

const scannedPagePostgres = compiled<ScanArgs>()((db, param) =>
  db
    .with('m', (w) =>
      w
        .selectFrom('users')
        .select(['id', 'created_at'])
        .where(contains(db, param('needle'))),
    )
    .selectFrom((eb) =>
      eb
        .selectFrom('m')
        .select(['m.id', 'm.created_at'])
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(param('limit'))
        .offset(param('offset'))
        .as('p'),
    )
    .innerJoin('users', 'users.id', 'p.id')
    .select(LISTED_OF_USERS)
    .select((eb) => eb.selectFrom('m').select(eb.fn.countAll<number>().as('n')).as('matches'))
    .select(usersRevision(db).as('revision'))
    .select(usersTotal(db).as('users_total'))
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc'),
);

/**
 * PostgreSQL, a query that most users match: the list's index (which carries search_text)
 * read newest first, at most `reach` entries, until the page is full; only the page's users
 * are read by id. It reads about (offset + limit) / (the share of users matching) entries,
 * whatever the number of matches; a page it cannot fill within `reach` is read as above.
 */
const walkedPagePostgres = compiled<ScanArgs & { reach: number }>()((db, param) =>
  usersOfPage(
    db,
    db
      .selectFrom(
        db
          .selectFrom('users')
          .select(['id', 'created_at', 'search_text'])
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(param('reach'))
          .as('w'),
      )
      .select(['w.id', 'w.created_at'])
      .where(contains(db, param('needle')))
      .orderBy('w.created_at', 'desc')
      .orderBy('w.id', 'desc')
      .limit(param('limit'))
      .offset(param('offset'))
      .as('p'),
  ),
);

/**
 * Whether walking the list's index is cheaper than reading every match: the walk's expected
 * length, with room for matches that cluster, against the number of matches.
 */
const WALK_ROOM = 4;
function walkReach(counted: CountedMatches, limit: number, offset: number): number | null {
  if (counted.users === undefined || counted.total === 0) return null;
  const reach = Math.ceil((WALK_ROOM * (offset + limit) * counted.users) / counted.total) + limit;
  return reach < counted.total ? reach : null;
}

const scannedCount = compiled<{ needle: string }>()((db, param) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(contains(db, param('needle'))),
);

/** A number of matches and the users' revision it was counted at. */
interface CountedMatches {
  revision: number;
  total: number;
  /** The number of users when counted (PostgreSQL: the share of users that match). */
  users?: number;
  /** The ids of pages read at that revision, by `limit:offset` (PAGES_PER_QUERY at most). */
  pages?: Map<string, number[]>;
}

/** Pages of one query whose ids are remembered (the least recently read go first). */
const PAGES_PER_QUERY = 20;

/** How many queries' numbers of matches each database handle remembers (the least recently used go first). */
const REMEMBERED_COUNTS = 1000;
const rememberedCounts = new WeakMap<object, Map<string, CountedMatches>>();

/**
 * The numbers of matches of recent queries, per database handle (its adapter, shared by its
 * transactions). Each is kept with the users' revision it was counted at and serves only a
 * page read at that revision, so every insert, deletion or change of a search text makes it
 * count again; an admin paging through a query counts it once.
 */
function countsOf(db: Executor): Map<string, CountedMatches> {
  // Inside a transaction the revision may be one that a rollback takes back: nothing is kept.
  if (db.isTransaction) return new Map();
  const key = db.getExecutor().adapter;
  let counts = rememberedCounts.get(key);
  if (!counts) {
    counts = new Map();
    rememberedCounts.set(key, counts);
  }
  return counts;
}

/** Remembers a full page's ids with the count of its query, when both were read at one revision. */
function rememberPage(counted: CountedMatches, limit: number, offset: number, rows: { id: number }[]): CountedMatches {
  const pages = counted.pages ?? new Map<string, number[]>();
  const key = `${limit}:${offset}`;
  pages.delete(key);
  pages.set(
    key,
    rows.map((row) => Number(row.id)),
  );
  if (pages.size > PAGES_PER_QUERY) pages.delete(pages.keys().next().value!);
  return { ...counted, pages };
}

/** Pages whose ids are remembered for a query, for tests (0 when none, or inside a transaction). */
export function rememberedSearchPages(db: Executor, query: string): number {
  return countsOf(db).get(foldSearch(query))?.pages?.size ?? 0;
}

/**
 * The users of a page whose ids are remembered, by id, newest first, with the users'
 * revision. At the revision the ids were read at, no user was added, removed or renamed, and
 * no creation time moved: the same users match, in the same order, and every column comes
 * fresh from this statement. 20 lookups by id, whatever the number of matches. The ids are
 * an array on PostgreSQL, a JSON array on SQLite.
 */
const usersByIds = compiled<{ ids: number[] | string }>()((db, param) =>
  db
    .selectFrom('users')
    .select(LISTED_OF_USERS)
    .select(usersRevision(db).as('revision'))
    .where(
      isSqlite(db)
        ? sql<boolean>`${sql.ref('users.id')} in (select value from json_each(${param('ids')}))`
        : sql<boolean>`${sql.ref('users.id')} = any(${param('ids')})`,
    )
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id', 'desc'),
);

/** A page of a query read before at the users' revision it is read at now, by its ids; null otherwise. */
async function pageReadAgain(
  db: Executor,
  counts: Map<string, CountedMatches>,
  folded: string,
  limit: number,
  offset: number,
): Promise<{ users: User[]; total: number } | null> {
  const remembered = counts.get(folded);
  const ids = remembered?.pages?.get(`${limit}:${offset}`);
  if (!remembered || !ids) return null;
  const again = await usersByIds(db, { ids: isSqlite(db) ? JSON.stringify(ids) : ids });
  if (again.length !== ids.length || Number(again[0]!.revision) !== remembered.revision) return null;
  remember(counts, folded, rememberPage(remembered, limit, offset, again));
  return { users: again.map(toListedUser), total: remembered.total };
}

function remember(counts: Map<string, CountedMatches>, folded: string, counted: CountedMatches): void {
  counts.delete(folded);
  counts.set(folded, counted);
  if (counts.size > REMEMBERED_COUNTS) counts.delete(counts.keys().next().value!);
}

async function searchUsers(
  db: Executor,
  query: string,
  limit: number,
  offset: number,
  commonTrigram: number,
): Promise<{ users: User[]; total: number }> {
  const folded = foldSearch(query);
  const counts = countsOf(db);
  // A page read before at the same revision: its users by id (a primary key lookup each),
  // instead of every match again (FTS5 and the trigram index read every match of a trigram).
  const again = await pageReadAgain(db, counts, folded, limit, offset);
  if (again) return again;
  // SQLite: a page that holds fewer than asked is the last one (an empty first page
  // included): the total is known without a count. Only an empty page past the first needs
  // one. A full page's total is the one counted at the page's revision, if remembered.
  const totalOf = async (rows: { id: number; revision?: unknown }[], count: () => Promise<number>) => {
    const revision = rows.length > 0 ? Number(rows[0]!.revision) : null;
    const short = rows.length < limit && (rows.length > 0 || offset === 0);
    const remembered = counts.get(folded);
    const sameRevision = remembered?.revision === revision ? remembered : undefined;
    let total: number;
    if (short) total = offset + rows.length;
    else if (sameRevision) total = sameRevision.total;
    else total = await count();
    // Counted after the page, at its revision or a later one: kept under the page's, it can
    // only serve requests that read a revision no newer than what it counted. The page's ids
    // are kept with it, and the other pages of the same revision stay.
    if (revision !== null)
      remember(counts, folded, rememberPage({ revision, total, pages: sameRevision?.pages }, limit, offset, rows));
    return total;
  };
  // A newline would match the index's padding (and the separator is found by the scan).
  if (isSqlite(db) && !folded.includes('\n')) {
    const highest = Number((await highestId(db))[0]?.id ?? 0);
    const match =
      highest > SEARCH_KEY_MAX_ID
        ? null
        : [...folded].length >= MIN_INDEXED_QUERY
          ? phraseOf(folded)
          : [...folded].length === 2
            ? await shortQueryMatch(db, folded)
            : null;
    if (match === '') return { users: [], total: 0 };
    if (match !== null) {
      const rows = await indexedPage(db, { match, limit, offset });
      const total = await totalOf(rows, () => indexedMatches(db, folded, match, commonTrigram));
      return { users: rows.map(toListedUser), total };
    }
  }
  const needle = isSqlite(db) ? folded : likePattern(folded);
  const count = async () => Number((await scannedCount(db, { needle }))[0]?.n ?? 0);
  if (isSqlite(db)) {
    const rows = await scannedPageSqlite(db, { needle, limit, offset });
    return { users: rows.map(toListedUser), total: await totalOf(rows, count) };
  }
  // PostgreSQL: a query whose remembered matches are most users walks the list's index; a
  // full page at the remembered revision has its total.
  const remembered = counts.get(folded);
  const reach = remembered ? walkReach(remembered, limit, offset) : null;
  if (remembered && reach !== null) {
    const walked = await walkedPagePostgres(db, { needle, limit, offset, reach });
    if (walked.length === limit && Number(walked[0]!.revision) === remembered.revision) {
      remember(counts, folded, rememberPage(remembered, limit, offset, walked));
      return { users: walked.map(toListedUser), total: remembered.total };
    }
  }
  // Otherwise one statement reads the matches once, for the page and their number.
  const rows = await scannedPagePostgres(db, { needle, limit, offset });
  const short = rows.length < limit && (rows.length > 0 || offset === 0);
  const total = short ? offset + rows.length : rows.length > 0 ? Number(rows[0]!.matches) : await count();
  if (rows.length > 0) {
    const revision = Number(rows[0]!.revision);
    const counted = { revision, total, users: Number(rows[0]!.users_total) };
    // The pages of the same revision stay; a new revision starts with this page alone.
    const pages = remembered?.revision === revision ? remembered.pages : undefined;
    remember(counts, folded, rememberPage({ ...counted, pages }, limit, offset, rows));
  }
  return { users: rows.map(toListedUser), total };
}

export async function listUsers(
  db: Executor,
  options: {
    query?: string | undefined;
    limit: number;
    offset: number;
    seekFrom?: number;
    /** PostgreSQL: skips up to here read a capped list of the list's keys (compiled.ts NEAR_SKIP; smaller in tests). */
    nearSkip?: number;
    /** SQLite: a trigram with this many index entries is a common one (COMMON_TRIGRAM; smaller in tests). */
    commonTrigram?: number;
  },
): Promise<{ users: User[]; total: number }> {
  if (options.query)
    return searchUsers(db, options.query, options.limit, options.offset, options.commonTrigram ?? COMMON_TRIGRAM);
  const offset = options.offset;
  const deep = offset >= (options.seekFrom ?? SEEK_FROM);
  // A deep page starts at its sign-up hour, found from the month, day and hour buckets; it
  // skips at most that hour's sign-ups.
  if (deep && !isSqlite(db)) {
    const rows = await seekUsersPage(db, offset, options.limit);
    return { users: rows.map(toListedUser), total: rows.length > 0 ? Number(rows[0]!.total) : await countUsers(db) };
  }
  // SQLite, a deep page: each row carries the users' revision its statement read.
  const pageFrom = (seek: UserSeek | null) =>
    usersPageOf({
      size: checkedPageSize(options.limit),
      reach: pageReach(offset - (seek?.before ?? 0), { sqlite: isSqlite(db), nearSkip: options.nearSkip }),
      revised: deep,
    })(db, {
      // Later than any created_at.
      before: seek?.upTo ?? '9999',
      offset: offset - (seek?.before ?? 0),
    });
  if (deep) {
    // First from the bucket lists remembered at the last revision read (tallies.ts
    // RememberedLists), without reading a bucket.
    const rows = await rememberedUsersPage(db, offset, pageFrom);
    if (rows) return { users: rows.map(toListedUser), total: Number(rows[0]!.total) };
    const found = await seekUserHour(db, offset);
    if (!found.seek) return { users: [], total: found.total };
    return { users: (await pageFrom(found.seek)).map(toListedUser), total: found.total };
  }
  const rows = await pageFrom(null);
  return { users: rows.map(toListedUser), total: rows.length > 0 ? Number(rows[0]!.total) : await countUsers(db) };
}

/**
 * A page of the users list from `before` on, and the number of users (the counter). Its size
 * and how far it may skip are constants of the statement (compiled.ts, PageReach), so that
 * PostgreSQL keeps one plan of it (planned per request with both bound: 0.39 ms a round trip
 * at 10,000 users against 0.23).
 */
type UsersPageShape = {
  size: number;
  reach: PageReach;
  /** SQLite: each row also carries the users' revision (`revision`). */
  revised: boolean;
};
const usersPage = ({ size, reach, revised }: UsersPageShape) =>
  compiled<{ before: string; offset: number }>()((db, param) => {
    const revision = (revised ? usersRevision(db) : sql<number | null>`null`).as('revision');
    const ordered = () =>
      db
        .selectFrom('users')
        .where('created_at', '<', param('before'))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc');
    if (reach.kind !== 'near') {
      const top = ordered()
        .select(USER_LIST_COLUMNS)
        .select([usersTotal(db).as('total'), revision])
        .limit(size);
      return reach.kind === 'first' ? top : top.offset(param('offset'));
    }
    // The keys of the page from a list capped at the most it skips, then its users by id.
    const keys = db
      .selectFrom(
        ordered()
          .select(['id', 'created_at'])
          .limit(reach.skip + size)
          .as('capped'),
      )
      .select(['capped.id', 'capped.created_at'])
      .orderBy('capped.created_at', 'desc')
      .orderBy('capped.id', 'desc')
      .limit(size)
      .offset(param('offset'));
    return db
      .selectFrom(keys.as('p'))
      .innerJoin('users', 'users.id', 'p.id')
      .select(LISTED_OF_USERS)
      .select([usersTotal(db).as('total'), revision])
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc');
  });
const usersPageOf = compiledPer(
  (shape: UsersPageShape) => `${shape.size}:${reachKey(shape.reach)}:${shape.revised}`,
  usersPage,
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

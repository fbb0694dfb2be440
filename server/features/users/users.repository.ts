/** SQL for users. Rows are mapped to API users here and never leave this file. */
import { sql, type RawBuilder, type Selectable } from 'kysely';
import {
  NEW_USER_DATE_FORMAT,
  type DateFormat,
  type Locale,
  type PaceFormat,
  type Theme,
  type Units,
} from '../../../core/preferences.js';
import type { Role, User } from '../../../core/schemas.js';
import { foldSearch, userSearchText } from '../../../core/search.js';
import { addDays } from '../../../core/time.js';
import { checkedPageSize, compiled, compiledPer, type ParamOf } from '../../db/compiled.js';
import { isSqlite, type Executor, type UsersTable, type UserStatus } from '../../db/schema.js';

type UserRow = Selectable<UsersTable>;

/** A user as services see it: the API user plus what only the server needs. */
export interface UserRecord extends User {
  passwordHash: string;
  isDemo: boolean;
  entryCount: number;
  /** A new e-mail waiting for its confirmation link (CONTRACT.md §21). */
  pendingEmail: string | null;
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
    max_heart_rate: record.max_heart_rate,
    resting_heart_rate: record.resting_heart_rate,
    pace_format: record.pace_format,
    date_format: record.date_format,
    locale: record.locale,
    status: record.status,
    two_factor: record.two_factor,
    date: record.date,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The columns of a user in the users list: the API user's, never the password hash or the search text. */
const USER_LIST_COLUMNS = [
  'id',
  'name',
  'email',
  'role',
  'timezone',
  'units',
  'theme',
  'pace_format',
  'date_format',
  'locale',
  'status',
  'two_factor',
  'max_heart_rate',
  'resting_heart_rate',
  'created_at',
  'updated_at',
] as const;
type UserListRow = Pick<UserRow, (typeof USER_LIST_COLUMNS)[number]>;

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
    max_heart_rate: row.max_heart_rate === null ? null : Number(row.max_heart_rate),
    resting_heart_rate: row.resting_heart_rate === null ? null : Number(row.resting_heart_rate),
    pace_format: row.pace_format,
    date_format: row.date_format,
    locale: row.locale,
    status: row.status,
    two_factor: Number(row.two_factor) === 1,
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
  record.pendingEmail = row.pending_email;
  return record;
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  timezone: string;
  locale?: Locale | undefined;
  isDemo?: boolean;
  /** CONTRACT.md §21: absent = active. */
  status?: UserStatus | undefined;
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
      // §19: users created from Part 4 on write dates in their language's short date.
      date_format: NEW_USER_DATE_FORMAT,
      ...(user.locale !== undefined ? { locale: user.locale } : {}),
      is_demo: user.isDemo ? 1 : 0,
      ...(user.status !== undefined ? { status: user.status } : {}),
      created_at: user.createdAt,
      updated_at: user.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await indexSearchText(db, Number(row.id), row.search_text);
  return toUserRecord(row);
}

/** Two-factor sign-in on or off: the flag of every user answer (the two-factor feature owns the rest). */
export async function setTwoFactorFlag(db: Executor, id: number, on: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ two_factor: on ? 1 : 0 })
    .where('id', '=', id)
    .execute();
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
  maxHeartRate?: number | null;
  restingHeartRate?: number | null;
  paceFormat?: PaceFormat;
  dateFormat?: DateFormat;
  locale?: Locale | undefined;
  status?: UserStatus;
  pendingEmail?: string | null;
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
      ...(changes.maxHeartRate !== undefined ? { max_heart_rate: changes.maxHeartRate } : {}),
      ...(changes.restingHeartRate !== undefined ? { resting_heart_rate: changes.restingHeartRate } : {}),
      ...(changes.paceFormat !== undefined ? { pace_format: changes.paceFormat } : {}),
      ...(changes.dateFormat !== undefined ? { date_format: changes.dateFormat } : {}),
      ...(changes.locale !== undefined ? { locale: changes.locale } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.pendingEmail !== undefined ? { pending_email: changes.pendingEmail } : {}),
      updated_at: changes.updatedAt,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (row && (changes.name !== undefined || changes.email !== undefined)) {
    await indexSearchText(db, id, row.search_text);
  }
  return row ? toUserRecord(row) : null;
}

/** Accounts waiting for an admin's approval (CONTRACT.md §21), oldest first, at most `limit`. */
export async function listPendingUsers(db: Executor, limit: number): Promise<User[]> {
  const rows = await db
    .selectFrom('users')
    .select(USER_LIST_COLUMNS)
    .where('status', '=', 'pending')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toListedUser);
}

/** Deletes a user; their runs, tokens and everything else of theirs go with them (foreign keys cascade). */
export async function deleteUser(db: Executor, id: number): Promise<boolean> {
  const row = await db.deleteFrom('users').where('id', '=', id).returning('id').executeTakeFirst();
  if (row) await indexSearchText(db, id, null);
  return row !== undefined;
}

/** Every account (the demo reset). */
export async function deleteAllUsers(db: Executor): Promise<void> {
  await db.deleteFrom('users').execute();
  if (isSqlite(db)) await sql`delete from users_search`.execute(db);
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

/*
 * The users whose name or e-mail contains a query, case-insensitively: those whose stored
 * search_text (core/search.ts: the folded name, a newline and the folded e-mail) contains the
 * folded query, compared byte for byte, so that both databases find the same users
 * (decision 011). A query of three characters or more is looked up in a trigram index: on SQLite
 * the FTS5 table `users_search` (rowid: the user's id; kept by this file's writes of users), on
 * PostgreSQL pg_trgm's index of search_text. A shorter query reads the users list's index, which
 * carries the text.
 */

/** Queries of fewer characters have no trigram to look up. */
const MIN_INDEXED_QUERY = 3;

/** An FTS5 phrase: the text as it is, every trigram of it in order. */
const phraseOf = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** `%` and `_` in a search are taken literally. */
const likePattern = (folded: string) => `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Match = { kind: 'indexed'; phrase: string } | { kind: 'scanned'; needle: string };

/** How a query is matched on this database (see above). */
function matchOf(db: Executor, folded: string): Match {
  if (isSqlite(db) && [...folded].length >= MIN_INDEXED_QUERY) return { kind: 'indexed', phrase: phraseOf(folded) };
  return { kind: 'scanned', needle: isSqlite(db) ? folded : likePattern(folded) };
}

type Filter = { phrase: string; needle: string };

/** The users a query matches, as a condition on `users` (the phrase or the needle is the statement's parameter). */
const matching = (db: Executor, kind: Match['kind'], param: ParamOf<Filter>) => {
  if (kind === 'indexed') {
    return sql<boolean>`users.id in (select rowid from users_search where users_search match ${param('phrase')})`;
  }
  return isSqlite(db)
    ? sql<boolean>`instr(users.search_text, ${param('needle')}) > 0`
    : sql<boolean>`users.search_text like ${param('needle')} escape '\\'`;
};

/**
 * Where row `offset` of the users list falls: the newest sign-up day whose accounts, added up from
 * the newest day, pass `offset` (`before`: the accounts of the days after it), and how many
 * accounts there are. One running sum over the days with sign-ups (user_days, a row a day),
 * whatever the offset: the users list's counterpart of everyone's runs' daySeek.
 */
const signUpSeek = compiled<{ offset: number }>()((db, param) =>
  db
    .selectFrom(
      db
        .selectFrom('user_days')
        .select(['day', 'n'])
        .select(
          sql<number>`sum(n) over (order by day desc rows between unbounded preceding and current row)`.as('upto'),
        )
        .where('n', '>', 0)
        .as('d'),
    )
    .select(['day', sql<number>`upto - n`.as('before'), userTotalOf(db).as('total')])
    .where('upto', '>', param('offset'))
    .orderBy('day', 'desc')
    .limit(1),
);

/** How many accounts there are, from their days. */
function userTotalOf(db: Executor) {
  return db.selectFrom('user_days').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'));
}
const userTotal = compiled()(userTotalOf);

/**
 * A page of the users list (newest first) from the accounts created before `before` (the day
 * after signUpSeek's), skipping `skip` of them: the users list's index walked from that day only.
 */
const listPage = (size: number) =>
  compiled<{ before: string; skip: number }>()((db, param) =>
    db
      .selectFrom('users')
      .select(USER_LIST_COLUMNS)
      .where('created_at', '<', param('before'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset(param('skip')),
  );
const listPageOf = compiledPer(String, listPage);

/** A page of a query's matches (newest first), with a plain OFFSET over the matches. */
const matchesPage = ({ size, kind }: { size: number; kind: Match['kind'] }) =>
  compiled<Filter & { offset: number }>()((db, param) =>
    db
      .selectFrom('users')
      .select(USER_LIST_COLUMNS)
      .where(matching(db, kind, param))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset(param('offset')),
  );
const matchesPageOf = compiledPer(
  (shape: { size: number; kind: Match['kind'] }) => `${shape.size}:${shape.kind}`,
  matchesPage,
);

const matchCount = (kind: Match['kind']) =>
  compiled<Filter>()((db, param) =>
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(matching(db, kind, param)),
  );
const matchCounts = { indexed: matchCount('indexed'), scanned: matchCount('scanned') };

/** Whether any account exists, from the table itself (the first start, also after a database was emptied by hand). */
export async function hasUsers(db: Executor): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function countUsers(db: Executor): Promise<number> {
  return Number((await userTotal(db))[0]?.n ?? 0);
}

const usersSince = compiled<{ since: string }>()((db, param) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', param('since')),
);

/** Users created at or after an instant. */
export async function countUsersSince(db: Executor, since: string): Promise<number> {
  return Number((await usersSince(db, { since }))[0]?.n ?? 0);
}

/** A page of the users list, newest first, or of the users a query matches, and how many there are. */
export async function listUsers(
  db: Executor,
  options: { query?: string | undefined; limit: number; offset: number },
): Promise<{ users: User[]; total: number }> {
  const size = checkedPageSize(options.limit);
  if (!options.query) {
    const [seek] = await signUpSeek(db, { offset: options.offset });
    if (!seek) return { users: [], total: await countUsers(db) };
    const rows = await listPageOf(size)(db, {
      before: addDays(seek.day, 1),
      skip: options.offset - Number(seek.before),
    });
    return { users: rows.map(toListedUser), total: Number(seek.total) };
  }
  const match = matchOf(db, foldSearch(options.query));
  // Each statement binds the one it names; the other is only a placeholder.
  const args = match.kind === 'indexed' ? { phrase: match.phrase, needle: '' } : { phrase: '', needle: match.needle };
  const rows = await matchesPageOf({ size, kind: match.kind })(db, { ...args, offset: options.offset });
  // A page with fewer users than asked is the last one (an empty first page included): its total needs no count.
  const total =
    rows.length < size && (rows.length > 0 || options.offset === 0)
      ? options.offset + rows.length
      : Number((await matchCounts[match.kind](db, args))[0]?.n ?? 0);
  return { users: rows.map(toListedUser), total };
}

/** SQLite: the search index's entry of a user (rowid: the id), written with the user. */
async function indexSearchText(db: Executor, id: number, text: string | null): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`delete from users_search where rowid = ${id}`.execute(db);
  if (text !== null) await sql`insert into users_search (rowid, doc) values (${id}, ${text})`.execute(db);
}

/** The search index built again from every user's text (the repair command; the seed after its bulk load). */
export async function rebuildSearchIndex(db: Executor): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`delete from users_search`.execute(db);
  await sql`insert into users_search (rowid, doc) select id, search_text from users`.execute(db);
  // Many single inserts leave the index in many small segments that every search reads.
  await sql`insert into users_search (users_search) values ('optimize')`.execute(db);
}

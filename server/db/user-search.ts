/**
 * The users search's stored text and its indexes (decision 011).
 *
 * `users.search_text` is `userSearchText(name, email)` of core/search.ts, written by the
 * server (users.repository.ts) and the seed with every name or e-mail; the databases only
 * compare it byte for byte, so both find the same users, whatever their own lower-casing.
 *
 * SQLite: a contentless FTS5 trigram index of it, case-sensitive (the text is folded
 * already), so a quoted phrase of three or more characters matches exactly the users whose
 * text contains it, and counts them from the index alone. Its rowid is the user's place in
 * the users list (`searchKeySql`): the index yields matches newest first, so a page is a
 * LIMIT/OFFSET over the index's rowids, and only the page's users are read.
 * PostgreSQL: a pg_trgm GIN index for LIKE on the same text (without the extension, the
 * search reads the table).
 */
import { sql, type Kysely } from 'kysely';
import { userSearchText } from '../../core/search.js';
import type { Dialect } from './connection.js';
import type { Executor } from './schema.js';

/**
 * The users' revision (migration step `012-users-list-keys`), as a subquery: it moves with
 * every insert and deletion of a user and every change of a search text or creation time,
 * so a number of matches counted at one revision holds as long as the revision does.
 */
export function usersRevision(db: Executor) {
  return db.selectFrom('user_revisions').select('revision').where('id', '=', 1);
}

/** Low bits of a search key that hold the user's id; ids below 2^22 fit. */
export const SEARCH_KEY_ID_BITS = 22;
export const SEARCH_KEY_MAX_ID = 2 ** SEARCH_KEY_ID_BITS - 1;
/** Milliseconds from 1970 to 2000-01-01: keys count from 2000, and fit 64 bits until 2069. */
const KEY_EPOCH_MS = 946_684_800_000;

/**
 * A user's (`row`) place in the users list (newest first) as an integer that grows down the
 * list: minus (the milliseconds of created_at since 2000, shifted left, plus the id). The id
 * is `-key & SEARCH_KEY_MAX_ID`. Ascending, because FTS5 seeks through a long list of rowids
 * only upwards: in descending order it reads the whole list first.
 */
export function searchKeySql(row: 'new' | 'old' | 'users'): string {
  const ms = `coalesce(cast(round(unixepoch(${row}.created_at, 'subsec') * 1000) as integer), ${KEY_EPOCH_MS})`;
  return `(-((${ms} - ${KEY_EPOCH_MS}) * ${2 ** SEARCH_KEY_ID_BITS} + ${row}.id))`;
}

const BACKFILL_BATCH = 1000;

/** Adds `users.search_text`, fills it, and indexes it in place of the name and e-mail. */
export async function addUserSearchText(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`alter table users add column search_text text not null default ''`.execute(db);
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; name: string; email: string }>`
      select id, name, email from users where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) break;
    const values = rows.map(
      (r) => sql`(cast(${Number(r.id)} as integer), cast(${userSearchText(r.name, r.email)} as text))`,
    );
    await sql`with v (id, search_text) as (values ${sql.join(values)})
      update users set search_text = v.search_text from v where users.id = v.id`.execute(db);
    after = Number(rows.at(-1)!.id);
  }
  if (dialect === 'sqlite') {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger users_search_${event}`).execute(db);
    await sql`drop table users_search`.execute(db);
    await createSqliteSearchIndex(db);
  }
  // The users list's index carries the search text: a query too short for the trigram
  // indexes reads the index, not the users' rows.
  await sql`drop index users_created_idx`.execute(db);
  if (dialect === 'sqlite') {
    await sql`create index users_created_idx on users (created_at desc, id desc, search_text)`.execute(db);
    return;
  }
  await sql`create index users_created_idx on users (created_at desc, id desc) include (search_text)`.execute(db);
  // Every writer names the column from now on: no default hides one that forgets it.
  await sql`alter table users alter column search_text drop default`.execute(db);
  await sql`drop index if exists users_search_idx`.execute(db);
  await sql`savepoint search_index`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index users_search_idx on users
      using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(db);
    await sql`release savepoint search_index`.execute(db);
  } catch {
    await sql`rollback to savepoint search_index`.execute(db);
  }
}

/**
 * SQLite: the FTS5 index of users.search_text by search key, filled from the users table
 * and kept by the `users_search_*` triggers. Contentless: the text is read from users.
 */
/**
 * The indexed document: the text and two newlines, so that every one or two characters of
 * the text begin a trigram (a query holds no newline to match them).
 */
const documentSql = (row: 'new' | 'users') => `${row}.search_text || char(10) || char(10)`;

export async function createSqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
  await sql`create virtual table users_search using fts5(doc,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1)`.execute(db);
  await sql`insert into users_search (rowid, doc) select ${sql.raw(searchKeySql('users'))}, ${sql.raw(documentSql('users'))} from users`.execute(
    db,
  );
  await sql`insert into users_search (users_search) values ('optimize')`.execute(db);
  const add = `insert into users_search (rowid, doc) values (${searchKeySql('new')}, ${documentSql('new')});`;
  const remove = `delete from users_search where rowid = ${searchKeySql('old')};`;
  await sql.raw(`create trigger users_search_insert after insert on users begin ${add} end`).execute(db);
  await sql
    .raw(
      `create trigger users_search_update after update of search_text, created_at on users begin ${remove} ${add} end`,
    )
    .execute(db);
  await sql.raw(`create trigger users_search_delete after delete on users begin ${remove} end`).execute(db);
}

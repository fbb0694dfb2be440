/**
 * The users search on a stored, folded text, found alike by both databases: `users.search_text`
 * (the folded name, a newline and the folded e-mail), filled here for every existing user.
 * SQLite: a contentless FTS5 trigram index of it (case-sensitive: the text is folded already),
 * whose rowid is the user's place in the users list (minus the milliseconds of created_at since
 * 2000, shifted left 22 bits, plus the id), kept by the `users_search_*` triggers. PostgreSQL: a
 * pg_trgm GIN index of the same text. The users list's index carries the text.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 * The fold below is a copy of the one the server used when this step was released.
 */
import { sql, type Kysely } from 'kysely';

const fold = (text: string) =>
  text
    .toLowerCase()
    .replace(/i\u0307/g, 'i')
    .replace(/ς/g, 'σ');

const KEY = (row: string) =>
  `(-((coalesce(cast(round(unixepoch(${row}.created_at, 'subsec') * 1000) as integer), 946684800000) - 946684800000) * 4194304 + ${row}.id))`;

const sqliteIndex = [
  `drop trigger users_search_insert`,
  `drop trigger users_search_update`,
  `drop trigger users_search_delete`,
  `drop table users_search`,
  `create virtual table users_search using fts5(doc,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1)`,
  `insert into users_search (rowid, doc) select ${KEY('users')}, users.search_text || char(10) || char(10) from users`,
  `insert into users_search (users_search) values ('optimize')`,
  `create trigger users_search_insert after insert on users begin insert into users_search (rowid, doc) values (${KEY('new')}, new.search_text || char(10) || char(10)); end`,
  `create trigger users_search_update after update of search_text, created_at on users begin delete from users_search where rowid = ${KEY('old')}; insert into users_search (rowid, doc) values (${KEY('new')}, new.search_text || char(10) || char(10)); end`,
  `create trigger users_search_delete after delete on users begin delete from users_search where rowid = ${KEY('old')}; end`,
  `drop index users_created_idx`,
  `create index users_created_idx on users (created_at desc, id desc, search_text)`,
];

const postgresIndex = [
  `drop index users_created_idx`,
  `create index users_created_idx on users (created_at desc, id desc) include (search_text)`,
  `alter table users alter column search_text drop default`,
  `drop index if exists users_search_idx`,
];

export async function up(db: Kysely<unknown>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql`alter table users add column search_text text not null default ''`.execute(db);
  for (let after = 0; ;) {
    const { rows } = await sql<{ id: number; name: string; email: string }>`
      select id, name, email from users where id > ${after} order by id limit ${1000}`.execute(db);
    if (rows.length === 0) break;
    const values = rows.map(
      (r) => sql`(cast(${Number(r.id)} as integer), cast(${`${fold(r.name)}\n${fold(r.email)}`} as text))`,
    );
    await sql`with v (id, search_text) as (values ${sql.join(values)})
      update users set search_text = v.search_text from v where users.id = v.id`.execute(db);
    after = Number(rows.at(-1)!.id);
  }
  for (const statement of dialect === 'sqlite' ? sqliteIndex : postgresIndex) await sql.raw(statement).execute(db);
  if (dialect === 'sqlite') return;
  // Without the pg_trgm extension (not installed, or no right to create it) search reads the table.
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

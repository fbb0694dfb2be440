/**
 * On PostgreSQL, each SQL text is prepared once per connection under a name; a statement
 * whose table changed since (another instance migrating) still answers, with the new shape.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  testDatabase as freshDatabase,
  type ScratchDatabase as FreshDatabase,
} from '../../scripts/support/scratch-database.js';
import { openDatabase, type Db } from './connection.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.runIf(onPostgres)('PostgreSQL statements', () => {
  let fresh: FreshDatabase;
  let db: Db;

  beforeAll(async () => {
    fresh = await freshDatabase('statements');
    db = openDatabase(fresh.url, { poolSize: 1 });
    await sql`create table probe (id integer primary key, label text not null)`.execute(db.kysely);
    await sql`insert into probe values (1, 'one'), (2, 'two')`.execute(db.kysely);
  });
  afterAll(async () => {
    await db?.close();
    await fresh?.drop();
  });

  const read = (id: number) =>
    db.kysely
      .selectFrom('probe' as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .execute() as Promise<Record<string, unknown>[]>;

  it('prepares a query once per connection and runs it with each call’s parameters', async () => {
    expect(await read(1)).toEqual([{ id: 1, label: 'one' }]);
    expect(await read(2)).toEqual([{ id: 2, label: 'two' }]);
    const prepared = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements
      where statement like '%from ' || chr(34) || 'probe' || chr(34) || '%'`.execute(db.kysely);
    expect(prepared.rows[0]!.n).toBe(1);
  });

  it('answers with the new shape after the table changed under a prepared statement', async () => {
    await sql`alter table probe add column extra text not null default 'x'`.execute(db.kysely);
    expect(await read(1)).toEqual([{ id: 1, label: 'one', extra: 'x' }]);
  });
});

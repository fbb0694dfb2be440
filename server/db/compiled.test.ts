import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './connection.js';
import { compiled, constantLimits } from './compiled.js';
import { migrate } from './migrate.js';
import { boundLimitsAsExpressions } from './sqlite.js';

const db = openDatabase('sqlite::memory:');
afterAll(() => db.close());

describe('compiled queries', () => {
  it('compiles once and runs with each call’s own parameters, keeping built-in constants', async () => {
    await migrate(db);
    await db.kysely
      .insertInto('jobs')
      .values([
        { name: 'users', last_run: '0' },
        { name: 'entries', last_run: '0' },
      ])
      .execute();
    const counter = compiled<{ name: string }>()((k, param) =>
      k.selectFrom('jobs').select(['name', 'last_run']).where('name', '=', param('name')).where('last_run', '>=', '0'),
    );
    expect(await counter(db.kysely, { name: 'users' })).toEqual([{ name: 'users', last_run: '0' }]);
    expect(await counter(db.kysely, { name: 'entries' })).toEqual([{ name: 'entries', last_run: '0' }]);
    expect(await counter(db.kysely, { name: 'nothing' })).toEqual([]);
    // Inside a transaction too.
    await db.kysely.transaction().execute(async (trx) => {
      expect(await counter(trx, { name: 'users' })).toHaveLength(1);
    });
  });

  it('refuses a call that leaves out a named parameter of the query', async () => {
    const broken = compiled<{ name: string }>()((k, param) =>
      k.selectFrom('jobs').select('name').where('name', '=', param('name')),
    );
    await expect(broken(db.kysely, {} as { name: string })).rejects.toThrow(/parameter "name"/);
  });

  it('never reads what another transaction has not committed, and waits for it instead', async () => {
    const value = compiled<{ name: string }>()((k, param) =>
      k.selectFrom('jobs').select('last_run').where('name', '=', param('name')),
    );
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const writer = db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('jobs').set({ last_run: '41' }).where('name', '=', 'entries').execute();
      inside();
      await paused;
      await trx.updateTable('jobs').set({ last_run: '42' }).where('name', '=', 'entries').execute();
    });
    await entered;
    let read: number | undefined;
    const reader = value(db.kysely, { name: 'entries' }).then((rows) => (read = Number(rows[0]!.last_run)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toBeUndefined();
    resume();
    await writer;
    await reader;
    expect(read).toBe(42);
  });

  it('pages with LIMIT and OFFSET bound as expressions, with the same rows as constants', async () => {
    expect(boundLimitsAsExpressions('select * from "t" order by "id" limit ? offset ?')).toBe(
      'select * from "t" order by "id" limit +? offset +?',
    );
    expect(boundLimitsAsExpressions('select "limit" from "t" where "a" = ? limit ?')).toBe(
      'select "limit" from "t" where "a" = ? limit +?',
    );
    const page = compiled<{ limit: number; offset: number }>()((k, param) =>
      k.selectFrom('jobs').select('name').orderBy('name').limit(param('limit')).offset(param('offset')),
    );
    expect(await page(db.kysely, { limit: 1, offset: 0 })).toEqual([{ name: 'entries' }]);
    expect(await page(db.kysely, { limit: 1, offset: 1 })).toEqual([{ name: 'users' }]);
    expect(await page(db.kysely, { limit: 5, offset: 0 })).toHaveLength(2);
    expect(await page(db.kysely, { limit: 5, offset: 2 })).toEqual([]);
  });

  it('writes a constant LIMIT and OFFSET in the SQL, and keeps a named one bound', async () => {
    const constant = db.kysely.withPlugin(constantLimits).selectFrom('jobs').select('name').orderBy('name');
    const written = constant.limit(1).offset(1).compile();
    expect(written.sql).toMatch(/limit 1 offset 1$/);
    expect(written.parameters).toEqual([]);
    const first = compiled()((k) => k.selectFrom('jobs').select('name').orderBy('name').limit(1));
    expect(await first(db.kysely)).toEqual([{ name: 'entries' }]);
    const named = compiled<{ limit: number }>()((k, param) =>
      k.selectFrom('jobs').select('name').orderBy('name').limit(param('limit')),
    );
    expect(await named(db.kysely, { limit: 2 })).toHaveLength(2);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { boundLimitsAsExpressions, openDatabase } from './database.js';
import { migrate } from './migrations.js';
import { prepared } from './prepared.js';

const db = openDatabase('sqlite::memory:');
afterAll(() => db.close());

describe('prepared', () => {
  it('compiles once and runs with each call’s own parameters, keeping built-in constants', async () => {
    await migrate(db);
    const counter = prepared(['\u0000name'], (k, name: string) =>
      k.selectFrom('counters').select(['name', 'value']).where('name', '=', name).where('value', '>=', 0),
    );
    expect(await counter(db.kysely, 'users')).toEqual([{ name: 'users', value: 0 }]);
    expect(await counter(db.kysely, 'entries')).toEqual([{ name: 'entries', value: 0 }]);
    expect(await counter(db.kysely, 'nothing')).toEqual([]);
    // Inside a transaction too.
    await db.kysely.transaction().execute(async (trx) => {
      expect(await counter(trx, 'users')).toHaveLength(1);
    });
  });

  it('refuses a placeholder that does not reach the SQL as a parameter', async () => {
    const broken = prepared(['\u0000unused'], (k, _unused: string) => k.selectFrom('counters').select('name'));
    await expect(broken(db.kysely, 'x')).rejects.toThrow(/placeholder 0/);
  });

  it('never reads what another transaction has not committed, and waits for it instead', async () => {
    const value = prepared(['\u0000name'], (k, name: string) =>
      k.selectFrom('counters').select('value').where('name', '=', name),
    );
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const writer = db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('counters').set({ value: 41 }).where('name', '=', 'entries').execute();
      inside();
      await paused;
      await trx.updateTable('counters').set({ value: 42 }).where('name', '=', 'entries').execute();
    });
    await entered;
    let read: number | undefined;
    const reader = value(db.kysely, 'entries').then((rows) => (read = Number(rows[0]!.value)));
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
    const page = prepared([-1_000_001, -1_000_002], (k, limit: number, offset: number) =>
      k.selectFrom('counters').select('name').orderBy('name').limit(limit).offset(offset),
    );
    expect(await page(db.kysely, 1, 0)).toEqual([{ name: 'entries' }]);
    expect(await page(db.kysely, 1, 1)).toEqual([{ name: 'users' }]);
    expect(await page(db.kysely, 5, 0)).toHaveLength(2);
    expect(await page(db.kysely, 5, 2)).toEqual([]);
  });
});

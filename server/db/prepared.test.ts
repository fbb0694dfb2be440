import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
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
});

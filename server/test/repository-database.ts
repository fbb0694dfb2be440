/** For repository tests: a migrated scratch database for one test file, and a repeatable generator. */
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type Db } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import { testDatabase, type ScratchDatabase } from '../../scripts/support/scratch-database.js';

/** Opens and migrates a scratch database before the file's tests and drops it after; answers its getter. */
export function migratedDatabase(name: string, poolSize: number): () => Db {
  let target: ScratchDatabase | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    target = await testDatabase(name);
    db = openDatabase(target.url, { poolSize });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await target?.drop();
  });
  return () => {
    if (!db) throw new Error('The database opens before the tests run');
    return db;
  };
}

/** A small deterministic generator (a test that uses it repeats exactly). */
export function randomOf(seed: number): (n: number) => number {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

/**
 * Databases for the reliability tests that run a real server process: the shared scratch
 * database (scripts/support/scratch-database.ts) of TEST_DATABASE_URL or SQLite, with a
 * folder for anything else the test writes (backups, copies) on either dialect.
 */
import {
  scratchDatabase,
  testDatabase,
  type ScratchDatabase as Scratch,
} from '../../../scripts/support/scratch-database.js';

export interface ScratchDatabase extends Omit<Scratch, 'dir' | 'drop'> {
  /** A folder for anything else the test writes (backups, copies). */
  dir: string;
  remove(): Promise<void>;
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const { dir, drop, ...db } = await testDatabase('reliability', { folder: true });
  return { ...db, dir: dir!, remove: drop };
}

/** A new database on the PostgreSQL server of `adminUrl`, named after `prefix` (rt_<what>). */
export function createPostgresDatabase(adminUrl: string, prefix: string): Promise<Scratch> {
  return scratchDatabase({ baseUrl: adminUrl, name: prefix.replace(/^rt_/, '') });
}

/** A benchmark run's scratch database (scripts/support/scratch-database.ts), named after the run's size. */
import { scratchDatabase, type ScratchDatabase } from '../../scripts/support/scratch-database.js';

export type BenchDatabase = ScratchDatabase;

/**
 * A fresh, empty database named after `name`. With a PostgreSQL URL, a new database is
 * created on that server (and dropped afterwards); the URL's own database is never touched.
 * Otherwise a SQLite file in a temporary folder.
 */
export function createBenchDatabase(baseUrl: string | undefined, name: string): Promise<BenchDatabase> {
  return scratchDatabase({ baseUrl, name: `bench_${name}` });
}

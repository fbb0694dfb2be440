/**
 * npm run tallies:rebuild
 *
 * Recomputes every tally of runs (server/db/tallies.ts: each runner's days and runs, everyone's
 * runs per day, the runs that count for records, the insights revisions) and the users search
 * index from the rows themselves, in one transaction, on the database of DATABASE_URL; then every
 * runner's routes and segment efforts from their tracks alone (CONTRACT.md §22), a runner at a time. The repair
 * for a database whose rows were written by hand; the server may keep running meanwhile (its
 * writes wait for the transaction).
 */
import { loadConfig } from '../server/config.js';
import { contextOf } from '../server/context.js';
import { openDatabase } from '../server/db/connection.js';
import { migrate } from '../server/db/migrate.js';
import { rebuildTallies } from '../server/features/entries/entries.service.js';
import { rebuildRoutes } from '../server/features/routes/routes.service.js';

const config = loadConfig(process.env);
const db = openDatabase(config.databaseUrl, { poolSize: 1, backgroundCheckpoints: false });
try {
  const started = Date.now();
  await migrate(db);
  const ctx = contextOf(db.kysely, config);
  await rebuildTallies(ctx);
  await rebuildRoutes(ctx);
  console.log(`Tallies, the search index, routes and segment efforts rebuilt in ${Date.now() - started} ms.`);
} finally {
  await db.close();
}

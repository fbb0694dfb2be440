/**
 * npm run tallies:rebuild
 *
 * Recomputes every tally of runs (server/db/tallies.ts: each runner's days and runs, everyone's
 * runs per day, the runs that count for records, the insights revisions) and the users search
 * index from the rows themselves, in one transaction, on the database of DATABASE_URL. The repair
 * for a database whose rows were written by hand; the server may keep running meanwhile (its
 * writes wait for the transaction).
 */
import { loadConfig } from '../server/config.js';
import { contextOf } from '../server/context.js';
import { openDatabase } from '../server/db/connection.js';
import { migrate } from '../server/db/migrate.js';
import { rebuildTallies } from '../server/features/entries/entries.service.js';

const config = loadConfig(process.env);
const db = openDatabase(config.databaseUrl, { poolSize: 1, backgroundCheckpoints: false });
try {
  const started = Date.now();
  await migrate(db);
  await rebuildTallies(contextOf(db.kysely, config));
  console.log(`Tallies and the search index rebuilt in ${Date.now() - started} ms.`);
} finally {
  await db.close();
}

/**
 * npm run bench:explain  (or: npx tsx bench/explain.ts)
 *
 * Prints the plan of every repository query on the database of DATABASE_URL (seed it
 * first: npm run seed) and flags plans that read a whole table or sort in memory.
 * Exits with 1 when any plan is flagged.
 */
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { migrate } from '../server/db/migrate.js';
import { explainRepositoryQueries, usePostgresUrl } from './lib/plans.js';

async function main() {
  const config = loadConfig();
  const db = openDatabase(config.databaseUrl, { poolSize: 2, backgroundCheckpoints: false });
  try {
    await migrate(db);
    if (db.dialect === 'postgres') usePostgresUrl(config.databaseUrl);
    const plans = await explainRepositoryQueries(db);
    let flagged = 0;
    for (const p of plans) {
      console.log(`\n${p.problems.length > 0 ? '!!' : 'ok'} ${p.call}\n   ${p.sql.replace(/\s+/g, ' ')}`);
      for (const line of p.plan) console.log(`   | ${line}`);
      if (p.problems.length > 0) flagged += 1;
    }
    console.log(`\n${plans.length} queries, ${flagged} flagged (${db.dialect}).`);
    process.exitCode = flagged > 0 ? 1 : 0;
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

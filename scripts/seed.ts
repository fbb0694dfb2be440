/**
 * npm run seed -- --users N --entries M [--password P]
 *
 * Fills the database of DATABASE_URL (as the server reads it) with N runners
 * (user1@example.com, user2@example.com, ...) and M runs between them. Migrations run
 * first; on an empty database the first admin is created from ADMIN_EMAIL /
 * ADMIN_PASSWORD exactly as the server would. A second run appends further users.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.js';
import { progressBar } from './seed/progress.js';
import { DEFAULT_SEED_PASSWORD, seedDatabase } from './seed/seed.js';

const USAGE = `Usage: npm run seed -- --users N --entries M [--password P] [--random-seed S]

  --users N        runners to create (user{n}@example.com), default 100
  --entries M      runs to spread over them, default 10000
  --password P     password of every seeded runner, default "${DEFAULT_SEED_PASSWORD}"
  --random-seed S  same seed, same data (default fixed)

The database is DATABASE_URL (sqlite:<path> or postgres://...), as for the server.`;

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/[_,]/g, ''));
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new ConfigError(`--${name} must be a whole number, got "${value}".`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string' },
      entries: { type: 'string' },
      password: { type: 'string' },
      'random-seed': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const users = count(values.users, 'users', 100);
  const entries = count(values.entries, 'entries', 10_000);
  const config = loadConfig();
  const where = config.databaseUrl.startsWith('sqlite:')
    ? config.databaseUrl
    : config.databaseUrl.replace(/\/\/[^@]*@/, '//');
  console.error(
    `Seeding ${where} with ${users.toLocaleString('en-US')} users and ${entries.toLocaleString('en-US')} runs`,
  );

  const bar = progressBar(entries, 'runs');
  const result = await seedDatabase(config, {
    users,
    entries,
    ...(values.password !== undefined ? { password: values.password } : {}),
    ...(values['random-seed'] !== undefined ? { randomSeed: count(values['random-seed'], 'random-seed', 0) } : {}),
    onProgress: (done) => bar.update(done.entries),
    onStatus: (message) => {
      bar.finish();
      console.error(`${message}...`);
    },
  });
  bar.finish();

  if (result.admin?.generatedPassword) {
    console.error(`First admin created: ${result.admin.email} / ${result.admin.generatedPassword} (shown once)`);
  } else if (result.admin) {
    console.error(`First admin created: ${result.admin.email}`);
  }
  const last = result.firstNumber + result.users - 1;
  const rate = result.ms > 0 ? Math.round((result.entries / result.ms) * 1000) : result.entries;
  console.error(
    `Done in ${(result.ms / 1000).toFixed(1)} s: ${result.users.toLocaleString('en-US')} users ` +
      (result.users > 0 ? `(user${result.firstNumber}@example.com .. user${last}@example.com) ` : '') +
      `and ${result.entries.toLocaleString('en-US')} runs (${rate.toLocaleString('en-US')} runs/s); ` +
      `password "${values.password ?? DEFAULT_SEED_PASSWORD}".`,
  );
}

main().catch((error: unknown) => {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

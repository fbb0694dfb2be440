/**
 * npm run seed -- --users N --entries M [--tracks T] [--long-history-tracks L] [--password P]
 *
 * Fills the database of DATABASE_URL (as the server reads it) with N runners
 * (user1@example.com, user2@example.com, ...) and M runs between them, T of them with a
 * synthetic track recorded every second. Migrations run first; on an empty database the first
 * admin is created from ADMIN_EMAIL / ADMIN_PASSWORD exactly as the server would. A second run
 * appends further users.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.js';
import { progressBar, type ProgressBar } from './seed/progress.js';
import { LONG_HISTORY_RUNS } from './seed/generate.js';
import { DEFAULT_SEED_PASSWORD, seedDatabase } from './seed/seed.js';

const USAGE = `Usage: npm run seed -- --users N --entries M [--tracks T] [--long-history] [--long-history-tracks L]
                      [--track-threads W] [--password P] [--random-seed S]

  --users N                runners to create (user{n}@example.com), default 100
  --entries M              runs to spread over them, default 10000
  --tracks T               runs among the M that get a track (one sample a second, at most
                           3 hours, stored as an import stores a file's), picked at random; default 0
  --long-history           one more runner, with a run every day of the last five years
  --long-history-tracks L  that runner's latest L runs get a track (adds the runner); default 0
  --track-threads W        worker threads that make the tracks (default: the cores, at most 4)
  --password P             password of every seeded runner, default "${DEFAULT_SEED_PASSWORD}"
  --random-seed S          same seed, same data (default fixed)

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
      tracks: { type: 'string' },
      'long-history': { type: 'boolean' },
      'long-history-tracks': { type: 'string' },
      'track-threads': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const users = count(values.users, 'users', 100);
  const entries = count(values.entries, 'entries', 10_000);
  const tracks = count(values.tracks, 'tracks', 0);
  const longHistoryTracks = count(values['long-history-tracks'], 'long-history-tracks', 0);
  const longHistoryRunner = Boolean(values['long-history']) || longHistoryTracks > 0;
  if (tracks > entries) throw new ConfigError(`--tracks (${tracks}) cannot exceed --entries (${entries}).`);
  const config = loadConfig();
  const where = config.databaseUrl.startsWith('sqlite:')
    ? config.databaseUrl
    : config.databaseUrl.replace(/\/\/[^@]*@/, '//');
  console.error(
    `Seeding ${where} with ${users.toLocaleString('en-US')} users and ${entries.toLocaleString('en-US')} runs`,
  );

  const bar = progressBar(entries + (longHistoryRunner ? LONG_HISTORY_RUNS : 0), 'runs');
  // Made when the tracks start, with their total.
  const tracksProgress: { bar: ProgressBar | null } = { bar: null };
  const result = await seedDatabase(config, {
    users,
    entries,
    tracks,
    longHistoryRunner,
    longHistoryTracks,
    ...(values['track-threads'] !== undefined
      ? { trackThreads: count(values['track-threads'], 'track-threads', 0) }
      : {}),
    ...(values.password !== undefined ? { password: values.password } : {}),
    ...(values['random-seed'] !== undefined ? { randomSeed: count(values['random-seed'], 'random-seed', 0) } : {}),
    onProgress: (done) => bar.update(done.entries),
    onTrackProgress: (done, total) => {
      tracksProgress.bar ??= progressBar(total, 'tracks');
      tracksProgress.bar.update(done);
    },
    onStatus: (message) => {
      bar.finish();
      console.error(`${message}...`);
    },
  });
  bar.finish();
  tracksProgress.bar?.finish();

  if (result.admin?.generatedPassword) {
    console.error(`First admin created: ${result.admin.email} / ${result.admin.generatedPassword} (shown once)`);
  } else if (result.admin) {
    console.error(`First admin created: ${result.admin.email}`);
  }
  const last = result.firstNumber + result.users - 1;
  // Runs per second of the runs' own seeding, the tracks' time aside (reported below).
  const runsMs = result.ms - result.tracks.ms;
  const rate = runsMs > 0 ? Math.round((result.entries / runsMs) * 1000) : result.entries;
  console.error(
    `Done in ${(result.ms / 1000).toFixed(1)} s: ${result.users.toLocaleString('en-US')} users ` +
      (result.users > 0 ? `(user${result.firstNumber}@example.com .. user${last}@example.com) ` : '') +
      `and ${result.entries.toLocaleString('en-US')} runs (${rate.toLocaleString('en-US')} runs/s); ` +
      `password "${values.password ?? DEFAULT_SEED_PASSWORD}".`,
  );
  if (result.longHistoryRunner) {
    console.error(
      `Long-history runner: ${result.longHistoryRunner.email}, ${result.longHistoryRunner.entries.toLocaleString('en-US')} runs, ` +
        `${result.longHistoryRunner.tracks.toLocaleString('en-US')} of them tracked.`,
    );
  }
  if (result.tracks.runs > 0) {
    const hours = result.tracks.samples / 3600;
    console.error(
      `Tracks: ${result.tracks.runs.toLocaleString('en-US')} (${hours.toFixed(0)} hours of samples) in ` +
        `${(result.tracks.ms / 1000).toFixed(1)} s = ${((result.tracks.runs / Math.max(1, result.tracks.ms)) * 1000).toFixed(1)} tracks/s, ` +
        `${((hours / Math.max(1, result.tracks.ms)) * 1000).toFixed(1)} hours of samples/s.`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

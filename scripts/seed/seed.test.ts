/**
 * The seed writes realistic, consistent data: right counts, e-mails, ranges, exact
 * the tallies, and a password that signs in through the real app.
 * Runs on SQLite, or on PostgreSQL when TEST_DATABASE_URL is set.
 */
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dateInZone } from '../../core/time.js';
import { buildApp } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { openDatabase, sqlitePath, type Db } from '../../server/db/connection.js';
import { maintainedTotals, recountedTotals } from './consistency.js';
import { DEFAULT_SEED_PASSWORD, seedDatabase, type SeedProgress } from './seed.js';
import {
  HISTORY_YEARS,
  MAX_DISTANCE_M,
  MAX_PACE_S_PER_KM,
  MIN_DISTANCE_M,
  MIN_PACE_S_PER_KM,
  createRandom,
  entryCounts,
} from './generate.js';
import { testDatabase as freshDatabase, type ScratchDatabase as FreshDatabase } from '../support/scratch-database.js';

const NOW = new Date('2026-03-18T12:00:00.000Z');
const DAY_MS = 86_400_000;
const ADMIN = { email: 'boss@example.com', password: 'boss-password-1' };

/** The app's configuration on a scratch database, at NOW, with the first admin ADMIN. */
const configOf = (target: FreshDatabase): Config => ({
  ...loadConfig({ DATABASE_URL: target.url, WEB_ROOT: '' }),
  adminEmail: ADMIN.email,
  adminPassword: ADMIN.password,
  logLevel: 'silent',
  dbPoolSize: 2,
  now: () => NOW,
});

describe('entryCounts', () => {
  it('splits the runs exactly and unevenly', () => {
    const counts = entryCounts(createRandom(7), 1000, 100_000);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(100_000);
    expect(Math.max(...counts)).toBeGreaterThan(150);
    expect(Math.min(...counts)).toBeLessThan(60);
  });
});

describe('seedDatabase', () => {
  let target: FreshDatabase;
  let config: Config;
  let db: Db;
  const progress: SeedProgress[] = [];
  let journalAfterSeed = '';

  beforeAll(async () => {
    target = await freshDatabase('seed');
    config = configOf(target);
    const result = await seedDatabase(config, {
      users: 40,
      entries: 3000,
      now: NOW,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toMatchObject({ users: 40, entries: 3000, firstNumber: 1 });
    expect(result.admin).toEqual({ email: ADMIN.email, generatedPassword: null });
    if (config.databaseUrl.startsWith('sqlite:')) {
      // Read as the file left it: opening through the app would set WAL itself.
      const raw = new SQLite(sqlitePath(config.databaseUrl), { readonly: true });
      journalAfterSeed = String(raw.pragma('journal_mode', { simple: true }));
      raw.close();
    }
    db = openDatabase(config.databaseUrl, { poolSize: 2 });
  });

  afterAll(async () => {
    await db?.close();
    await target?.drop();
  });

  /** Every maintained total equals its recount; returns the number of users and runs. */
  async function consistency() {
    const maintained = await maintainedTotals(db.kysely);
    expect(maintained).toEqual(await recountedTotals(db.kysely));
    const users = Object.keys(maintained.entryCounts).length;
    const entries = Object.values(maintained.entryDays).reduce((a, b) => a + b, 0);
    return { users, entries };
  }

  it('writes the requested users and runs, with exact tallies', async () => {
    // 40 runners and the first admin.
    expect(await consistency()).toEqual({ users: 41, entries: 3000 });
    expect(progress.at(-1)).toEqual({ users: 40, entries: 3000 });
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'leaves a SQLite file in WAL mode, though it seeds through a rollback journal when alone on it',
    () => {
      expect(journalAfterSeed).toBe('wal');
      expect(db.sqlite?.pragma('integrity_check', { simple: true })).toBe('ok');
    },
  );

  it('names runners user{n}@example.com, created over the last year, as ordinary users', async () => {
    const users = await db.kysely
      .selectFrom('users')
      .selectAll()
      .where('email', '<>', ADMIN.email)
      .orderBy('id')
      .execute();
    expect(users.map((u) => u.email)).toEqual(Array.from({ length: 40 }, (_, i) => `user${i + 1}@example.com`));
    for (const user of users) {
      expect(user.role).toBe('user');
      expect(Number(user.is_demo)).toBe(0);
      expect(user.name).toMatch(/^\S+ \S+$/);
      const created = Date.parse(user.created_at);
      expect(created).toBeLessThanOrEqual(NOW.getTime());
      expect(created).toBeGreaterThan(NOW.getTime() - 366 * DAY_MS);
      expect(user.updated_at).toBe(user.created_at);
    }
    // Ids follow sign-up order.
    const created = users.map((u) => u.created_at);
    expect([...created].sort()).toEqual(created);
  });

  it('writes plausible runs: 2-42 km, sane paces, dates over several years and never in the future', async () => {
    const rows = await db.kysely
      .selectFrom('entries')
      .innerJoin('users', 'users.id', 'entries.user_id')
      .select([
        'entries.date',
        'entries.distance_m',
        'entries.seconds',
        'entries.speed',
        'entries.created_at',
        'users.timezone',
      ])
      .execute();
    expect(rows).toHaveLength(3000);
    const earliest = addDays(NOW.toISOString().slice(0, 10), -HISTORY_YEARS * 366);
    for (const row of rows) {
      expect(row.distance_m).toBeGreaterThanOrEqual(MIN_DISTANCE_M);
      expect(row.distance_m).toBeLessThanOrEqual(MAX_DISTANCE_M);
      const pace = Number(row.seconds) / (Number(row.distance_m) / 1000);
      expect(pace).toBeGreaterThanOrEqual(MIN_PACE_S_PER_KM - 1);
      expect(pace).toBeLessThanOrEqual(MAX_PACE_S_PER_KM + 1);
      // The server's formula, to the last bit.
      expect(Number(row.speed)).toBe((Number(row.distance_m) * 36) / (Number(row.seconds) * 10));
      expect(row.date >= earliest).toBe(true);
      expect(row.date <= dateInZone(NOW, row.timezone)).toBe(true);
      expect(Date.parse(row.created_at)).toBeLessThanOrEqual(NOW.getTime());
    }
    const years = new Set(rows.map((r) => r.date.slice(0, 4)));
    expect(years.size).toBeGreaterThanOrEqual(4);
    const km = rows.map((r) => Number(r.distance_m) / 1000);
    const mean = km.reduce((a, b) => a + b, 0) / km.length;
    expect(mean).toBeGreaterThan(7);
    expect(mean).toBeLessThan(16);
  });

  it('gives every runner the password, which signs in through the app; totals match the API', async () => {
    const app = await buildApp(config);
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'user7@example.com', password: DEFAULT_SEED_PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      const token = login.json<{ access_token: string }>().access_token;
      const own = await db.kysely
        .selectFrom('users')
        .select('entry_count')
        .where('email', '=', 'user7@example.com')
        .executeTakeFirstOrThrow();
      const list = await app.inject({
        url: '/api/v1/entry?per_page=100',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json<{ entries: { total: number } }>().entries.total).toBe(Number(own.entry_count));

      const wrong = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'user7@example.com', password: 'not-the-password' },
      });
      expect(wrong.statusCode).toBe(401);

      const admin = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: ADMIN });
      const adminToken = admin.json<{ access_token: string }>().access_token;
      const dashboard = await app.inject({
        url: '/api/v1/dashboard/admin-data',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(dashboard.json()).toMatchObject({ total_users: 41, total_entries: 3000 });

      // The search index, merged at the end of the seed, finds runners by any part of the address.
      const search = async (query: string) => {
        const res = await app.inject({
          url: `/api/v1/user?query=${encodeURIComponent(query)}&per_page=100`,
          headers: { authorization: `Bearer ${adminToken}` },
        });
        expect(res.statusCode).toBe(200);
        return res.json<{ users: { total: number; data: { email: string }[] } }>().users;
      };
      expect((await search('user7@')).data.map((u) => u.email)).toEqual(['user7@example.com']);
      expect((await search('ser3')).data.map((u) => u.email).sort()).toEqual(
        ['user3@example.com', ...Array.from({ length: 10 }, (_, i) => `user${30 + i}@example.com`)].sort(),
      );
      // The 40 runners and the admin.
      expect((await search('@example.com')).total).toBe(41);
    } finally {
      await app.close();
    }
  });

  it('appends on a second run: numbering continues, counts stay exact, a custom password works', async () => {
    // Every runner's insights revision moves, so that a server running on the database forgets
    // the answers it remembered (decision 017).
    const revisions = async () =>
      Object.fromEntries(
        (await db.kysely.selectFrom('insight_revisions').select(['user_id', 'revision']).execute()).map((r) => [
          Number(r.user_id),
          Number(r.revision),
        ]),
      );
    const revisionsBefore = await revisions();
    const result = await seedDatabase(config, { users: 5, entries: 100, password: 'another-pass', now: NOW });
    expect(result).toMatchObject({ users: 5, entries: 100, firstNumber: 41, admin: null });
    expect(await consistency()).toEqual({ users: 46, entries: 3100 });
    const revisionsAfter = await revisions();
    for (const [userId, revision] of Object.entries(revisionsBefore)) {
      expect(revisionsAfter[Number(userId)]).toBeGreaterThan(revision);
    }
    const app = await buildApp(config);
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'user45@example.com', password: 'another-pass' },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('checks its options', async () => {
    await expect(seedDatabase(config, { users: 0, entries: 10 })).rejects.toThrow(/at least one user/);
    await expect(seedDatabase(config, { users: 1, entries: 1, password: 'short' })).rejects.toThrow(/8 to 128/);
    expect(await consistency()).toEqual({ users: 46, entries: 3100 });
  });
});

describe('seedDatabase with tracks', () => {
  const TRACKS = 24;
  const LONG_TRACKS = 30;
  let target: FreshDatabase;
  let config: Config;
  let db: Db;
  let seeded: Awaited<ReturnType<typeof seedDatabase>>;

  beforeAll(async () => {
    target = await freshDatabase('seed_tracks');
    config = configOf(target);
    // Two threads make the tracks, as for thousands of them.
    seeded = await seedDatabase(config, {
      users: 12,
      entries: 400,
      tracks: TRACKS,
      longHistoryRunner: true,
      longHistoryTracks: LONG_TRACKS,
      trackThreads: 2,
      now: NOW,
    });
    db = openDatabase(config.databaseUrl, { poolSize: 2 });
  });

  afterAll(async () => {
    await db?.close();
    await target?.drop();
  });

  const trackedRuns = () =>
    db.kysely
      .selectFrom('entries as e')
      .innerJoin('tracks as t', 't.entry_id', 'e.id')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.id', 'e.date', 'e.seconds', 'e.has_track', 'e.avg_heart_rate', 'u.email', 't.samples'])
      .orderBy('e.id')
      .execute();

  it('tracks exactly the runs asked for: N of the runners, the long-history runner its latest', async () => {
    expect(seeded.tracks.runs).toBe(TRACKS + LONG_TRACKS);
    expect(seeded.longHistoryRunner).toMatchObject({ tracks: LONG_TRACKS });
    const tracked = await trackedRuns();
    expect(tracked).toHaveLength(TRACKS + LONG_TRACKS);
    const flagged = await db.kysely
      .selectFrom('entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('has_track', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(flagged.n)).toBe(TRACKS + LONG_TRACKS);
    const long = tracked.filter((r) => r.email === seeded.longHistoryRunner!.email);
    expect(long).toHaveLength(LONG_TRACKS);
    const latest = await db.kysely
      .selectFrom('entries as e')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .select('e.id')
      .where('u.email', '=', seeded.longHistoryRunner!.email)
      .orderBy('e.date', 'desc')
      .orderBy('e.id', 'desc')
      .limit(LONG_TRACKS)
      .execute();
    expect(long.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
      latest.map((r) => Number(r.id)).sort((a, b) => a - b),
    );
    // One sample a second of the run, three hours at most; the run carries the track's summary.
    for (const run of tracked) {
      expect(Number(run.samples)).toBe(Math.min(Number(run.seconds), 3 * 3600) + 1);
      expect(run.avg_heart_rate).not.toBeNull();
    }
    expect(seeded.tracks.samples).toBe(tracked.reduce((sum, r) => sum + Number(r.samples), 0));
    // Storing tracks leaves every tally exact.
    expect(await maintainedTotals(db.kysely)).toEqual(await recountedTotals(db.kysely));
  });

  it("answers every tracked run's track endpoints, as for an imported track", async () => {
    const app = await buildApp(config);
    try {
      const tokens = new Map<string, string>();
      const tokenOf = async (email: string) => {
        if (!tokens.has(email)) {
          const login = await app.inject({
            method: 'POST',
            url: '/api/v1/auth/login',
            payload: { email, password: DEFAULT_SEED_PASSWORD },
          });
          expect(login.statusCode).toBe(200);
          tokens.set(email, login.json<{ access_token: string }>().access_token);
        }
        return { authorization: `Bearer ${tokens.get(email)}` };
      };
      for (const run of await trackedRuns()) {
        const headers = await tokenOf(run.email);
        const page = await app.inject({ url: `/api/v1/entry/${run.id}/track`, headers });
        expect(page.statusCode).toBe(200);
        const { track } = page.json<{
          track: { samples: number; has: Record<string, boolean>; route: string; laps: unknown[]; heart_rate: unknown };
        }>();
        expect(track.samples).toBe(Number(run.samples));
        expect(track.has).toEqual({ distance: true, position: true, elevation: true, heart_rate: true, cadence: true });
        expect(track.route.length).toBeGreaterThan(10);
        expect(track.laps.length).toBeGreaterThan(0);
        expect(track.heart_rate).not.toBeNull();
        const gpx = await app.inject({ url: `/api/v1/entry/${run.id}/track.gpx`, headers });
        expect(gpx.statusCode).toBe(200);
        expect(gpx.body.split('<trkpt ').length - 1).toBe(Number(run.samples));
        // No file was uploaded, so none is kept.
        const original = await app.inject({ url: `/api/v1/entry/${run.id}/original`, headers });
        expect(original.statusCode).toBe(404);
      }
      const longHeaders = await tokenOf(seeded.longHistoryRunner!.email);
      const routes = await app.inject({ url: '/api/v1/insights/routes', headers: longHeaders });
      expect(routes.statusCode).toBe(200);
      expect(routes.json<{ routes: { runs: unknown[] } }>().routes.runs).toHaveLength(LONG_TRACKS);
      const untracked = await db.kysely
        .selectFrom('entries as e')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .select(['e.id', 'u.email'])
        .where('e.has_track', '=', 0)
        .orderBy('e.id')
        .executeTakeFirstOrThrow();
      const none = await app.inject({
        url: `/api/v1/entry/${untracked.id}/track`,
        headers: await tokenOf(untracked.email),
      });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ message: 'This run has no track.' });
    } finally {
      await app.close();
    }
  });

  it('tracks only runs of the seed that asks, when it appends', async () => {
    const before = await trackedRuns();
    const result = await seedDatabase(config, { users: 3, entries: 60, tracks: 10, now: NOW });
    expect(result.tracks.runs).toBe(10);
    const added = (await trackedRuns()).filter((r) => !before.some((b) => b.id === r.id));
    expect(added).toHaveLength(10);
    const newRunners = Array.from({ length: 3 }, (_, i) => `user${result.firstNumber + i}@example.com`);
    for (const run of added) expect(newRunners).toContain(run.email);
  });

  it('checks its track options', async () => {
    await expect(seedDatabase(config, { users: 1, entries: 5, tracks: 6 })).rejects.toThrow(/from 0 to the number/);
    await expect(seedDatabase(config, { users: 1, entries: 5, longHistoryTracks: 3 })).rejects.toThrow(
      /long-history runner/,
    );
  });
});

/**
 * Writes the upgrade fixture of a release: a small database made through the API (users of
 * every role, runs with every field, edits and deletions, shoes, goals, personal tokens) and
 * what that release answered for it, at a fixed instant. The upgrade test
 * (server/test/upgrade.test.ts) opens the database with the current code, which migrates it,
 * and checks that every answer still holds.
 *
 *   npx tsx scripts/upgrade-fixture.ts <name> [postgres://...]
 *
 * writes server/test/fixtures/upgrade/<name>.sqlite.db or <name>.postgres.sql (pg_dump, as
 * INSERT statements) and <name>.<dialect>.json. Run it on the commit of the release the
 * fixture stands for; fixtures are never written again once committed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildApp } from '../server/app.js';
import { loadConfig, type Config } from '../server/config.js';
import { scratchDatabase } from './support/scratch-database.js';
import { REPO_ROOT } from './support/server-process.js';

/** The instant of the fixture's world: the app's clock stands still there. */
export const FIXTURE_NOW = '2026-03-18T12:00:00.000Z';
export const FIXTURE_ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
export const FIXTURE_DIR = path.join(REPO_ROOT, 'server', 'test', 'fixtures', 'upgrade');

/** A call the upgrade test makes again: who makes it (`as`: an e-mail, or `token:<e-mail>` for the personal token) and what it answered. */
export interface RecordedCall {
  as: string;
  url: string;
  status: number;
  body: unknown;
}

export interface Fixture {
  now: string;
  passwords: Record<string, string>;
  /** Each runner's personal token (plain text), as shown once when it was made. */
  tokens: Record<string, string>;
  calls: RecordedCall[];
}

const RUNNERS = [
  { name: 'Ada Runner', email: 'ada@example.com', password: 'ada-password-1', timezone: 'Europe/Paris' },
  { name: 'Bo Jogger', email: 'bo@example.com', password: 'bo-password-12', timezone: 'America/New_York' },
  { name: 'Cy Manager', email: 'cy@example.com', password: 'cy-password-12', timezone: 'UTC' },
];

async function main(): Promise<void> {
  const [name, baseUrl] = process.argv.slice(2);
  if (!name || !/^[a-z0-9-]+$/.test(name)) throw new Error('usage: upgrade-fixture.ts <name> [postgres://...]');
  const scratch = await scratchDatabase({ name: 'upgrade_fixture', baseUrl, folder: true });
  const config: Config = {
    ...loadConfig({ DATABASE_URL: scratch.url }),
    databaseUrl: scratch.url,
    adminEmail: FIXTURE_ADMIN.email,
    adminPassword: FIXTURE_ADMIN.password,
    demoMode: false,
    logLevel: 'silent',
    webRoot: null,
    now: () => new Date(FIXTURE_NOW),
  };
  const app = await buildApp(config);
  try {
    const fixture = await populate(app);
    fs.mkdirSync(FIXTURE_DIR, { recursive: true });
    await app.close();
    const base = path.join(FIXTURE_DIR, `${name}.${scratch.dialect}`);
    fs.writeFileSync(`${base}.json`, `${JSON.stringify(fixture, null, 1)}\n`);
    if (scratch.dialect === 'sqlite') {
      const db = new Database(scratch.file!);
      fs.rmSync(`${base}.db`, { force: true });
      db.prepare('vacuum into ?').run(`${base}.db`);
      db.close();
    } else {
      const dump = execFileSync('pg_dump', ['--inserts', '--no-owner', '--no-privileges', scratch.url]).toString();
      // Lines pg_dump 17+ writes for psql only: the fixture is run by a driver, statement by statement.
      fs.writeFileSync(`${base}.sql`, dump.replace(/^\\(un)?restrict .*\n/gm, ''));
    }
    console.log(`wrote ${base}.*`);
  } finally {
    await app.close();
    await scratch.drop();
  }
}

type App = Awaited<ReturnType<typeof buildApp>>;

async function populate(app: App): Promise<Fixture> {
  const call = async (token: string | null, method: string, url: string, payload?: unknown) => {
    const response = await app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    if (response.statusCode >= 400) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json() as Record<string, unknown>;
  };
  const signIn = async (email: string, password: string) =>
    (await call(null, 'POST', '/auth/login', { email, password })).access_token as string;

  const admin = await signIn(FIXTURE_ADMIN.email, FIXTURE_ADMIN.password);
  const passwords: Record<string, string> = { [FIXTURE_ADMIN.email]: FIXTURE_ADMIN.password };
  const ids: Record<string, number> = {};
  for (const runner of RUNNERS) {
    const { user } = await call(null, 'POST', '/auth/register', { ...runner, password_confirmation: runner.password });
    ids[runner.email] = (user as { id: number }).id;
    passwords[runner.email] = runner.password;
  }
  await call(admin, 'PUT', `/user/${ids['cy@example.com']}`, {
    name: 'Cy Manager',
    email: 'cy@example.com',
    role: 'manager',
  });
  const ada = await signIn('ada@example.com', passwords['ada@example.com']!);
  const bo = await signIn('bo@example.com', passwords['bo@example.com']!);
  await call(ada, 'PUT', `/user/${ids['ada@example.com']}`, {
    name: 'Ada Runner',
    email: 'ada@example.com',
    units: 'mi',
    theme: 'dark',
  });

  const shoe = async (token: string, body: Record<string, unknown>) =>
    ((await call(token, 'POST', '/shoes', body)).shoe as { id: number }).id;
  const pegasus = await shoe(ada, { name: 'Pegasus', brand: 'Nike', limit_km: 600 });
  const racer = await shoe(ada, { name: 'Racer', limit_km: 300 });
  await call(ada, 'PUT', `/shoes/${pegasus}`, { is_default: true });
  await shoe(bo, { name: 'Trail', brand: 'Hoka' });

  // Ada: three months of runs of every kind, with runs at standard distances for records.
  const run = async (token: string, body: Record<string, unknown>) =>
    ((await call(token, 'POST', '/entry', body)).entry as { id: number }).id;
  const kinds = ['easy', 'long', 'workout', 'race', null];
  const adaRuns: number[] = [];
  for (let i = 0; i < 36; i++) {
    const day = new Date(Date.UTC(2025, 11, 20) + i * 2.5 * 86_400_000).toISOString().slice(0, 10);
    const km = [5, 10.05, 21.1, 8.4, 1.609, 12.3, 42.2, 5.1, 3.2][i % 9]!;
    const paceS = 300 + ((i * 7) % 45);
    const seconds = Math.round(km * paceS);
    const time = `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
    adaRuns.push(
      await run(ada, {
        date: day,
        distance: km,
        time,
        ...(i % 3 === 0 ? { title: `Run ${i + 1}` } : {}),
        ...(i % 4 === 0 ? { notes: `Felt ${i % 8 === 0 ? 'great' : 'ok'}.\nWindy.` } : {}),
        kind: kinds[i % kinds.length],
        ...(i % 2 === 0 ? { effort: 1 + (i % 10) } : {}),
        ...(i % 5 === 0 ? { shoe_id: racer } : {}),
      }),
    );
  }
  // Edits and deletions move every tally: date, distance, time, effort and shoe.
  await call(ada, 'PUT', `/entry/${adaRuns[3]}`, { date: '2026-01-02', distance: 15.2, time: '01:20:00' });
  await call(ada, 'PUT', `/entry/${adaRuns[4]}`, { date: '2026-01-05', distance: 7, time: '00:36:00', effort: 9 });
  await call(ada, 'PUT', `/entry/${adaRuns[5]}`, { date: '2026-01-07', distance: 6, time: '00:33:00', shoe_id: null });
  await call(ada, 'DELETE', `/entry/${adaRuns[6]}`);
  await call(ada, 'DELETE', `/entry/${adaRuns[7]}`);
  for (const [date, distance, time] of [
    ['2026-03-16', 5, '00:24:10'],
    ['2026-03-17', 10, '00:51:00'],
    ['2025-06-01', 21.1, '01:45:00'],
  ] as const) {
    await run(bo, { date, distance, time, title: 'Bo run' });
  }

  for (const [period, metric, target] of [
    ['week', 'distance', 30],
    ['month', 'runs', 12],
    ['year', 'time', 360_000],
  ] as const) {
    await call(ada, 'POST', '/goals', { period, metric, target });
  }
  await call(bo, 'POST', '/goals', { period: 'week', metric: 'distance', target: 15 });

  const tokens: Record<string, string> = {};
  tokens['ada@example.com'] = (await call(ada, 'POST', '/tokens', { name: 'Watch sync', scope: 'write' }))
    .plain_text_token as string;
  tokens['bo@example.com'] = (
    await call(bo, 'POST', '/tokens', { name: 'Reader', scope: 'read', expires_in_days: 365 })
  ).plain_text_token as string;

  // What this release answers: each runner's own views, and the admin's and the manager's.
  let calls: RecordedCall[] = [];
  const sessions = new Map<string, string>();
  const record = async (as: string, url: string) => {
    let token = as.startsWith('token:') ? tokens[as.slice('token:'.length)] : sessions.get(as);
    if (!token) sessions.set(as, (token = await signIn(as, passwords[as]!)));
    const response = await app.inject({
      method: 'GET',
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
    });
    calls.push({ as, url, status: response.statusCode, body: response.json() });
  };
  const recordAll = async () => {
    for (const email of ['ada@example.com', 'bo@example.com']) {
      for (const url of [
        '/user/me',
        '/entry?per_page=100',
        '/entry?page=2&per_page=7',
        '/entry?dateFrom=2026-01-01&dateTo=2026-02-15&per_page=100',
        '/shoes',
        '/goals',
        '/tokens',
        '/dashboard/data',
        '/report/weekly?year=2026',
        '/report/weekly?year=2025',
        '/insights/records',
        '/insights/predictions',
        '/insights/load',
        '/insights/streaks',
        '/insights/calendar?year=2026',
        '/insights/year?year=2026',
        '/export?format=json',
      ]) {
        await record(email, url);
      }
      await record(`token:${email}`, '/user/me');
      await record(`token:${email}`, '/entry?per_page=5');
    }
    for (const email of [FIXTURE_ADMIN.email, 'cy@example.com']) {
      for (const url of [
        '/user?per_page=100',
        '/user?query=example&per_page=2&page=2',
        '/user?query=ada',
        '/entry/all?per_page=100',
        '/entry/all?page=3&per_page=7',
        '/entry/all?dateFrom=2026-01-01&dateTo=2026-01-31&per_page=100',
        '/dashboard/admin-data',
      ]) {
        await record(email, url);
      }
    }
  };
  // Twice: the first round's token uses (last_used_at) are in the answers of the second, as in the database.
  await recordAll();
  calls = [];
  await recordAll();
  return { now: FIXTURE_NOW, passwords, tokens, calls };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

/**
 * npm run bench -- [--users N] [--entries M] [--duration S] [--connections C]
 *                  [--baseline-entries B] [--instances I] [--skip-build] [--keep]
 *
 * Seeds a database (the kind of DATABASE_URL: SQLite by default, or a new database on the
 * PostgreSQL server of a postgres:// URL), starts the production build on it and loads
 * each endpoint with autocannon. It does this twice: at the baseline size (B runs with
 * proportionally fewer users, so a runner's own history is the same size) and at the full
 * size, and reports each endpoint's req/s, p50 and p99, its share of the ceiling
 * (GET /api/health) and the p50 ratio full/baseline. With --instances 2 (the default on
 * PostgreSQL) it then loads two instances on one database at the same time.
 * Results go to the terminal and to bench/results/<time>-<dialect>.json.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Request } from 'autocannon';
import { addDays } from '../core/time.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { progressBar } from '../scripts/seed/progress.js';
import { DEFAULT_SEED_PASSWORD, seedDatabase } from '../scripts/seed/seed.js';
import { createBenchDatabase, dialectOf, type BenchDatabase } from './lib/databases.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { ROOT, login, startServer, type RunningServer } from './lib/server.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    entries: { type: 'string', default: '1000000' },
    'baseline-entries': { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    instances: { type: 'string' },
    'log-level': { type: 'string', default: 'info' },
    'skip-build': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (args.help) {
  console.log(
    fs
      .readFileSync(new URL(import.meta.url), 'utf8')
      .split('*/')[0]!
      .replace(/^\/\*\*|^ \* ?/gm, ''),
  );
  process.exit(0);
}

const whole = (text: string, name: string) => {
  const value = Number(text.replace(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
};
const USERS = whole(args.users, 'users');
const ENTRIES = whole(args.entries, 'entries');
const BASELINE = Math.min(whole(args['baseline-entries'], 'baseline-entries'), ENTRIES);
const DURATION = whole(args.duration, 'duration');
const WARMUP = whole(args.warmup, 'warmup');
const CONNECTIONS = whole(args.connections, 'connections');
const BASE_URL = process.env.DATABASE_URL;
const DIALECT = dialectOf(BASE_URL);
const INSTANCES = whole(args.instances ?? (DIALECT === 'postgres' ? '2' : '1'), 'instances');
const ADMIN = { email: 'bench-admin@example.com', password: `bench-${randomBytes(9).toString('base64url')}` };
const RUNNERS = 5;
const PER_PAGE = 15;

interface Endpoint {
  name: string;
  /** Read endpoints are held to the latency budget. */
  read: boolean;
  requests: Request[];
}

interface Runner {
  token: string;
  entryCount: number;
  lastPage: number;
}

interface EndpointResult extends LoadResult {
  name: string;
  read: boolean;
  /** Share of the ceiling's req/s (GET /api/health in the same run). */
  ofCeiling: number;
  /** Server CPU time per request, in ms. */
  cpuMsPerRequest: number;
}

interface SizeResult {
  users: number;
  entries: number;
  database: string;
  seedSeconds: number;
  seedRate: number;
  runners: { entryCount: number; lastPage: number }[];
  endpoints: EndpointResult[];
  memory: { rssMb: number; peakRssMb: number };
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '-';

function auth(token: string) {
  return { authorization: `Bearer ${token}` };
}

function endpoints(runners: Runner[], adminToken: string, year: number, search: string, today: string): Endpoint[] {
  const perRunner = (path: (r: Runner) => string): Request[] =>
    runners.map((r) => ({ method: 'GET', path: path(r), headers: auth(r.token) }));
  const admin = (path: string): Request[] => [{ method: 'GET', path, headers: auth(adminToken) }];

  // The mixed workload: each runner's session reads nine times, records a run, reads nine
  // more times and deletes that run again, so 10% of requests write and the data stays put.
  const mixed: Request[] = [];
  runners.forEach((r, index) => {
    const reads = [
      '/api/v1/user/me',
      '/api/v1/entry',
      '/api/v1/dashboard/data',
      `/api/v1/entry?page=${r.lastPage}`,
      `/api/v1/report/weekly?year=${year}`,
      `/api/v1/entry?dateFrom=${year}-01-01&dateTo=${year}-12-31`,
      '/api/v1/entry?page=2',
      '/api/v1/dashboard/data',
      '/api/v1/user/me',
    ];
    const read = (path: string): Request => ({ method: 'GET', path, headers: auth(r.token) });
    const key = `id${index}`;
    mixed.push(...reads.map(read));
    mixed.push({
      method: 'POST',
      path: '/api/v1/entry',
      headers: { ...auth(r.token), 'content-type': 'application/json' },
      body: JSON.stringify({ date: addDays(today, -1 - index), distance: 10.25, time: '00:52:30' }),
      onResponse: (status, body, context) => {
        context[key] = status === 201 ? (JSON.parse(body) as { entry: { id: number } }).entry.id : 0;
      },
    });
    mixed.push(...reads.map(read));
    mixed.push({
      method: 'DELETE',
      path: '/api/v1/entry/0',
      headers: auth(r.token),
      setupRequest: (request, context) => ({ ...request, path: `/api/v1/entry/${Number(context[key] ?? 0)}` }),
    });
  });

  return [
    { name: 'GET /api/health (ceiling)', read: true, requests: [{ method: 'GET', path: '/api/health' }] },
    { name: 'GET /user/me', read: true, requests: perRunner(() => '/api/v1/user/me') },
    { name: 'GET /entry (page 1)', read: true, requests: perRunner(() => '/api/v1/entry') },
    { name: 'GET /entry (last page)', read: true, requests: perRunner((r) => `/api/v1/entry?page=${r.lastPage}`) },
    {
      name: 'GET /entry (one year)',
      read: true,
      requests: perRunner(() => `/api/v1/entry?dateFrom=${year}-01-01&dateTo=${year}-12-31`),
    },
    { name: 'GET /dashboard/data', read: true, requests: perRunner(() => '/api/v1/dashboard/data') },
    { name: 'GET /report/weekly', read: true, requests: perRunner(() => `/api/v1/report/weekly?year=${year}`) },
    { name: 'GET /dashboard/admin-data', read: true, requests: admin('/api/v1/dashboard/admin-data') },
    { name: 'GET /user?query=', read: true, requests: admin(`/api/v1/user?query=${encodeURIComponent(search)}`) },
    { name: 'mixed, 10% writes', read: false, requests: mixed },
  ];
}

function serverEnv(url: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: args['log-level'],
    NODE_ENV: 'production',
  };
}

async function seed(database: BenchDatabase, users: number, entries: number) {
  const bar = progressBar(entries, `  seeding ${fmt(entries)} runs`);
  const result = await seedDatabase(
    { ...loadConfig(serverEnv(database.url)), logLevel: 'silent' },
    {
      users,
      entries,
      onProgress: (done) => bar.update(done.entries),
      onStatus: (message) => {
        bar.finish();
        console.log(`  ${message}...`);
      },
    },
  );
  bar.finish();
  return result;
}

/** Runners whose history is closest to the average, so that both sizes measure alike. */
async function pickRunners(url: string, mean: number): Promise<{ email: string; entryCount: number }[]> {
  const db = openDatabase(url, 1);
  try {
    const rows = await db.kysely
      .selectFrom('users')
      .select(['email', 'entry_count'])
      .where('role', '=', 'user')
      .orderBy(sql`abs(entry_count - ${mean})`)
      .orderBy('id')
      .limit(RUNNERS)
      .execute();
    return rows.map((r) => ({ email: r.email, entryCount: Number(r.entry_count) }));
  } finally {
    await db.close();
  }
}

async function measure(
  server: RunningServer,
  endpoint: Endpoint,
  connections = CONNECTIONS,
): Promise<LoadResult & { cpuMs: number }> {
  if (WARMUP > 0) await runLoad(server.url, endpoint.requests, { connections, duration: WARMUP });
  const cpuBefore = server.cpuMs();
  const result = await runLoad(server.url, endpoint.requests, { connections, duration: DURATION });
  return { ...result, cpuMs: server.cpuMs() - cpuBefore };
}

function printTable(title: string, rows: EndpointResult[]) {
  console.log(`\n${title}`);
  console.log(
    `  ${'endpoint'.padEnd(28)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ` +
      `${'ceiling'.padStart(8)} ${'cpu ms/req'.padStart(10)} ${'failed'.padStart(7)}`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(28)} ${fmt(r.rps).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ` +
        `${`${fmt(r.ofCeiling * 100)}%`.padStart(8)} ${fmt(r.cpuMsPerRequest, 3).padStart(10)} ${fmt(r.failures).padStart(7)}`,
    );
  }
}

async function runSize(users: number, entries: number, label: string, keepServer: boolean) {
  console.log(`\n== ${label}: ${fmt(users)} users, ${fmt(entries)} runs (${DIALECT}) ==`);
  const database = await createBenchDatabase(BASE_URL, label);
  let server: RunningServer | null = null;
  try {
    const seeded = await seed(database, users, entries);
    const seedSeconds = seeded.ms / 1000;
    console.log(`  seeded in ${fmt(seedSeconds, 1)} s (${fmt(entries / seedSeconds)} runs/s)`);
    const chosen = await pickRunners(database.url, entries / Math.max(1, users));

    server = await startServer(serverEnv(database.url));
    const url = server.url;
    const runners: Runner[] = [];
    for (const runner of chosen) {
      runners.push({
        token: await login(url, runner.email, DEFAULT_SEED_PASSWORD),
        entryCount: runner.entryCount,
        lastPage: Math.max(1, Math.ceil(runner.entryCount / PER_PAGE)),
      });
    }
    const adminToken = await login(url, ADMIN.email, ADMIN.password);
    const today = new Date().toISOString().slice(0, 10);
    const year = Number(today.slice(0, 4)) - 1;
    // An admin looking one person up by the start of their e-mail address.
    const search = `user${Math.ceil(users / 2)}@`;

    const results: EndpointResult[] = [];
    let ceiling = 0;
    for (const endpoint of endpoints(runners, adminToken, year, search, today)) {
      const result = await measure(server, endpoint);
      if (results.length === 0) ceiling = result.rps;
      const row: EndpointResult = {
        name: endpoint.name,
        read: endpoint.read,
        ...result,
        ofCeiling: ceiling > 0 ? result.rps / ceiling : 0,
        cpuMsPerRequest: result.requests > 0 ? result.cpuMs / result.requests : 0,
      };
      delete (row as Partial<typeof result>).cpuMs;
      results.push(row);
      console.log(
        `  ${endpoint.name.padEnd(28)} ${fmt(row.rps).padStart(7)} req/s  p50 ${fmt(row.p50, 2).padStart(6)} ms  ` +
          `p99 ${fmt(row.p99, 2).padStart(6)} ms` +
          (row.failures > 0 ? `  (${fmt(row.failures)} failed: ${JSON.stringify(row.statuses)})` : ''),
      );
    }
    const memory = server.memory();
    const size: SizeResult = {
      users,
      entries,
      database: database.label,
      seedSeconds,
      seedRate: entries / seedSeconds,
      runners: runners.map((r) => ({ entryCount: r.entryCount, lastPage: r.lastPage })),
      endpoints: results,
      memory,
    };
    printTable(
      `${label}: ${fmt(users)} users, ${fmt(entries)} runs; server RSS ${fmt(memory.rssMb)} MB (peak ${fmt(memory.peakRssMb)} MB)`,
      results,
    );
    if (keepServer) return { size, server, database, runners, adminToken, year, search, today };
    await server.stop();
    server = null;
    if (!args.keep) await database.drop();
    return { size, server: null, database, runners, adminToken, year, search, today };
  } catch (error) {
    await server?.stop();
    if (!args.keep) await database.drop().catch(() => undefined);
    throw error;
  }
}

interface InstancesResult {
  instances: number;
  connectionsPerInstance: number;
  endpoints: {
    name: string;
    singleRps: number;
    perInstanceRps: number[];
    totalRps: number;
    scaling: number;
    p99: number[];
  }[];
}

/** Loads several instances on one database at once; their req/s should add up. */
async function runInstances(
  first: RunningServer,
  databaseUrl: string,
  single: EndpointResult[],
  make: () => Endpoint[],
): Promise<InstancesResult> {
  console.log(
    `\n== ${INSTANCES} instances on one database, loaded at the same time (${CONNECTIONS} connections each) ==`,
  );
  const servers = [first];
  try {
    for (let i = 1; i < INSTANCES; i++) servers.push(await startServer(serverEnv(databaseUrl)));
    const chosen = new Set(['GET /user/me', 'GET /entry (page 1)', 'GET /dashboard/data', 'mixed, 10% writes']);
    const out: InstancesResult = { instances: INSTANCES, connectionsPerInstance: CONNECTIONS, endpoints: [] };
    for (const endpoint of make().filter((e) => chosen.has(e.name))) {
      if (WARMUP > 0) {
        await Promise.all(
          servers.map((s) => runLoad(s.url, endpoint.requests, { connections: CONNECTIONS, duration: WARMUP })),
        );
      }
      const results = await Promise.all(
        servers.map((s) => runLoad(s.url, endpoint.requests, { connections: CONNECTIONS, duration: DURATION })),
      );
      const singleRps = single.find((r) => r.name === endpoint.name)?.rps ?? Number.NaN;
      const totalRps = results.reduce((a, r) => a + r.rps, 0);
      const row = {
        name: endpoint.name,
        singleRps,
        perInstanceRps: results.map((r) => r.rps),
        totalRps,
        scaling: totalRps / singleRps,
        p99: results.map((r) => r.p99),
      };
      out.endpoints.push(row);
      console.log(
        `  ${endpoint.name.padEnd(28)} one instance ${fmt(singleRps).padStart(6)} req/s; ${INSTANCES} together ` +
          `${results.map((r) => fmt(r.rps)).join(' + ')} = ${fmt(totalRps)} req/s (x${fmt(row.scaling, 2)}); ` +
          `p99 ${results.map((r) => fmt(r.p99, 1)).join(' / ')} ms`,
      );
    }
    return out;
  } finally {
    for (const s of servers.slice(1)) await s.stop();
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

async function main() {
  const started = Date.now();
  const atStart = machine();
  if (!args['skip-build']) {
    console.log('Building the server (npm run build:server)...');
    execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  }
  const baselineUsers = Math.max(1, Math.round((USERS * BASELINE) / Math.max(1, ENTRIES)));
  const small = await runSize(baselineUsers, BASELINE, 'baseline', false);
  const large = await runSize(USERS, ENTRIES, 'full', INSTANCES > 1);

  let instances: InstancesResult | null = null;
  if (INSTANCES > 1 && large.server) {
    try {
      instances = await runInstances(large.server, large.database.url, large.size.endpoints, () =>
        endpoints(large.runners, large.adminToken, large.year, large.search, large.today),
      );
    } finally {
      await large.server.stop();
      if (!args.keep) await large.database.drop();
    }
  }

  const ratios = large.size.endpoints.map((r) => {
    const base = small.size.endpoints.find((b) => b.name === r.name)!;
    return { name: r.name, p50Baseline: base.p50, p50Full: r.p50, ratio: r.p50 / base.p50 };
  });
  console.log(`\np50 at ${fmt(ENTRIES)} runs / p50 at ${fmt(BASELINE)} runs`);
  for (const r of ratios) {
    console.log(
      `  ${r.name.padEnd(28)} ${fmt(r.p50Full, 2).padStart(7)} / ${fmt(r.p50Baseline, 2).padStart(6)} ms = ${fmt(r.ratio, 2)}`,
    );
  }

  const full = large.size.endpoints;
  const byName = (name: string) => full.find((r) => r.name === name)!;
  const reads = full.filter((r) => r.read);
  const targets = [
    {
      target: 'p99 <= 25 ms for every read endpoint',
      pass: reads.every((r) => r.p99 <= 25),
      detail: `worst ${fmt(Math.max(...reads.map((r) => r.p99)), 2)} ms (${reads.reduce((a, r) => (r.p99 > a.p99 ? r : a)).name})`,
    },
    {
      target: '/user/me >= 50% of the ceiling',
      pass: byName('GET /user/me').ofCeiling >= 0.5,
      detail: `${fmt(byName('GET /user/me').ofCeiling * 100)}%`,
    },
    {
      target: '/entry page 1 >= 35% of the ceiling',
      pass: byName('GET /entry (page 1)').ofCeiling >= 0.35,
      detail: `${fmt(byName('GET /entry (page 1)').ofCeiling * 100)}%`,
    },
    {
      target: 'p50 ratio full/baseline <= 1.5 for every endpoint',
      pass: ratios.every((r) => r.ratio <= 1.5),
      detail: `worst ${fmt(Math.max(...ratios.map((r) => r.ratio)), 2)} (${ratios.reduce((a, r) => (r.ratio > a.ratio ? r : a)).name})`,
    },
    {
      target: 'server RSS <= 250 MB at the end',
      pass: large.size.memory.rssMb <= 250,
      detail: `${fmt(large.size.memory.rssMb)} MB`,
    },
    {
      target: 'no failed requests',
      pass: [...full, ...small.size.endpoints].every((r) => r.failures === 0),
      detail: '',
    },
  ];
  if (ENTRIES !== 1_000_000 || CONNECTIONS !== 50) {
    console.log(
      `\n(targets are set for 1,000,000 runs and 50 connections; this run used ${fmt(ENTRIES)} and ${CONNECTIONS})`,
    );
  }
  console.log('\nTargets');
  for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.target}${t.detail ? `: ${t.detail}` : ''}`);

  const report = {
    date: new Date().toISOString(),
    dialect: DIALECT,
    machine: { ...atStart, loadAverageAtEnd: os.loadavg().map((n) => Math.round(n * 100) / 100) },
    settings: {
      users: USERS,
      entries: ENTRIES,
      baselineEntries: BASELINE,
      baselineUsers,
      duration: DURATION,
      warmup: WARMUP,
      connections: CONNECTIONS,
      logLevel: args['log-level'],
    },
    baseline: small.size,
    full: large.size,
    p50Ratios: ratios,
    instances,
    targets,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${report.date.replace(/[:.]/g, '-')}-${DIALECT}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(ROOT, file)} (${report.seconds} s in all)`);
}

main().catch((error: unknown) => {
  console.error(`Benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

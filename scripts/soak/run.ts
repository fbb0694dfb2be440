/**
 * The soak: start the server, sign in runners, warm up, then run the mixed load while
 * watching the server's memory, stop the server cleanly, and check every acknowledged
 * write against the database.
 */
import { scratchDatabase } from '../support/scratch-database.js';
import { registerRunner } from '../support/server-process.js';
import { Ledger, runLoad, type LoadResult, type Runner } from './load.js';
import { startServer, type ServerProcess } from './server-process.js';
import { checkLedger, readDatabase } from './verify.js';

export interface SoakOptions {
  durationSeconds: number;
  connections: number;
  warmupSeconds: number;
  runners: number;
  /** Omitted: a new SQLite file in a temporary folder, removed afterwards. */
  databaseUrl?: string;
  /** Largest accepted growth of the server's RSS from the end of the warm-up to the end, as a fraction. */
  maxRssGrowth: number;
  log?: (line: string) => void;
}

export const DEFAULT_SOAK: Omit<SoakOptions, 'databaseUrl' | 'log'> = {
  durationSeconds: 60,
  connections: 100,
  warmupSeconds: 10,
  runners: 20,
  maxRssGrowth: 0.2,
};

export interface SoakReport {
  database: string;
  options: Omit<SoakOptions, 'log' | 'databaseUrl'>;
  warmup: LoadResult;
  load: LoadResult;
  rss: { afterWarmup: number; end: number; peak: number; growth: number; samples: [seconds: number, bytes: number][] };
  writes: { created: number; updated: number; deleted: number; checked: number; problems: string[] };
  integrity: string;
  serverExit: string;
  serverErrors: number;
  failures: string[];
  passed: boolean;
}

async function registerRunners(server: ServerProcess, count: number): Promise<Runner[]> {
  const runners: Runner[] = [];
  const stamp = Date.now().toString(36);
  for (let i = 0; i < count; i++) {
    const email = `soak-${stamp}-${i}@example.com`;
    runners.push(
      await registerRunner(server.baseUrl, {
        name: `Soak Runner ${i}`,
        email,
        password: 'soak-password-1',
        timezone: 'UTC',
        // The server runs with TRUST_PROXY=1 so that each runner registers from an address of its own.
        from: `10.77.${Math.floor(i / 250)}.${(i % 250) + 1}`,
      }),
    );
  }
  return runners;
}

export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return `SQLite ${url.slice('sqlite:'.length)}`;
  const parsed = new URL(url);
  return `PostgreSQL ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const scratch = options.databaseUrl ? null : await scratchDatabase({ name: 'soak' });
  const databaseUrl = options.databaseUrl ?? scratch!.url;
  const ledger = new Ledger();
  let server: ServerProcess | null = null;
  try {
    log(`Starting the server on ${describeDatabase(databaseUrl)}`);
    server = await startServer({ databaseUrl, env: { TRUST_PROXY: '1', LOG_LEVEL: 'warn' }, gcOnSignal: true });
    const runners = await registerRunners(server, options.runners);
    log(`${runners.length} runners signed in; warming up for ${options.warmupSeconds} s`);
    const load = { baseUrl: server.baseUrl, runners, ledger, connections: options.connections };
    const warmup = await runLoad({ ...load, durationSeconds: options.warmupSeconds });

    // Memory is compared after a full garbage collection at both points, so that the
    // collector's sawtooth does not decide the result.
    const afterWarmup = await server.settledRss();
    let peak = afterWarmup;
    const started = Date.now();
    const samples: [number, number][] = [[0, afterWarmup]];
    const sampler = setInterval(() => {
      const rss = server!.rssBytes();
      peak = Math.max(peak, rss);
      samples.push([Math.round((Date.now() - started) / 1000), rss]);
    }, 1000);
    log(`Load: ${options.connections} connections for ${options.durationSeconds} s`);
    const main = await runLoad({ ...load, durationSeconds: options.durationSeconds }).finally(() =>
      clearInterval(sampler),
    );
    peak = Math.max(peak, server.rssBytes());
    const end = await server.settledRss();

    log('Stopping the server (SIGTERM) and checking the database');
    const exit = await server.stop();
    const serverExit = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
    const serverErrors = server
      .output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line)).length;

    const state = await readDatabase(databaseUrl);
    const check = checkLedger(ledger, state);
    const growth = afterWarmup > 0 ? (end - afterWarmup) / afterWarmup : 0;

    const failures: string[] = [];
    const total = (key: 'errors' | 'timeouts' | 'status4xx' | 'status5xx') => warmup[key] + main[key];
    if (total('errors') > 0) failures.push(`${total('errors')} connection errors`);
    if (total('timeouts') > 0) failures.push(`${total('timeouts')} timeouts`);
    if (total('status5xx') > 0) failures.push(`${total('status5xx')} answers 5xx`);
    if (total('status4xx') > 0)
      failures.push(`${total('status4xx')} answers 4xx (the workload's requests are all valid)`);
    if (growth > options.maxRssGrowth) {
      failures.push(`RSS grew ${(growth * 100).toFixed(1)}% after warm-up (limit ${options.maxRssGrowth * 100}%)`);
    }
    if (exit.code !== 0) failures.push(`the server did not shut down cleanly (${serverExit})`);
    if (serverErrors > 0) failures.push(`the server logged ${serverErrors} errors`);
    if (check.problems.length > 0) failures.push(`${check.problems.length} acknowledged writes or totals are wrong`);

    const { log: _log, databaseUrl: _url, ...shown } = options;
    return {
      database: describeDatabase(databaseUrl),
      options: shown,
      warmup,
      load: main,
      rss: { afterWarmup, end, peak, growth, samples },
      writes: {
        created: ledger.created,
        updated: ledger.updated,
        deleted: ledger.deletedCount,
        checked: check.checked,
        problems: check.problems,
      },
      integrity: state.integrity,
      serverExit,
      serverErrors,
      failures,
      passed: failures.length === 0,
    };
  } finally {
    if (server) await server.stop(2000);
    await scratch?.drop();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function formatReport(report: SoakReport): string {
  const { load, rss, writes } = report;
  const lines = [
    `Soak on ${report.database}: ${report.options.connections} connections, ${report.options.durationSeconds} s after a ${report.options.warmupSeconds} s warm-up`,
    `  requests      ${load.requests} (${Math.round(load.requests / Math.max(1, load.durationSeconds))}/s), 60% reads, 40% writes`,
    `  errors        ${load.errors + report.warmup.errors} connection errors, ${load.timeouts + report.warmup.timeouts} timeouts`,
    `  status        2xx ${load.status2xx}, 4xx ${load.status4xx}, 5xx ${load.status5xx} (warm-up: 4xx ${report.warmup.status4xx}, 5xx ${report.warmup.status5xx})`,
    `  latency       p50 ${load.latency.p50} ms, p90 ${load.latency.p90} ms, p99 ${load.latency.p99} ms, max ${load.latency.max} ms`,
    `  server RSS    ${mb(rss.afterWarmup)} after warm-up, ${mb(rss.end)} at the end (both after a full GC): ${rss.growth >= 0 ? '+' : ''}${(rss.growth * 100).toFixed(1)}%`,
    `                (limit +${report.options.maxRssGrowth * 100}%); peak during the load ${mb(rss.peak)}`,
    `  writes        ${writes.created} created, ${writes.updated} updated, ${writes.deleted} deleted (acknowledged); ${writes.checked} entries checked, ${writes.problems.length} wrong`,
    `  database      integrity ${report.integrity}; server exit ${report.serverExit}; ${report.serverErrors} server errors logged`,
  ];
  for (const problem of writes.problems.slice(0, 20)) lines.push(`    ${problem}`);
  lines.push(report.passed ? 'PASS' : `FAIL: ${report.failures.join('; ')}`);
  return lines.join('\n');
}

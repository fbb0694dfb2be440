/**
 * npm run soak -- [--duration S] [--connections N] [--warmup S] [--runners N] [--database-url URL] [--json]
 *
 * A bounded mixed read/write load on loopback against a server started from source.
 * Reports connection errors, 5xx, p99 latency and the server's RSS after warm-up and at
 * the end, then checks that every acknowledged write is in the database with the right
 * values. Exits 1 when any of these fails.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SOAK, formatReport, runSoak } from './soak/run.js';

const USAGE = `Usage: npm run soak -- [options]

  --duration S        seconds of measured load, default ${DEFAULT_SOAK.durationSeconds}
  --connections N     concurrent connections, default ${DEFAULT_SOAK.connections}
  --warmup S          seconds of load before measuring memory, default ${DEFAULT_SOAK.warmupSeconds}
  --runners N         accounts the connections share, default ${DEFAULT_SOAK.runners}
  --max-rss-growth P  largest RSS growth after warm-up, in percent, default ${DEFAULT_SOAK.maxRssGrowth * 100}
  --database-url URL  default: a new SQLite file in a temporary folder (removed afterwards);
                      a postgres:// URL must name a database you can throw away
  --json              print the report as JSON

Passes when there are no connection errors, no timeouts, no 4xx or 5xx answers, the
RSS growth stays within the limit, the server shuts down cleanly, and every
acknowledged write is in the database with the right values.`;

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive number, got "${value}".`);
  return parsed;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      runners: { type: 'string' },
      'max-rss-growth': { type: 'string' },
      'database-url': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const json = values.json ?? false;
  const report = await runSoak({
    durationSeconds: positive(values.duration, 'duration', DEFAULT_SOAK.durationSeconds),
    connections: Math.round(positive(values.connections, 'connections', DEFAULT_SOAK.connections)),
    warmupSeconds: positive(values.warmup, 'warmup', DEFAULT_SOAK.warmupSeconds),
    runners: Math.round(positive(values.runners, 'runners', DEFAULT_SOAK.runners)),
    maxRssGrowth: positive(values['max-rss-growth'], 'max-rss-growth', DEFAULT_SOAK.maxRssGrowth * 100) / 100,
    ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}),
    log: json ? undefined : (line) => console.log(line),
  });
  console.log(json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Soak failed to run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);

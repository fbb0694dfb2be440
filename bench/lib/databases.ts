/** Scratch databases for a benchmark run: SQLite files in a temporary folder, or new PostgreSQL databases. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface BenchDatabase {
  url: string;
  /** Where it lives, without credentials. */
  label: string;
  drop(): Promise<void>;
}

export function dialectOf(url: string | undefined): 'sqlite' | 'postgres' {
  return url && /^postgres(ql)?:\/\//.test(url) ? 'postgres' : 'sqlite';
}

/**
 * A fresh, empty database named after `name`. With a PostgreSQL URL, a new database is
 * created on that server (and dropped afterwards); the URL's own database is never touched.
 */
export async function createBenchDatabase(baseUrl: string | undefined, name: string): Promise<BenchDatabase> {
  if (dialectOf(baseUrl) === 'postgres') {
    const database = `rt_bench_${name}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      await admin.query(`create database "${database}"`);
    } finally {
      await admin.end();
    }
    const url = new URL(baseUrl!);
    url.pathname = `/${database}`;
    return {
      url: url.toString(),
      label: `postgres://${url.host}/${database}`,
      async drop() {
        const client = new pg.Client({ connectionString: baseUrl });
        await client.connect();
        try {
          await client.query(`drop database if exists "${database}" with (force)`);
        } finally {
          await client.end();
        }
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `running-times-bench-${name}-`));
  const file = path.join(dir, 'bench.db');
  return {
    url: `sqlite:${file}`,
    label: `sqlite:${file}`,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

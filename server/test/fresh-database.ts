/** An empty database for tests that open their own connections: a temp SQLite file, or a new PostgreSQL database when TEST_DATABASE_URL is set. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshDatabase(label: string): Promise<FreshDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `rt_${label}_test_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async drop() {
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rt-${label}-`));
  return {
    url: `sqlite:${path.join(dir, `${label}.db`)}`,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

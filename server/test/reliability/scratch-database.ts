/**
 * Databases for the reliability tests that run a real server process: a new SQLite
 * file in a temporary folder, or, when TEST_DATABASE_URL is set, a new PostgreSQL
 * database on that server. Either way the caller gets a URL and a way to remove it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface ScratchDatabase {
  url: string;
  dialect: 'sqlite' | 'postgres';
  /** The SQLite file (null on PostgreSQL). */
  file: string | null;
  /** A folder for anything else the test writes (backups, copies). */
  dir: string;
  remove(): Promise<void>;
}

export async function createPostgresDatabase(
  adminUrl: string,
  prefix = 'rt_rel',
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'running-times-reliability-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const db = await createPostgresDatabase(adminUrl);
    return {
      url: db.url,
      dialect: 'postgres',
      file: null,
      dir,
      async remove() {
        await db.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const file = path.join(dir, 'running-times.db');
  return {
    url: `sqlite:${file}`,
    dialect: 'sqlite',
    file,
    dir,
    async remove() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

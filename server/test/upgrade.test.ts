/**
 * Upgrades keep every run: a database written by an earlier release (server/test/fixtures/upgrade,
 * made by scripts/upgrade-fixture.ts on that release's commit) is opened by this code, which
 * migrates it, and every answer that release gave for it (users, runs, shoes, goals, tokens,
 * tallies, insights, the admin's lists) still holds: each recorded answer is contained in
 * today's (fields added since are allowed), with the same status. A list's page links are compared
 * by meaning: the release kept the request's order of parameters, this code writes them in key order
 * (one answer for every spelling of a request, decision 034).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, type Fixture } from '../../scripts/upgrade-fixture.js';
import { testDatabase, type ScratchDatabase } from '../../scripts/support/scratch-database.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';

const RELEASES = ['release-2026-11-24'];

/** Page links by what they mean: the URL with its parameters in key order. */
function byMeaning(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(byMeaning);
  if (typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => {
      if (!/^(next|prev)_page_url$/.test(key) || typeof value !== 'string') return [key, byMeaning(value)];
      const url = new URL(value);
      url.searchParams.sort();
      return [key, url.href];
    }),
  );
}

describe.each(RELEASES)('an upgrade from %s', (release) => {
  let scratch: ScratchDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let fixture: Fixture;

  beforeAll(async () => {
    scratch = await testDatabase('upgrade');
    const base = path.join(FIXTURE_DIR, `${release}.${scratch.dialect}`);
    fixture = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as Fixture;
    if (scratch.dialect === 'sqlite') {
      fs.copyFileSync(`${base}.db`, scratch.file!);
    } else {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        await client.query(fs.readFileSync(`${base}.sql`, 'utf8'));
      } finally {
        await client.end();
      }
    }
    app = await buildApp({
      // The release wrote its links from the request's Host: inject's, where it was recorded.
      ...loadConfig({ DATABASE_URL: scratch.url, PUBLIC_URL: 'http://localhost:80' }),
      databaseUrl: scratch.url,
      demoMode: false,
      logLevel: 'silent',
      webRoot: null,
      now: () => new Date(fixture.now),
    });
  });

  afterAll(async () => {
    await app?.close();
    await scratch?.drop();
  });

  it('answers every recorded call as the release did', async () => {
    const sessions = new Map<string, string>();
    const tokenOf = async (as: string) => {
      if (as.startsWith('token:')) return fixture.tokens[as.slice('token:'.length)]!;
      let token = sessions.get(as);
      if (!token) {
        const login = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: as, password: fixture.passwords[as]! },
        });
        expect(login.statusCode, `login of ${as}`).toBe(200);
        sessions.set(as, (token = (login.json() as { access_token: string }).access_token));
      }
      return token;
    };
    expect(fixture.calls.length).toBeGreaterThan(40);
    for (const recorded of fixture.calls) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/v1${recorded.url}`,
        headers: { authorization: `Bearer ${await tokenOf(recorded.as)}` },
      });
      const what = `${recorded.as} GET ${recorded.url}`;
      expect(response.statusCode, what).toBe(recorded.status);
      expect(byMeaning(response.json()), what).toMatchObject(byMeaning(recorded.body) as object);
    }
  });
});

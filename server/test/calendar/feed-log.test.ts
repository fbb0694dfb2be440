/**
 * The request log of a real server (CONTRACT.md §20): a calendar feed's key is its only
 * authentication, so `/ical/` paths are logged with the key hidden, whatever the answer.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOAK_ADMIN, startServer, type ServerProcess } from '../../../scripts/soak/server-process.js';
import { registerRunner } from '../../../scripts/support/server-process.js';

let dir: string;
let server: ServerProcess;

beforeAll(async () => {
  const base = fs.existsSync('/tmp/ical') ? '/tmp/ical' : os.tmpdir();
  dir = fs.mkdtempSync(path.join(base, 'feed-log-'));
  server = await startServer({
    databaseUrl: `sqlite:${path.join(dir, 'log.db')}`,
    env: {
      ADMIN_EMAIL: SOAK_ADMIN.email,
      ADMIN_PASSWORD: SOAK_ADMIN.password,
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'https://runs.example.org',
    },
  });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const requestUrls = () =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; url?: string; status?: number })
    .filter((line) => line.msg === 'request' && line.url?.startsWith('/ical/'));

describe('the request log of the calendar feed', () => {
  it('shows /ical/ paths with the key hidden, for a found key and an unknown one', async () => {
    const { token } = await registerRunner(server.baseUrl, {
      name: 'Feed Runner',
      email: 'feed@example.com',
      password: 'feed-password-1',
    });
    const made = await fetch(`${server.baseUrl}/api/v1/calendar-feed`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const { calendar_feed } = (await made.json()) as { calendar_feed: { url: string } };
    const key = /\/ical\/([a-z0-9]{24})\.ics$/.exec(calendar_feed.url)![1]!;

    const found = await fetch(`${server.baseUrl}/ical/${key}.ics`);
    expect(found.status).toBe(200);
    expect(await found.text()).toContain('BEGIN:VCALENDAR');
    const unknown = await fetch(`${server.baseUrl}/ical/${key.replace(/^./, key[0] === 'a' ? 'b' : 'a')}.ics`);
    expect(unknown.status).toBe(404);

    let lines = requestUrls();
    for (let i = 0; i < 50 && lines.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      lines = requestUrls();
    }
    expect(lines.map((line) => [line.url, line.status])).toEqual([
      ['/ical/[hidden].ics', 200],
      ['/ical/[hidden].ics', 404],
    ]);
    expect(server.output()).not.toContain(key);
  });
});

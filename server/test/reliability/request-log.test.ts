/**
 * The log an operator reads: one JSON line per request with its method, URL, status and
 * time, and never a password or a token, whatever the request carried.
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'running-times-log-'));
  server = await startServer({
    databaseUrl: `sqlite:${path.join(dir, 'log.db')}`,
    env: { ADMIN_EMAIL: SOAK_ADMIN.email, ADMIN_PASSWORD: SOAK_ADMIN.password, LOG_LEVEL: 'info' },
  });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
}

function requestLines(): Line[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg === 'request' && line.url !== '/api/health');
}

describe('the request log', () => {
  it('writes one line per request, without the secrets it carried', async () => {
    const before = requestLines().length;
    const password = 'a-very-secret-password-42';
    const { token } = await registerRunner(server.baseUrl, {
      name: 'Logged Runner',
      email: 'logged@example.com',
      password,
    });
    const runs = await fetch(`${server.baseUrl}/api/v1/entry?page=2&per_page=5`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(runs.status).toBe(200);
    const refused = await fetch(`${server.baseUrl}/api/v1/user/me`, {
      headers: { authorization: `Bearer ${token}x` },
    });
    expect(refused.status).toBe(401);

    let lines: Line[] = [];
    for (let i = 0; i < 50 && lines.length < before + 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      lines = requestLines();
    }
    const mine = lines.slice(before);
    expect(mine.map((l) => [l.method, l.url, l.status])).toEqual([
      ['POST', '/api/v1/auth/register', 201],
      ['GET', '/api/v1/entry?page=2&per_page=5', 200],
      ['GET', '/api/v1/user/me', 401],
    ]);
    for (const line of mine) {
      expect(line.level).toBe(30);
      expect(line.reqId).toMatch(/\S/);
      expect(line.ms).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(mine.map((l) => l.reqId)).size).toBe(3);
    const output = server.output();
    expect(output).not.toContain(password);
    expect(output).not.toContain(token);
  });
});

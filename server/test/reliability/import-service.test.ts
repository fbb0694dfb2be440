/**
 * An import or an export never holds the server against everyone else: an export lets other
 * requests in between its pages (the zip export between its files too), the health check answers while an import stores its runs, a
 * body sent a byte at a time is cut off, and an upload's folder is removed on every path,
 * including a server that died during an import (at the next start).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../context.js';
import { readAside } from '../../db/sqlite.js';
import { exportCsv, exportJson, exportZip, zipProgress } from '../../features/exports/exports.service.js';
import { createTestApp, registerUser, type TestApp } from '../helpers.js';
import { importFiles, multipartBody, zip } from '../imports/fixtures.js';
import { realisticFit } from '../imports/track-fixtures.js';

/** Turns of the event loop: enough for a request that does not wait to be answered. */
const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

const ownCsv = (count: number) =>
  [
    'date,distance_km,time,title,notes,kind,effort,shoe',
    ...Array.from({ length: count }, (_, i) => {
      const date = new Date(Date.UTC(2015, 0, 1) + (i % 3000) * 86_400_000).toISOString().slice(0, 10);
      return `${date},${5 + (i % 9) / 10},00:30:00,Run ${i},,,,`;
    }),
  ].join('\n');

describe('an export lets other requests in between its pages', () => {
  it('gives the event loop a turn before each page after the first, CSV and JSON', async (context) => {
    const t = await createTestApp();
    try {
      // PostgreSQL waits on the network for every page: it never held the loop.
      if (!t.config.databaseUrl.startsWith('sqlite:')) return context.skip();
      const runner = await registerUser(t.app);
      const res = await importFiles(t.app, runner.token, [{ name: 'runs.csv', content: ownCsv(2500) }]);
      expect(res.statusCode).toBe(201);
      const ctx = t.app.appContext;
      const user = { ...runner.user, units: 'km' as const };
      for (const chunks of [exportCsv(ctx, runner.user.id), exportJson(ctx, user)]) {
        // Set when the event loop gets to other work (another request's I/O would come then too).
        let served = false;
        setImmediate(() => {
          served = true;
        });
        const servedBefore: boolean[] = [];
        for await (const chunk of chunks) {
          if (chunk.includes('Run 2499')) servedBefore.push(served);
        }
        expect(servedBefore).toEqual([true]);
      }
    } finally {
      await t.close();
    }
  });
});

describe('the zip export lets other requests in between its files', () => {
  it('gives the event loop a turn before it reads each file', async (context) => {
    const t = await createTestApp();
    try {
      if (!t.config.databaseUrl.startsWith('sqlite:')) return context.skip();
      const runner = await registerUser(t.app, { timezone: 'UTC' });
      const watches = Object.fromEntries(
        Array.from({ length: 4 }, (_, i) => [
          `activities/${i}.fit`,
          realisticFit(300, { seed: i + 1, start: new Date(Date.UTC(2024, 0, 1 + i, 7)) }),
        ]),
      );
      const res = await importFiles(t.app, runner.token, [{ name: 'watches.zip', content: zip(watches) }]);
      expect(res.statusCode, res.body).toBe(201);
      // Turns of the event loop so far: an immediate that queues itself again runs once a turn.
      let loopTurns = 0;
      let counting = true;
      const count = () =>
        setImmediate(() => {
          loopTurns += 1;
          if (counting) count();
        });
      count();
      const turnsAtFile: number[] = [];
      // Read as fast as it is written (a client on the same machine): only the export gives turns away.
      for await (const _chunk of exportZip(t.app.appContext, { ...runner.user, units: 'km' })) {
        if (zipProgress.filesRead > turnsAtFile.length) turnsAtFile.push(loopTurns);
      }
      counting = false;
      expect(turnsAtFile).toHaveLength(4);
      for (let i = 1; i < turnsAtFile.length; i++) expect(turnsAtFile[i]).toBeGreaterThan(turnsAtFile[i - 1]!);
    } finally {
      await t.close();
    }
  });
});

describe('the health check during an import', () => {
  it('answers at once on SQLite while an import holds the write transaction', async (context) => {
    const t = await createTestApp({}, { sqliteFile: true });
    try {
      if (!t.config.databaseUrl.startsWith('sqlite:')) return context.skip();
      const ctx = t.app.appContext;
      // As an import stores its runs: a long write, reads of others beside it.
      const release = readAside(ctx.db);
      let commit!: () => void;
      const written = new Promise<void>((resolve) => {
        commit = resolve;
      });
      let began!: () => void;
      const begun = new Promise<void>((resolve) => {
        began = resolve;
      });
      const write = inTransaction(ctx, async (trx) => {
        await sql`update users set name = name`.execute(trx);
        began();
        await written;
      });
      await begun;
      const seen: { health?: { statusCode: number; body: string } } = {};
      const asked = t.app.inject({ method: 'GET', url: '/api/health' }).then((res) => (seen.health = res));
      await turns();
      const answeredDuringWrite = seen.health;
      commit();
      await write;
      release();
      await asked;
      expect(answeredDuringWrite?.statusCode).toBe(200);
      expect(JSON.parse(answeredDuringWrite!.body)).toEqual({ status: 'ok' });
    } finally {
      await t.close();
    }
  });
});

/** Writes `head` on a raw connection, then `body` a byte every `everyMs`; answers what the server said and whether it closed. */
async function trickle(port: number, head: string, body: string, everyMs: number, giveUpMs: number) {
  return new Promise<{ answer: string; closed: boolean }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let at = 0;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => undefined);
    socket.write(head);
    const timer = setInterval(() => {
      if (at < body.length && !socket.destroyed) socket.write(body[at++]!);
    }, everyMs);
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closed });
    };
    socket.on('close', () => done(true));
    const giveUp = setTimeout(() => done(false), giveUpMs);
  });
}

describe('a body sent a byte at a time', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ bodyPace: { graceMs: 300, minBytesPerSecond: 200 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is answered 408 and its connection closed, and a body sent at once is not', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const head = (length: number) =>
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const slow = await trickle(port, head(body.length), body, 100, 8000);
    expect(slow.closed).toBe(true);
    expect(slow.answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(slow.answer.endsWith('{"message":"The request took too long to arrive."}')).toBe(true);

    const quick = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(quick.status).toBe(401);
  });
});

describe("an upload's folder", () => {
  let tmp: string;
  const tmpdir = process.env.TMPDIR;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'import-folders-'));
    process.env.TMPDIR = tmp;
  });
  afterEach(() => {
    for (const name of fs.readdirSync(tmp)) fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
  });
  afterAll(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is removed when the client is gone before the answer (a body longer than its Content-Length)', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as net.AddressInfo;
      const { token } = await registerUser(t.app);
      const { payload, contentType } = multipartBody([{ name: 'runs.csv', content: ownCsv(3000) }]);
      const head =
        `POST /api/v1/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`;
      // What follows the body is read as another request: not HTTP, so the connection is closed.
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(Buffer.concat([Buffer.from(head), payload, Buffer.from('NOT HTTP AT ALL\r\n\r\n')]));
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        socket.resume();
      });
      // The import goes on without its client; once it ends, nothing of it is left.
      for (let waited = 0; fs.readdirSync(tmp).length > 0 && waited < 15_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(fs.readdirSync(tmp)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('left by a server that died is removed when the next one starts; a live one’s is kept', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const folder = (name: string) => {
      fs.mkdirSync(path.join(tmp, name));
      fs.writeFileSync(path.join(tmp, name, 'rows.jsonl'), '[0,"a","b",null]\n');
      return name;
    };
    const ofDead = folder(`running-times-import-${dead}-AbC123`);
    const ofLive = folder(`running-times-import-${process.pid}-XyZ789`);
    const oldUnnamed = folder('running-times-import-Qw3rty');
    const hourAgo = new Date(Date.now() - 2 * 3_600_000);
    fs.utimesSync(path.join(tmp, oldUnnamed), hourAgo, hourAgo);
    const newUnnamed = folder('running-times-import-As4dfg');
    const unrelated = folder('something-else');
    const t = await createTestApp();
    try {
      expect(fs.readdirSync(tmp).sort()).toEqual([ofLive, newUnnamed, unrelated].sort());
      void ofDead;
    } finally {
      await t.close();
    }
  });
});

/**
 * Exports to slow clients (CONTRACT.md §16, docs/reliability.md), on a real server on 127.0.0.1,
 * on SQLite and on PostgreSQL (TEST_DATABASE_URL): the zip export reads a large original a slice
 * at a time, only as the client takes it (a client that stops reading costs a slice or a few, never
 * the file), and the file arrives byte for byte; a runner has at most 2 exports under way, a third
 * is refused (429 + Retry-After), and an export whose client goes gives its place back.
 */
import http from 'node:http';
import net from 'node:net';
import { unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPORT_RETRY_SECONDS,
  EXPORTS_UNDER_WAY,
  originalReadSize,
  zipProgress,
} from '../../features/exports/exports.service.js';
import { call, createTestApp, registerUser, type Account, type TestApp } from '../helpers.js';
import { importResult } from '../imports/fixtures.js';
import { watchFit } from '../imports/track-fixtures.js';

/** The size of the large original: read in 256 KiB (which tells its size), then 384 KiB at a time. */
const LARGE = 12 * 1024 * 1024;

/** Slices of the large original the server holds for a client that reads nothing, at most. */
const HELD = 3;

let t: TestApp;
let port: number;
let runner: Account;
let tracked: number;
let large: Buffer;
/** The server's end of every connection, to close them all at the end. */
const connections: net.Socket[] = [];
/** The exports a test opened: any it left open are closed after it, so that the next starts with no export under way. */
const opened: http.ClientRequest[] = [];

/**
 * Bytes that deflate cannot pack, the same every run. A FIT file of 12 MiB (a hundred hours at one
 * record a second) takes Garmin's encoder minutes to write; the export copies an original as it
 * is, never parses it, so the stored original of an imported watch file is swapped for these.
 */
function largeOriginal(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = 2024;
  for (let i = 0; i < bytes; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T12:00:00.000Z' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
  t.app.server.on('connection', (socket: net.Socket) => connections.push(socket));
  runner = await registerUser(t.app, { timezone: 'UTC' });
  const result = await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }]);
  expect(result.created).toBe(1);
  tracked = result.rows[0]!.entry!.id!;
  large = largeOriginal(LARGE);
  await t.app.appContext.db
    .updateTable('track_files')
    .set({ content: large })
    .where('entry_id', '=', tracked)
    .execute();
});
afterEach(async () => {
  for (const req of opened.splice(0)) req.destroy();
  await underWay(runner.user.id, 0);
});
afterAll(async () => {
  for (const socket of connections) socket.destroy();
  await t?.close();
});

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A client's export over TCP: its answer's head, its body not read (the socket stops taking bytes). */
function openExport(token: string, format = 'zip'): Promise<{ req: http.ClientRequest; res: http.IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/v1/export?format=${format}`,
        headers: { authorization: `Bearer ${token}` },
        agent: false,
      },
      (res) => {
        res.pause();
        resolve({ req, res });
      },
    );
    opened.push(req);
    req.once('error', reject);
  });
}

/** The server's end of a client's connection. */
function serverSocketOf(res: http.IncomingMessage): net.Socket {
  const client = res.socket as net.Socket;
  return connections.find((socket) => socket.remotePort === client.localPort)!;
}

/** Reads the rest of an answer, in at most `ms`. */
function readAll(res: http.IncomingMessage, ms = 30_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error(`the answer did not end within ${ms} ms`)), ms);
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    res.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    res.resume();
  });
}

/** Waits until the zip export's slice reads stop moving (300 ms without one), 10 s at most; answers their count. */
async function readsSettled(): Promise<number> {
  let seen = -1;
  let still = 0;
  for (let waited = 0; waited < 10_000 && still < 6; waited += 50) {
    await pause(50);
    if (zipProgress.slicesRead === seen) still += 1;
    else [seen, still] = [zipProgress.slicesRead, 0];
  }
  return zipProgress.slicesRead;
}

/** Waits (5 s at most) until the runner has `count` exports under way; answers how many they have. */
async function underWay(userId: number, count: number): Promise<number> {
  const places = t.app.appContext.memory.exportsUnderWay;
  for (let waited = 0; (places.get(userId) ?? 0) !== count && waited < 5000; waited += 20) await pause(20);
  return places.get(userId) ?? 0;
}

/** The activity file of the runner's tracked run in an archive. */
const activityOf = (archive: Buffer) => Buffer.from(unzipSync(new Uint8Array(archive))[`activities/${tracked}.fit`]!);

describe('a zip export to a client that stops reading', () => {
  it('reads a slice or a few of a large original ahead, then the rest as it is read, byte for byte', async () => {
    const [first, then] = [originalReadSize(null), originalReadSize(LARGE)];
    expect([first, then]).toEqual([256 * 1024, 384 * 1024]);
    const reads = 1 + Math.ceil((LARGE - first) / then);
    expect(reads).toBe(33);
    const { res } = await openExport(runner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    // The client reads nothing: the sockets' buffers fill (the kernel's, a few MiB on loopback),
    // then the streams', and the export waits. What the server holds is what it read from the
    // database and its socket has not taken: a slice or a few.
    const whilePaused = await readsSettled();
    expect(whilePaused).toBeGreaterThanOrEqual(1);
    expect(whilePaused).toBeLessThan(reads);
    const read = first + (whilePaused - 1) * then;
    // What the kernel took: Node counts what the socket still buffers as written.
    const socket = serverSocketOf(res);
    const taken = socket.bytesWritten - socket.writableLength;
    expect(read - taken).toBeLessThanOrEqual(HELD * then);
    expect(await underWay(runner.user.id, 1)).toBe(1);
    const archive = await readAll(res);
    expect(zipProgress.slicesRead).toBe(reads);
    expect(activityOf(archive).equals(large)).toBe(true);
    // Read to its end: its place is given back.
    expect(await underWay(runner.user.id, 0)).toBe(0);
  }, 60_000);
});

describe('exports under way of one runner', () => {
  it('are 2 at most: a third, of any format, is refused with 429 and Retry-After; another runner is not', async () => {
    const first = await openExport(runner.token);
    const second = await openExport(runner.token);
    expect([first.res.statusCode, second.res.statusCode]).toEqual([200, 200]);
    for (const format of ['zip', 'json', 'csv']) {
      const refused = await fetch(`http://127.0.0.1:${port}/api/v1/export?format=${format}`, {
        headers: { authorization: `Bearer ${runner.token}` },
      });
      const body = await refused.text();
      expect(refused.status, format).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(EXPORT_RETRY_SECONDS));
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(body)).toEqual({ message: EXPORTS_UNDER_WAY });
    }
    expect(EXPORTS_UNDER_WAY).toBe('You already have 2 exports under way: wait for one to finish, then try again.');
    const other = await registerUser(t.app);
    const theirs = await call(t.app, 'GET', '/api/v1/export', { token: other.token, query: { format: 'zip' } });
    expect(theirs.statusCode).toBe(200);
    expect(await underWay(other.user.id, 0)).toBe(0);
    // Both read to their end: the places are given back, and the next export is served.
    await Promise.all([readAll(first.res), readAll(second.res)]);
    expect(await underWay(runner.user.id, 0)).toBe(0);
    const next = await call(t.app, 'GET', '/api/v1/export', { token: runner.token, query: { format: 'json' } });
    expect(next.statusCode).toBe(200);
  }, 60_000);

  it('give their place back when their client goes mid-export', async () => {
    const leaving = await openExport(runner.token);
    const staying = await openExport(runner.token);
    expect([leaving.res.statusCode, staying.res.statusCode]).toEqual([200, 200]);
    await readsSettled();
    expect(await underWay(runner.user.id, 2)).toBe(2);
    const refused = await call(t.app, 'GET', '/api/v1/export', { token: runner.token, query: { format: 'csv' } });
    expect(refused.statusCode).toBe(429);
    // The client goes with most of the archive unread.
    leaving.req.destroy();
    expect(await underWay(runner.user.id, 1)).toBe(1);
    const served = await call(t.app, 'GET', '/api/v1/export', { token: runner.token, query: { format: 'zip' } });
    expect(served.statusCode).toBe(200);
    expect(activityOf(served.rawPayload).equals(large)).toBe(true);
    expect(await underWay(runner.user.id, 1)).toBe(1);
    // The one that stayed still gets its whole archive.
    expect(activityOf(await readAll(staying.res)).equals(large)).toBe(true);
    expect(await underWay(runner.user.id, 0)).toBe(0);
  }, 60_000);

  it('give their place back when their client goes as soon as it has asked', async () => {
    // Sent and gone at once: the server may find the client gone before or after it starts the export.
    for (let i = 0; i < 6; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          const request = `GET /api/v1/export?format=zip HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${runner.token}\r\n\r\n`;
          // Gone as soon as the request has left, or a few milliseconds later.
          socket.write(request, () => (i % 2 === 0 ? socket.destroy() : setTimeout(() => socket.destroy(), i)));
        });
        socket.on('error', () => undefined);
        socket.once('close', () => resolve());
      });
    }
    expect(await underWay(runner.user.id, 0)).toBe(0);
    const both = [await openExport(runner.token, 'json'), await openExport(runner.token, 'csv')];
    expect(both.map((b) => b.res.statusCode)).toEqual([200, 200]);
    await Promise.all(both.map((b) => readAll(b.res)));
    expect(await underWay(runner.user.id, 0)).toBe(0);
    expect(t.app.appContext.memory.exportsUnderWay.size).toBe(0);
  }, 60_000);
});

describe('a run deleted while its file is read', () => {
  it('ends its file where it was, in an archive that still opens', async () => {
    const owner = await registerUser(t.app, { timezone: 'UTC' });
    const result = await importResult(t.app, owner.token, [{ name: 'watch.fit', content: watchFit() }]);
    const id = result.rows[0]!.entry!.id!;
    await t.app.appContext.db.updateTable('track_files').set({ content: large }).where('entry_id', '=', id).execute();
    const { res } = await openExport(owner.token);
    expect(res.statusCode).toBe(200);
    expect(await readsSettled()).toBeLessThan(33);
    const deleted = await call(t.app, 'DELETE', `/api/v1/entry/${id}`, { token: owner.token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const file = Buffer.from(unzipSync(new Uint8Array(await readAll(res)))[`activities/${id}.fit`]!);
    expect(file.length).toBeGreaterThan(0);
    expect(file.length).toBeLessThan(large.length);
    expect(file.equals(large.subarray(0, file.length))).toBe(true);
  }, 60_000);
});

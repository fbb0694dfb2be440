/**
 * Sessions and abuse across instances, and what the other session tests
 * (server/test/auth/sessions.test.ts, auth/auth.test.ts, users/users.test.ts) do not cover: two app
 * instances on one database share throttles and revocations at once; login answers and
 * times the same for an unknown e-mail and a wrong password; a refused registration
 * does not depend on whether the e-mail exists; a body over the limit streamed without
 * a length is cut off; and the content security policy allows no inline script and no
 * other origin.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../http/security.js';
import { buildApp } from '../../app.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  call,
  createTestApp,
  login,
  nextIp,
  registerUser,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
/** A second instance of the app on the same database, with the same clock. */
let other: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({}, { sqliteFile: true });
  other = await buildApp(t.config);
  await other.ready();
});
afterAll(async () => {
  await other.close();
  await t.close();
});

describe('two instances sharing one database', () => {
  it('count failed logins together: 5 failures spread over both, then 429 on either, even for the right password', async () => {
    const account = await registerUser(t.app);
    const ip = nextIp();
    const attempt = (app: FastifyInstance, password: string) =>
      call(app, 'POST', '/api/v1/auth/login', { body: { email: account.user.email, password }, ip });
    for (const app of [t.app, other, t.app, other, t.app]) {
      expect((await attempt(app, 'wrong-password')).statusCode).toBe(401);
    }
    for (const app of [other, t.app]) {
      const res = await attempt(app, account.password);
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    t.clock.advance({ minutes: 1, seconds: 1 });
    expect((await attempt(other, account.password)).statusCode).toBe(200);
  });

  it('count registrations from one address together: the 11th over both instances is 429', async () => {
    const ip = nextIp();
    const register = (app: FastifyInstance, i: number) =>
      call(app, 'POST', '/api/v1/auth/register', {
        ip,
        body: {
          name: `Shared ${i}`,
          email: `shared-${i}-${Date.now()}@example.com`,
          password: 'shared-password-1',
          password_confirmation: 'shared-password-1',
        },
      });
    for (let i = 1; i <= 10; i++) {
      expect((await register(i % 2 === 0 ? t.app : other, i)).statusCode, `attempt ${i}`).toBe(201);
    }
    expect((await register(other, 11)).statusCode).toBe(429);
    expect((await register(t.app, 12)).statusCode).toBe(429);
    t.clock.advance({ minutes: 1, seconds: 1 });
  });

  it('revoke at once everywhere: logout on one, password change on one, deletion on one', async () => {
    const me = (app: FastifyInstance, token: string) => call(app, 'GET', '/api/v1/user/me', { token });

    // Logout on the first instance: the token is refused by the second.
    const a = await registerUser(t.app);
    expect((await me(other, a.token)).statusCode).toBe(200);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: a.token })).statusCode).toBe(200);
    expect((await me(other, a.token)).statusCode).toBe(401);

    // A password change on the second instance signs out the other sessions on the first.
    const b = await registerUser(t.app);
    const elsewhere = await login(t.app, b.user.email, b.password);
    const change = await call(other, 'PUT', `/api/v1/user/${b.user.id}`, {
      token: b.token,
      body: {
        name: b.user.name,
        email: b.user.email,
        password: 'brand-new-pass-1',
        password_confirmation: 'brand-new-pass-1',
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect((await me(t.app, elsewhere.token)).statusCode).toBe(401);
    expect((await me(t.app, b.token)).statusCode, 'the session that changed it stays').toBe(200);

    // Deleting a user on the first instance: their token dies on the second.
    const c = await registerUser(t.app);
    const admin = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await call(t.app, 'DELETE', `/api/v1/user/${c.user.id}`, { token: admin.token })).statusCode).toBe(200);
    expect((await me(other, c.token)).statusCode).toBe(401);
  });

  it('expire idle tokens the same way on both', async () => {
    const d = await registerUser(t.app);
    t.clock.advance({ days: 29 });
    expect((await call(other, 'GET', '/api/v1/user/me', { token: d.token })).statusCode).toBe(200);
    t.clock.advance({ days: 29 });
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: d.token })).statusCode).toBe(200);
    t.clock.advance({ days: 31 });
    expect((await call(other, 'GET', '/api/v1/user/me', { token: d.token })).statusCode).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: d.token })).statusCode).toBe(401);
  });
});

describe('which e-mails exist stays secret', () => {
  it('login: an unknown e-mail and a wrong password get the same answer and take about as long', async () => {
    const account = await registerUser(t.app);
    const unknown = 'nobody-here@example.com';
    const attempt = async (email: string) => {
      const started = performance.now();
      const res = await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { email, password: 'not-the-password' },
        ip: nextIp(),
      });
      return { res, ms: performance.now() - started };
    };
    const known = await attempt(account.user.email);
    const missing = await attempt(unknown);
    expect(known.res.statusCode).toBe(401);
    expect(missing.res.statusCode).toBe(401);
    expect(missing.res.body).toBe(known.res.body);
    const headerNames = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => k !== 'date')
        .sort();
    expect(headerNames(missing.res.headers)).toEqual(headerNames(known.res.headers));

    // Timing: interleaved, medians of 9 each. Both verify a password hash of the same
    // cost, so they differ by noise (the bounds are wide for a busy machine); skipping
    // the hash for unknown e-mails would make the unknown ones some 20 times faster.
    const times: { known: number[]; missing: number[] } = { known: [], missing: [] };
    for (let i = 0; i < 9; i++) {
      times.known.push((await attempt(account.user.email)).ms);
      times.missing.push((await attempt(unknown)).ms);
    }
    const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    const ratio = median(times.missing) / median(times.known);
    expect(
      ratio,
      `unknown ${median(times.missing).toFixed(1)} ms, known ${median(times.known).toFixed(1)} ms`,
    ).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  });

  it('registration: a request refused for another field answers the same whether the e-mail is taken or not', async () => {
    const taken = (await registerUser(t.app)).user.email;
    const refused = (email: string) =>
      call(t.app, 'POST', '/api/v1/auth/register', {
        ip: nextIp(),
        body: { name: 'Someone', email, password: 'short', password_confirmation: 'short' },
      });
    const a = await refused(taken);
    const b = await refused('never-registered@example.com');
    expect(a.statusCode).toBe(422);
    expect(a.body).toBe(b.body);
    expect(a.json().errors).not.toHaveProperty('email');
  });
});

describe('the body size limit on a real socket', () => {
  let port: number;
  beforeAll(async () => {
    await other.listen({ port: 0, host: '127.0.0.1' });
    port = (other.server.address() as net.AddressInfo).port;
  });

  it('a chunked body that grows past 1 MiB is refused with 413 JSON before it ends', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let sent = 0;
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      socket.on('close', () => resolve(received));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve(received) : reject(error),
      );
      socket.write(
        'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      const chunk = 'a'.repeat(64 * 1024);
      const pump = () => {
        // Up to 8 MiB, but the server answers (and closes) long before that.
        while (sent < 8 * 1024 * 1024 && !socket.destroyed && received === '') {
          sent += chunk.length;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', pump);
        }
        if (!socket.destroyed && received === '') socket.end('0\r\n\r\n');
      };
      pump();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ message: 'The request body is too large.' });
  });
});

describe('content security policy', () => {
  const directives = (policy: string) =>
    new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...sources]) => [name!, sources]),
    );

  /** The default map tiles' server (CONTRACT.md §14): the one other origin, for images only. */
  const TILE_ORIGIN = 'https://tile.openstreetmap.org';

  it.each(['/', '/login', '/api/health', '/api/v1/user/me', '/api/v1/nope', '/api/docs'])(
    '%s: scripts only from this origin, no inline script, no other origin but the map tiles',
    async (url) => {
      const res = await call(t.app, 'GET', url);
      const policy = String(res.headers['content-security-policy'] ?? '');
      const parsed = directives(policy);
      expect(parsed.get('default-src')).toEqual(["'self'"]);
      expect(parsed.get('script-src')).toEqual(["'self'"]);
      expect(parsed.get('object-src')).toEqual(["'none'"]);
      expect(parsed.get('base-uri')).toEqual(["'self'"]);
      expect(parsed.get('frame-ancestors')).toEqual(["'none'"]);
      expect(parsed.get('connect-src')).toEqual(["'self'"]);
      for (const [name, sources] of parsed) {
        for (const source of sources) {
          // Keywords and data: only: no host, scheme or wildcard source (data: only for images and
          // fonts), but the map's tile server for images.
          if (name === 'img-src' && source === TILE_ORIGIN) continue;
          expect(source, `${name} ${source}`).toMatch(/^('self'|'none'|'unsafe-inline'|data:)$/);
          if (source === 'data:') expect(['img-src', 'font-src']).toContain(name);
          if (source === "'unsafe-inline'") expect(name, 'only the API docs page relaxes styles').toBe('style-src');
        }
      }
      if (!url.startsWith('/api/docs')) expect(policy).toBe(contentSecurityPolicy([TILE_ORIGIN]));
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    },
  );

  it('the built web app has no inline script and loads nothing from another origin', (context) => {
    const index = path.resolve('dist/web/index.html');
    if (!fs.existsSync(index)) context.skip();
    const html = fs.readFileSync(index, 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes, 'every script is a file of this origin').toMatch(/\bsrc="\/[^/]/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });
});

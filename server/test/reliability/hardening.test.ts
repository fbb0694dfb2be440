/**
 * What a hostile-input probe of the server found, each a test that failed before its fix:
 * authentication comes before anything else, validation is exact and speaks in sentences,
 * time zones are stored canonical with bounded caches, demo accounts cannot be removed or
 * demoted, start-up refuses settings that would lose data or hide why.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError, sourceUrlOf } from '../../config.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../features/demo/demo.service.js';
import { cachedZoneFormatters, dateInZone } from '../../../core/time.js';
import {
  call,
  createTestApp,
  expectError,
  login,
  registerUser,
  UNAUTHENTICATED,
  type Account,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
let runner: Account;
beforeAll(async () => {
  t = await createTestApp();
  runner = await registerUser(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('authentication comes first', () => {
  it.each([
    ['POST', '/api/v1/entry', { body: {} }],
    ['GET', '/api/v1/user/abc', {}],
    ['DELETE', '/api/v1/user/1', { headers: { 'content-type': 'application/json' } }],
    ['PUT', '/api/v1/entry/1', { body: '{"date":' }],
    ['GET', '/api/v1/entry?page=-4', {}],
  ] as const)('%s %s without a token is 401, whatever else is wrong', async (method, url, options) => {
    const res = await call(t.app, method, url, options);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toEqual(UNAUTHENTICATED);
  });
});

describe('validation is exact', () => {
  const run = (body: Record<string, unknown>) =>
    call(t.app, 'POST', '/api/v1/entry', {
      token: runner.token,
      body: { date: '2026-03-01', distance: 5, time: '00:25:00', ...body },
    });

  it.each([['0.0000000001'], [5e-324], [0.0004], ['0.0001']])(
    'refuses a distance %s that rounds to nothing',
    async (distance) => {
      const res = await run({ distance });
      const body = expectError(res, 422);
      expect(body.errors?.distance?.[0]).toMatch(/greater than 0|at most 3 decimals/);
    },
  );

  it('still accepts decimals that floats cannot hold exactly', async () => {
    for (const distance of [42.195, 0.001, 1.005, 999.999]) {
      const res = await run({ distance, time: '50:00:00' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().entry.distance).toBe(distance);
    }
  });

  it.each(['x@y.z<script>', 'a@b..c', 'a@b', 'a b@c.de', '@b.cd', 'a@.cd'])('refuses the e-mail %s', async (email) => {
    const res = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: 'R', email },
    });
    expect(expectError(res, 422).errors?.email).toEqual(['The email must be a valid email address.']);
  });

  it('refuses a lone surrogate in a name and a title', async () => {
    const named = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: `{"name":"lone \\ud800 surrogate","email":"${runner.user.email}"}`,
    });
    expect(expectError(named, 422).errors?.name?.[0]).toMatch(/broken character/);
    const titled = await call(t.app, 'POST', '/api/v1/entry', {
      token: runner.token,
      body: '{"date":"2026-03-01","distance":5,"time":"00:25:00","title":"x\\udc00"}',
    });
    expect(expectError(titled, 422).errors?.title?.[0]).toMatch(/broken character/);
  });

  it('takes a null timezone as unchanged and stores a zone in its canonical spelling', async () => {
    const base = { name: runner.user.name, email: runner.user.email };
    const unchanged = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { ...base, timezone: null },
    });
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(unchanged.json().user.timezone).toBe('UTC');
    const paris = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { ...base, timezone: 'europe/PARIS' },
    });
    expect(paris.json().user.timezone).toBe('Europe/Paris');
  });

  it.each([
    [
      '/api/v1/auth/register',
      '{"name":"N","email":"n@example.com","password":"12345678","password_confirmation":12345678}',
      'password_confirmation',
    ],
    ['/api/v1/entry/1', '{"_method":["DELETE"]}', '_method'],
    ['/api/v1/entry', '{"date":"2026-03-01","distance":5,"time":"00:25:00","title":["x"]}', 'title'],
    ['/api/v1/entry', '{"date":"2026-03-01","distance":5,"time":"00:25:00","effort":"hard"}', 'effort'],
  ])('answers %s %s in a sentence naming the field', async (url, body, field) => {
    const res = await call(t.app, 'POST', url, { token: runner.token, body });
    const error = expectError(res, 422);
    const message = error.errors?.[field]?.[0] ?? '';
    expect(message).toMatch(new RegExp(`^The ${field.replace('_', '[ _]')}`));
    expect(message).not.toMatch(/Invalid input|expected|received/);
  });

  it('judges a body with a "__proto__" key on its real fields', async () => {
    const res = await call(t.app, 'POST', '/api/v1/entry', {
      token: runner.token,
      body: '{"__proto__":{"admin":true},"date":"2026-03-01","distance":5,"time":"00:25:00"}',
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('time zone caches', () => {
  it('hold one formatter per real zone, however a client spells it', () => {
    const spell = (i: number) =>
      [...'America/Argentina/ComodRivadavia']
        .map((c, j) => ((i >> (j % 16)) & 1 ? c.toUpperCase() : c.toLowerCase()))
        .join('');
    for (let i = 0; i < 3000; i++) dateInZone(new Date(Date.UTC(2026, 2, 1)), spell(i));
    // Before: one formatter per spelling, 3,000 of them (tens of megabytes, never freed).
    expect(cachedZoneFormatters()).toBeLessThan(20);
  });
});

describe('start-up settings', () => {
  it('refuses DATABASE_URL=sqlite: without a path, which would keep nothing', () => {
    expect(() => loadConfig({ DATABASE_URL: 'sqlite:' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'sqlite:  ' })).toThrow(/needs a file path/);
  });

  it('names the allowed values of LOG_LEVEL', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info/);
    expect(loadConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
  });

  it('takes the source link from SOURCE_URL, else from package.json, and refuses one that is no web address', () => {
    expect(loadConfig({ SOURCE_URL: 'https://git.example.org/running/times' }).sourceUrl).toBe(
      'https://git.example.org/running/times',
    );
    const repository: unknown = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')).repository;
    expect(loadConfig({}).sourceUrl).toBe(
      sourceUrlOf(typeof repository === 'object' && repository ? (repository as { url: unknown }).url : repository),
    );
    expect(() => loadConfig({ SOURCE_URL: 'javascript:alert(1)' })).toThrow(/SOURCE_URL must be an http or https/);
    expect(() => loadConfig({ SOURCE_URL: 'not a url' })).toThrow(ConfigError);
  });

  it('takes PUBLIC_URL as an http or https address without a query, and refuses anything else', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://runs.example.org/' }).publicUrl).toBe('https://runs.example.org');
    expect(loadConfig({ PUBLIC_URL: 'http://Example.org:8080/runs/' }).publicUrl).toBe('http://example.org:8080/runs');
    for (const bad of [
      'runs.example.org',
      'ftp://example.org',
      'https://u:p@example.org',
      'https://example.org/?a=1',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL must be an http or https address/);
    }
  });

  it.each([
    ['https://github.com/owner/running-times', 'https://github.com/owner/running-times'],
    ['git+https://github.com/owner/running-times.git', 'https://github.com/owner/running-times'],
    ['git://github.com/owner/running-times.git', 'https://github.com/owner/running-times'],
    ['github:owner/running-times', 'https://github.com/owner/running-times'],
    ['owner/running-times', 'https://github.com/owner/running-times'],
    ['https://example.org/src/', 'https://example.org/src'],
    ['ftp://example.org/src', null],
    ['javascript:alert(1)', null],
    ['', null],
    [undefined, null],
    [{ url: 'https://example.org' }, null],
  ])('reads the repository %j as the page %j', (spelling, page) => {
    expect(sourceUrlOf(spelling)).toBe(page);
  });
});

describe('demo accounts', () => {
  it('cannot be deleted or demoted, and a start recreates any that are missing', async () => {
    const demo = await createTestApp({ demoMode: true });
    try {
      const admin = await login(demo.app, DEMO_ACCOUNTS[0]!.email, DEMO_PASSWORD);
      const rows = await demo.app.appContext.db
        .selectFrom('users')
        .select(['id', 'name', 'email', 'role'])
        .where('is_demo', '=', 1)
        .execute();
      const manager = rows.find((r) => r.role === 'manager')!;
      expectError(await call(demo.app, 'DELETE', `/api/v1/user/${manager.id}`, { token: admin.token }), 403);
      const demoted = await call(demo.app, 'PUT', `/api/v1/user/${manager.id}`, {
        token: admin.token,
        body: { name: manager.name, email: manager.email, role: 'user' },
      });
      expectError(demoted, 403);
      // Gone by other means (a database restored without them): the next start brings them back.
      await demo.app.appContext.db.deleteFrom('users').where('id', '=', manager.id).execute();
      const { ensureDemo } = await import('../../features/demo/demo.service.js');
      await ensureDemo(demo.app.appContext);
      const back = await login(demo.app, manager.email, DEMO_PASSWORD);
      expect(back.user.role).toBe('manager');
    } finally {
      await demo.close();
    }
  });
});

describe('precompressed assets', () => {
  it('are sent with Vary: Accept-Encoding, compressed or not', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-web-'));
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
    const script = 'console.log("hello");'.repeat(100);
    fs.writeFileSync(path.join(root, 'assets', 'app.js'), script);
    fs.writeFileSync(path.join(root, 'assets', 'app.js.br'), zlib.brotliCompressSync(script));
    const web = await createTestApp({ webRoot: root });
    try {
      const br = await call(web.app, 'GET', '/assets/app.js', { headers: { 'accept-encoding': 'br' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      const plain = await call(web.app, 'GET', '/assets/app.js', { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
    } finally {
      await web.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('answers of the API', () => {
  it('go compressed to a client that accepts it, from 1 KB on, and plain to one that does not', async () => {
    const web = await createTestApp();
    try {
      const plain = await call(web.app, 'GET', '/api/openapi.json', { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(1024);
      for (const [encoding, decode] of [
        ['br', zlib.brotliDecompressSync],
        ['gzip', zlib.gunzipSync],
      ] as const) {
        const packed = await call(web.app, 'GET', '/api/openapi.json', { headers: { 'accept-encoding': encoding } });
        expect(packed.headers['content-encoding']).toBe(encoding);
        expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(decode(packed.rawPayload).toString('utf8')).toBe(plain.body);
      }
      // A short answer is not worth it.
      const health = await call(web.app, 'GET', '/api/health', { headers: { 'accept-encoding': 'br' } });
      expect(health.headers['content-encoding']).toBeUndefined();
    } finally {
      await web.close();
    }
  });
});

describe("the first screens' pages", () => {
  it("answer a first screen's addresses, and the app shell every other page", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-web-'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>shell</title>');
    fs.writeFileSync(path.join(root, 'dashboard.html'), '<!doctype html><title>dashboard</title>');
    fs.writeFileSync(
      path.join(root, 'screen-pages.json'),
      JSON.stringify([{ path: '^/dashboard$', page: 'dashboard.html' }]),
    );
    const web = await createTestApp({ webRoot: root });
    try {
      const pageAt = async (url: string) => (await call(web.app, 'GET', url)).body;
      expect(await pageAt('/dashboard')).toContain('<title>dashboard</title>');
      expect(await pageAt('/dashboard?lang=de')).toContain('<title>dashboard</title>');
      expect(await pageAt('/dashboard/more')).toContain('<title>shell</title>');
      expect(await pageAt('/entries')).toContain('<title>shell</title>');
      const api = await call(web.app, 'GET', '/api/v1/dashboard');
      expect(api.statusCode).toBe(404);
    } finally {
      await web.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppConfigSchema } from '../../core/schemas.js';
import { loadConfig } from '../config.js';
import { call, createTestApp, login, type TestApp } from './helpers.js';
import { keysOf } from './wire-keys.js';

/** The map settings of an environment, as overrides of a test app's configuration. */
const loadConfigOf = (env: Record<string, string>) => {
  const { mapTileUrl, mapTileOrigins, mapTileAttribution } = loadConfig(env);
  return { mapTileUrl, mapTileOrigins, mapTileAttribution };
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers 200 {status: "ok"} without authentication', async () => {
    const res = await call(t.app, 'GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/openapi.json', () => {
  it('describes the API, every endpoint of the contract included', async () => {
    const res = await call(t.app, 'GET', '/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(String(doc.openapi)).toMatch(/^3\./);
    const paths = Object.keys(doc.paths ?? {});
    for (const path of [
      '/api/v1/auth/register',
      '/api/v1/auth/login',
      '/api/v1/auth/logout',
      '/api/v1/user/me',
      '/api/v1/user',
      '/api/v1/user/{id}',
      '/api/v1/entry',
      '/api/v1/entry/all',
      '/api/v1/entry/{id}',
      '/api/v1/dashboard/data',
      '/api/v1/dashboard/admin-data',
      '/api/v1/report/weekly',
    ]) {
      expect(paths).toContain(path);
    }
    expect(JSON.stringify(doc)).not.toMatch(/argon|password_hash|token_hash/i);
  });
});

describe('GET /api/v1/app-config', () => {
  it('names where the source code is when one is configured', async () => {
    const withSource = await createTestApp({ sourceUrl: 'https://example.org/running-times' });
    try {
      const res = await call(withSource.app, 'GET', '/api/v1/app-config');
      expect(res.json()).toMatchObject({ source_url: 'https://example.org/running-times' });
      AppConfigSchema.parse(res.json());
    } finally {
      await withSource.close();
    }
  });

  it('says demo mode is off and offers no demo login', async () => {
    const res = await call(t.app, 'GET', '/api/v1/app-config');
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.json())).toEqual(['demo_login', 'demo_mode', 'mail', 'map', 'oidc', 'signup', 'source_url']);
    expect(res.json()).toEqual({
      demo_mode: false,
      demo_login: null,
      map: { tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors' },
      source_url: null,
      mail: false,
      signup: 'open',
      oidc: null,
    });
  });

  it("in demo mode offers the demo admin's credentials, which log in as an admin", async () => {
    const demo = await createTestApp({ demoMode: true });
    try {
      const res = await call(demo.app, 'GET', '/api/v1/app-config');
      expect(res.statusCode).toBe(200);
      const config = AppConfigSchema.strict().parse(res.json());
      expect(config.demo_mode).toBe(true);
      expect(config.demo_login).not.toBeNull();
      const account = await login(demo.app, config.demo_login?.email ?? '', config.demo_login?.password ?? '');
      expect(account.user.role).toBe('admin');
    } finally {
      await demo.close();
    }
  });
});

describe('the map tiles (MAP_TILE_URL)', () => {
  it('are off with MAP_TILE_URL=off: no map in the app config, no other origin in the policy', async () => {
    const off = await createTestApp(loadConfigOf({ MAP_TILE_URL: 'off' }));
    try {
      const res = await call(off.app, 'GET', '/api/v1/app-config');
      expect(res.json().map).toBeNull();
      expect(res.headers['content-security-policy']).toContain("img-src 'self' data:;");
    } finally {
      await off.close();
    }
  });

  it('come from the server named, which the policy allows for images only', async () => {
    const tile_url = 'https://maps.example.org:8443/tiles/{z}/{x}/{y}.png?key=1';
    const own = await createTestApp(loadConfigOf({ MAP_TILE_URL: tile_url, MAP_TILE_ATTRIBUTION: '© Example' }));
    try {
      const res = await call(own.app, 'GET', '/api/v1/app-config');
      expect(res.json().map).toEqual({ tile_url, attribution: '© Example' });
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self' data: https://maps.example.org:8443;");
      expect(policy.match(/maps\.example/g)).toHaveLength(1);
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    } finally {
      await own.close();
    }
  });

  it('refuse a setting that is not an http(s) template with {z}, {x} and {y}', () => {
    for (const value of ['ftp://x/{z}/{x}/{y}', 'https://x/tiles.png', 'not a url {z}{x}{y}']) {
      expect(() => loadConfig({ MAP_TILE_URL: value }), value).toThrow(/MAP_TILE_URL/);
    }
  });

  /** The img-src sources of an app started with MAP_TILE_URL=`template`. */
  const imageSources = async (template: string) => {
    const app = await createTestApp(loadConfigOf({ MAP_TILE_URL: template }));
    try {
      const res = await call(app.app, 'GET', '/api/v1/app-config');
      expect(res.json().map.tile_url).toBe(template);
      const policy = String(res.headers['content-security-policy']);
      const imgSrc = policy.split(';').find((directive) => directive.trim().startsWith('img-src '));
      return { policy, sources: imgSrc?.trim().split(/\s+/).slice(1) };
    } finally {
      await app.close();
    }
  };

  it("allow each of Leaflet's subdomains a, b and c for a {s} template, which is passed on as it is", async () => {
    const { sources } = await imageSources('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(sources).toEqual([
      "'self'",
      'data:',
      'https://a.tile.openstreetmap.org',
      'https://b.tile.openstreetmap.org',
      'https://c.tile.openstreetmap.org',
    ]);
  });

  it('allow a template with a port, {s} and a query: the origins keep the port, lower-cased', async () => {
    const { policy, sources } = await imageSources(
      'http://Tiles-{s}.Example.org:8080/osm/{z}/{x}/{y}.png?key=a1%2F&r=@2x',
    );
    expect(sources).toEqual([
      "'self'",
      'data:',
      'http://tiles-a.example.org:8080',
      'http://tiles-b.example.org:8080',
      'http://tiles-c.example.org:8080',
    ]);
    expect(policy).not.toMatch(/key=|osm/);
    expect(loadConfig({ MAP_TILE_URL: 'https://tiles.example.org:443/{z}/{x}/{y}.png' }).mapTileOrigins).toEqual([
      'https://tiles.example.org',
    ]);
  });

  const badHost = /MAP_TILE_URL must be an http\(s\) URL template .*: its host may only hold letters, digits/;

  it.each([
    ['a host that adds a directive (sandbox: a blank app)', 'https://a.com;sandbox/{z}/{x}/{y}'],
    ['a host that allows images from anywhere (*)', 'https://*/{z}/{x}/{y}.png'],
    ['a host with a comma, which splits the header', 'https://a.com,b.com/{z}/{x}/{y}.png'],
  ])('refuse %s, saying what is wrong', (_, value) => {
    expect(() => loadConfig({ MAP_TILE_URL: value })).toThrow(badHost);
  });

  it('refuse any other host that is not letters, digits, "-", "." and {s}, with an optional port', () => {
    for (const value of [
      'https://a.com b.com/{z}/{x}/{y}.png',
      "https://a.com'/{z}/{x}/{y}.png",
      'https://a.com"/{z}/{x}/{y}.png',
      'https://*.example.org/{z}/{x}/{y}.png',
      'https://{r}.example.org/{z}/{x}/{y}.png',
      'https://a.com:/{z}/{x}/{y}.png',
      'https://a.com:99999/{z}/{x}/{y}.png',
      'https://a..com/{z}/{x}/{y}.png',
      'https://a.com\\b.com/{z}/{x}/{y}.png',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: value }), value).toThrow(badHost);
    }
    expect(() => loadConfig({ MAP_TILE_URL: 'https://user:secret@a.com/{z}/{x}/{y}.png' })).toThrow(
      /MAP_TILE_URL .*: it must not hold a user name or password/,
    );
    expect(() => loadConfig({ MAP_TILE_URL: 'https:///{z}/{x}/{y}.png' })).toThrow(
      /MAP_TILE_URL .*: it has no host name/,
    );
  });

  it('refuse a path with another placeholder, or a character outside paths and queries', () => {
    for (const value of [
      'https://a.com/{s}/{z}/{x}/{y}.png',
      'https://a.com/{z}/{x}/{-y}.png',
      'https://a.com/{z}/{x}/{y}{r}.png',
      'https://a.com/{z}/{x}/{y.png',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: value }), value).toThrow(/MAP_TILE_URL .*: its path holds \{/);
    }
    for (const value of [
      'https://a.com/{z}/{x}/{y}.png;sandbox',
      'https://a.com/{z}/{x}/{y}.png?a=1,2',
      'https://a.com/{z}/{x}/{y} .png',
      "https://a.com/{z}/{x}/{y}.png?'",
      'https://a.com/{z}/{x}/{y}.png?*',
      'https://a.com/{z}/{x}/{y}.png#top',
      'https://a.com/{z}/{x}/{y}.png?a=%zz',
      'https://a.com/{z}/{x}/{y}.png\n',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: value }), value).toThrow(/MAP_TILE_URL .*: its path holds "/);
    }
  });
});

describe('authentication', () => {
  it('answers a guest 401 before anything else, on every operation that needs a token', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json')).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    const guarded: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.security?.length) continue;
        guarded.push(`${method.toUpperCase()} ${path}`);
        // Every parameter, query and body wrong: the missing token must still be what is said.
        const url = `${path.replace(/\{[^}]+\}/g, 'not-an-id')}?date=not-a-date&dateFrom=x&year=-1&format=xml&page=-3`;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: { 'content-type': 'application/json' },
          ...(method === 'get' || method === 'delete' ? {} : { payload: '{"distance": "far"' }),
        });
        expect(res.statusCode, `${method.toUpperCase()} ${url}: ${res.body}`).toBe(401);
        expect(res.json(), `${method.toUpperCase()} ${url}`).toEqual({ message: 'Unauthenticated.' });
      }
    }
    expect(guarded.length).toBeGreaterThan(30);
  });
});

/**
 * Hostile input, property-based: random and malformed bodies, query strings, path ids,
 * headers and content types, unicode, SQL and HTML metacharacters, sent to every
 * endpoint by every kind of caller. Every answer must be a 2xx or a 4xx with a JSON
 * `{message}` body (never a 5xx), and a rejected request must change nothing. Malformed HTTP on
 * a real socket is in malformed-http.test.ts.
 */
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, nextIp, type TestApp } from '../helpers.js';
import { CONTENT_TYPES, HOSTILE, hostileString, hostileValue, printable } from './hostile-values.js';
import { createWorld, snapshot, type World } from './world.js';

/** Fewer runs on PostgreSQL, where every database snapshot is a round trip. */
const RUNS = process.env.TEST_DATABASE_URL ? 25 : 60;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
type Who = 'guest' | 'user' | 'manager' | 'admin' | 'garbage';

interface Endpoint {
  method: Method;
  /** `{id}` is replaced by a path id chosen by the property. */
  path: string;
  /** What a correct body looks like, so that mutations of it reach deep into validation. */
  valid?: Record<string, unknown>;
  queryKeys?: string[];
}

const ENTRY = { date: '2026-03-11', distance: 10.5, time: '00:55:00' };
const PROFILE = { name: 'Valid Name', email: 'valid-name@example.com', timezone: 'Europe/Paris' };
const PAGE_KEYS = ['page', 'per_page'];
const DATE_KEYS = [...PAGE_KEYS, 'dateFrom', 'dateTo'];

const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api/v1/auth/register',
    valid: { ...PROFILE, password: 'pass-word-1', password_confirmation: 'pass-word-1' },
  },
  { method: 'POST', path: '/api/v1/auth/login', valid: { email: 'admin@example.com', password: 'wrong-password' } },
  { method: 'POST', path: '/api/v1/auth/logout' },
  { method: 'GET', path: '/api/v1/user/me' },
  { method: 'GET', path: '/api/v1/user', queryKeys: [...PAGE_KEYS, 'query'] },
  { method: 'GET', path: '/api/v1/user/{id}' },
  {
    method: 'PUT',
    path: '/api/v1/user/{id}',
    valid: { ...PROFILE, role: 'user' },
  },
  { method: 'PATCH', path: '/api/v1/user/{id}', valid: PROFILE },
  { method: 'POST', path: '/api/v1/user/{id}', valid: { ...PROFILE, _method: 'PUT' } },
  { method: 'DELETE', path: '/api/v1/user/{id}' },
  { method: 'GET', path: '/api/v1/entry', queryKeys: DATE_KEYS },
  { method: 'GET', path: '/api/v1/entry/all', queryKeys: DATE_KEYS },
  { method: 'GET', path: '/api/v1/entry/{id}' },
  { method: 'POST', path: '/api/v1/entry', valid: ENTRY },
  { method: 'PUT', path: '/api/v1/entry/{id}', valid: ENTRY },
  { method: 'PATCH', path: '/api/v1/entry/{id}', valid: ENTRY },
  { method: 'POST', path: '/api/v1/entry/{id}', valid: { ...ENTRY, _method: 'put' } },
  { method: 'DELETE', path: '/api/v1/entry/{id}' },
  { method: 'GET', path: '/api/v1/dashboard/data' },
  { method: 'GET', path: '/api/v1/dashboard/admin-data' },
  { method: 'GET', path: '/api/v1/report/weekly', queryKeys: ['year'] },
  { method: 'GET', path: '/api/health' },
  { method: 'GET', path: '/api/v1/app-config' },
];

/** Everything about one request that the property varies. */
interface Attack {
  who: Who;
  id: { kind: 'own user' | 'other user' | 'admin' | 'own entry' | 'other entry' } | { raw: string };
  query: [string, string][];
  body:
    | { kind: 'none' }
    | { kind: 'mutated'; drop: string[]; set: [string, unknown][] }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; text: string }
    | { kind: 'form'; pairs: [string, string][] };
  contentType: string | null;
  headers: [string, string][];
}

function attackOn(endpoint: Endpoint): fc.Arbitrary<Attack> {
  const fields = Object.keys(endpoint.valid ?? {});
  const keys = [...fields, ...(endpoint.queryKeys ?? []), '_method', 'role', 'user_id', 'id'];
  const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: hostileString });
  return fc.record({
    who: fc.constantFrom<Who>('guest', 'user', 'manager', 'admin', 'garbage'),
    id: fc.oneof(
      fc.constantFrom('own user', 'other user', 'admin', 'own entry', 'other entry').map((kind) => ({ kind })),
      fc
        .oneof(
          fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map(String),
          hostileString.map(percentEncode),
          fc.constantFrom(
            '%zz',
            '%E0%A4%A',
            '..%2F..%2Fetc',
            '00001',
            '1.0',
            '1e3',
            '%201',
            '+1',
            '0x1',
            'x'.repeat(250),
          ),
        )
        .map((raw) => ({ raw })),
    ) as fc.Arbitrary<Attack['id']>,
    query: fc.array(fc.tuple(key, hostileString), { maxLength: 4 }),
    body: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({
        kind: fc.constant('mutated' as const),
        drop: fc.subarray(fields),
        set: fc.array(fc.tuple(key, hostileValue), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('json' as const), value: fc.oneof(fc.jsonValue(), hostileValue) }),
      fc.record({
        kind: fc.constant('raw' as const),
        text: fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.constantFrom('{', '{"a":', '[1,', '{"date":}', '\u0000', '{"a":1}}'),
        ),
      }),
      fc.record({
        kind: fc.constant('form' as const),
        pairs: fc.array(fc.tuple(key, hostileString), { maxLength: 5 }),
      }),
    ),
    contentType: fc.option(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: printable }),
    ),
    headers: fc.array(
      fc.tuple(
        fc.constantFrom(
          'x-http-method-override',
          'x-forwarded-for',
          'accept',
          'accept-encoding',
          'content-encoding',
          'origin',
          'cookie',
          'x-requested-with',
          'range',
        ),
        printable,
      ),
      { maxLength: 3 },
    ),
  });
}

let t: TestApp;
let world: World;

// A fresh app for every test keeps the database small, so that the snapshot taken
// around every request stays cheap.
beforeEach(async () => {
  t = await createTestApp();
  world = await createWorld(t.app);
});
afterEach(async () => {
  await t.close();
});

/** The database, minus the throttle counters that failed logins and registrations are meant to move. */
function state(): Promise<string> {
  return snapshot(t.app, ['throttles']);
}

function pathId(id: Attack['id']): string {
  if ('raw' in id) return id.raw;
  const me = world.actors.user;
  switch (id.kind) {
    case 'own user':
      return String(me.user.id);
    case 'other user':
      return String(world.others.user.user.id);
    case 'admin':
      return String(world.others.admin.user.id);
    case 'own entry':
      return String(me.entry.id);
    case 'other entry':
      return String(world.others.user.entry.id);
  }
}

function token(who: Who): string | null {
  if (who === 'guest') return null;
  if (who === 'garbage') return 'x'.repeat(43);
  return world.actors[who].token;
}

/**
 * Percent-encoding that also encodes lone surrogates, as the bytes a careless client
 * would send (invalid UTF-8), where encodeURIComponent would throw.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

function encodeQuery(pairs: [string, string][]): string {
  if (pairs.length === 0) return '';
  return '?' + pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
}

function buildRequest(endpoint: Endpoint, attack: Attack): InjectOptions {
  const headers: Record<string, string> = {};
  for (const [name, value] of attack.headers) headers[name] = value;
  const bearer = token(attack.who);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let payload: string | undefined;
  const { body } = attack;
  if (body.kind === 'mutated') {
    const value: Record<string, unknown> = { ...endpoint.valid };
    for (const field of body.drop) delete value[field];
    for (const [field, v] of body.set) value[field] = v;
    payload = JSON.stringify(value);
    headers['content-type'] = 'application/json';
  } else if (body.kind === 'json') {
    payload = JSON.stringify(body.value) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (body.kind === 'raw') {
    payload = body.text;
  } else if (body.kind === 'form') {
    payload = new URLSearchParams(body.pairs).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (attack.contentType !== null) headers['content-type'] = attack.contentType;
  const url = endpoint.path.replace('{id}', pathId(attack.id)) + encodeQuery(attack.query);
  return {
    method: endpoint.method,
    url,
    headers,
    remoteAddress: nextIp(),
    ...(payload !== undefined ? { payload } : {}),
  };
}

/** The contract's answer to anything: 2xx, or 4xx with a JSON {message, errors?}; never 5xx. */
function expectContractAnswer(res: LightMyRequestResponse, method: Method): void {
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(200);
  expect(res.statusCode, res.body).toBeLessThan(500);
  if (method === 'HEAD') return;
  expect(res.headers['content-type'], res.body).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(typeof body).toBe('object');
  if (res.statusCode >= 400) {
    expect(typeof body.message, res.body).toBe('string');
    for (const key of Object.keys(body)) expect(['message', 'errors']).toContain(key);
    expect(res.body).not.toMatch(/SqliteError|SELECT |INSERT |at .*\.(ts|js):\d+/);
  }
}

/** Deletes, logouts, and changes to users (role, e-mail, password) can leave the world unusable. */
function mayBreakFixtures(endpoint: Endpoint, request: InjectOptions): boolean {
  if (endpoint.method === 'GET' || endpoint.method === 'HEAD' || endpoint.method === 'OPTIONS') return false;
  if (endpoint.path === '/api/v1/entry' || endpoint.path.endsWith('/register') || endpoint.path.endsWith('/login')) {
    return false;
  }
  const isEntry = endpoint.path.startsWith('/api/v1/entry/');
  const deletes = endpoint.method === 'DELETE' || /delete/i.test(String(request.payload ?? ''));
  return !isEntry || deletes;
}

async function attack(app: FastifyInstance, endpoint: Endpoint, request: InjectOptions): Promise<void> {
  const before = await state();
  const res = await app.inject(request);
  expectContractAnswer(res, endpoint.method);
  if (res.statusCode >= 400) {
    expect(await state(), `a rejected request changed the database: ${res.statusCode} ${res.body}`).toBe(before);
  } else if (mayBreakFixtures(endpoint, request)) {
    // It worked and may have deleted, demoted or signed out a fixture: start again from a fresh world.
    world = await createWorld(app);
  }
}

describe('hostile input: every endpoint answers 2xx or a 4xx JSON {message}, and a rejection changes nothing', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(attackOn(endpoint), async (a) => attack(t.app, endpoint, buildRequest(endpoint, a))),
        { numRuns: RUNS },
      );
    }, 120_000);
  }

  it('any method on any /api path', async () => {
    const segment = fc.oneof(
      fc.constantFrom('api', 'v1', 'user', 'entry', 'all', 'me', '..', '.', '%2e%2e', '1'),
      hostileString.map(percentEncode),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Method>('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'),
        fc.array(segment, { maxLength: 5 }),
        attackOn({ method: 'GET', path: '' }),
        async (method, segments, a) => {
          const endpoint: Endpoint = { method, path: `/api/${segments.join('/')}` };
          await attack(t.app, endpoint, buildRequest(endpoint, a));
        },
      ),
      { numRuns: RUNS * 3 },
    );
  }, 120_000);
});

describe('every hostile string in every field, query parameter and path id, from a caller allowed to be there', () => {
  /** The caller and path id that get past authentication and permissions for each endpoint. */
  function validRequest(endpoint: Endpoint): { who: 'user' | 'admin'; id: string } {
    const staffOnly = ['/api/v1/user', '/api/v1/entry/all', '/api/v1/dashboard/admin-data'];
    const who = staffOnly.includes(endpoint.path) ? 'admin' : 'user';
    const actor = world.actors[who];
    return { who, id: String(endpoint.path.includes('/user/') ? actor.user.id : actor.entry.id) };
  }

  let unique = 0;
  /** The valid body of an endpoint, with an e-mail nobody has yet (registration) or the caller's own. */
  function validBody(endpoint: Endpoint): Record<string, unknown> {
    unique += 1;
    const body = { ...endpoint.valid };
    if (endpoint.path.endsWith('/register')) body.email = `hostile-${unique}@example.com`;
    else if (endpoint.path.includes('/user/')) body.email = world.actors.user.user.email;
    return body;
  }

  function request(endpoint: Endpoint, body: unknown, query: [string, string][], id?: string): InjectOptions {
    const valid = validRequest(endpoint);
    return {
      method: endpoint.method,
      url: endpoint.path.replace('{id}', id ?? valid.id) + encodeQuery(query),
      headers: { authorization: `Bearer ${world.actors[valid.who].token}`, 'content-type': 'application/json' },
      remoteAddress: nextIp(),
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    };
  }

  for (const endpoint of ENDPOINTS.filter((e) => e.valid !== undefined)) {
    it(`${endpoint.method} ${endpoint.path}: each field`, async () => {
      for (const field of Object.keys(endpoint.valid!).filter((f) => f !== '_method')) {
        for (const value of HOSTILE) {
          await attack(t.app, endpoint, request(endpoint, { ...validBody(endpoint), [field]: value }, []));
        }
      }
    }, 120_000);
  }

  for (const endpoint of ENDPOINTS.filter((e) => e.queryKeys !== undefined)) {
    it(`${endpoint.method} ${endpoint.path}: each query parameter`, async () => {
      for (const key of endpoint.queryKeys!) {
        for (const value of HOSTILE) await attack(t.app, endpoint, request(endpoint, undefined, [[key, value]]));
      }
    }, 120_000);
  }

  it('each path id', async () => {
    for (const endpoint of ENDPOINTS.filter((e) => e.path.includes('{id}') && e.method === 'GET')) {
      for (const value of HOSTILE) {
        await attack(t.app, endpoint, request(endpoint, undefined, [], percentEncode(value)));
      }
    }
  }, 120_000);
});

describe('huge and deeply nested bodies', () => {
  const deepArray = '['.repeat(50_000) + ']'.repeat(50_000);
  const deepObject = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
  /** Label, body, and whether every endpoint must refuse it (a valid body with extra fields is fine). */
  const bodies: [string, string, 'refused' | 'any'][] = [
    ['50 000 nested arrays', deepArray, 'refused'],
    ['20 000 nested objects', deepObject, 'refused'],
    [
      'a valid profile with an unknown field nested 20 000 deep',
      JSON.stringify({ ...PROFILE, deep: 0 }).replace('0}', `${deepObject}}`),
      'any',
    ],
    ['a 100 000-element array', JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i)), 'refused'],
    [
      'an object with 50 000 keys',
      JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]))),
      'refused',
    ],
    [
      'fields of 900 KB',
      JSON.stringify({ ...ENTRY, name: 'x'.repeat(450_000), distance: '1'.repeat(450_000) }),
      'refused',
    ],
    ['just over the 1 MiB limit', JSON.stringify({ ...PROFILE, name: 'x'.repeat(1024 * 1024) }), 'refused'],
    ['a form body with 10 000 fields', Array.from({ length: 10_000 }, (_, i) => `f${i}=${i}`).join('&'), 'refused'],
  ];
  const targets = ENDPOINTS.filter((e) => e.valid !== undefined);

  for (const [label, payload, expected] of bodies) {
    it(`${label}: ${expected === 'refused' ? 'a 4xx JSON answer' : 'no 5xx'} on every endpoint that takes a body`, async () => {
      const form = label.startsWith('a form');
      for (const endpoint of targets) {
        for (const who of ['user', 'admin'] as const) {
          const actor = world.actors[who];
          const id = endpoint.path.includes('/user/') ? actor.user.id : actor.entry.id;
          const request: InjectOptions = {
            method: endpoint.method,
            url: endpoint.path.replace('{id}', String(id)),
            headers: {
              authorization: `Bearer ${actor.token}`,
              'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
            },
            payload,
            remoteAddress: nextIp(),
          };
          if (expected === 'any') {
            await attack(t.app, endpoint, request);
            continue;
          }
          const before = await state();
          const res = await t.app.inject(request);
          expectContractAnswer(res, endpoint.method);
          expect(res.statusCode, `${endpoint.method} ${endpoint.path}: ${res.body}`).toBeGreaterThanOrEqual(400);
          expect(await state()).toBe(before);
        }
      }
    }, 60_000);
  }
});

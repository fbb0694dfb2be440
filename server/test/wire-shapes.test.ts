/**
 * The exact key sets of every response wrapper, pinned so that the original client keeps
 * working, and a check that no user JSON ever carries a password or a hash.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminDashboardSchema,
  AllEntriesEnvelopeSchema,
  AuthResponseSchema,
  DashboardSchema,
  OwnEntriesEnvelopeSchema,
  EntryEnvelopeSchema,
  ErrorSchema,
  UserEnvelopeSchema,
  UserSchema,
  UsersEnvelopeSchema,
  WeeklyReportSchema,
} from '../../core/schemas.js';
import {
  ADMIN_PASSWORD,
  call,
  createEntry,
  createTestApp,
  loginAdmin,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from './helpers.js';
import { ENTRY_KEYS, ISO_UTC, PAGED_KEYS, USER_KEYS, keysOf } from './wire-keys.js';

const PASSWORD = 'wire-shape-secret-9';

let t: TestApp;
let admin: Account;
let runner: Account;
let entryId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
  runner = await registerUser(t.app, { name: 'Wire Runner', password: PASSWORD });
  entryId = (await createEntry(t.app, runner.token, { date: '2026-03-16', distance: 10, time: '00:50:00' })).id;
});
afterAll(async () => {
  await t.close();
});

function json(res: LightMyRequestResponse, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}

function expectUser(user: unknown) {
  expect(keysOf(user)).toEqual(USER_KEYS);
  const parsed = UserSchema.strict().parse(user);
  expect(parsed.created_at).toMatch(ISO_UTC);
  expect(parsed.updated_at).toMatch(ISO_UTC);
  expect(parsed.date).toBe(parsed.created_at);
}

function expectPaged(paged: unknown) {
  expect(keysOf(paged)).toEqual(PAGED_KEYS);
}

function expectEntry(entry: unknown, withUser = false) {
  expect(keysOf(entry)).toEqual(withUser ? [...ENTRY_KEYS, 'user'].sort() : ENTRY_KEYS);
  const e = entry as Record<string, unknown>;
  for (const key of ['id', 'user_id', 'distance', 'speed', 'pace']) expect(typeof e[key]).toBe('number');
  expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(e.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
  expect(e.created_at).toMatch(ISO_UTC);
  expect(e.updated_at).toMatch(ISO_UTC);
  if (withUser) expect(keysOf(e.user)).toEqual(['id', 'name']);
}

describe('auth wrappers', () => {
  it('register: {user, access_token, token_type}', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: { name: 'Shape Reg', email: 'shape-reg@example.com', password: PASSWORD, password_confirmation: PASSWORD },
      ip: nextIp(),
    });
    const body = json(res, 201);
    expect(keysOf(body)).toEqual(['access_token', 'token_type', 'user']);
    AuthResponseSchema.strict().parse(body);
    expectUser(body.user);
  });

  it('login: {user, access_token, token_type}', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: PASSWORD },
      ip: nextIp(),
    });
    const body = json(res);
    expect(keysOf(body)).toEqual(['access_token', 'token_type', 'user']);
    expect(body.token_type).toBe('Bearer');
    expectUser(body.user);
  });

  it('logout: {message}', async () => {
    const extra = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: PASSWORD },
      ip: nextIp(),
    });
    const res = await call(t.app, 'POST', '/api/v1/auth/logout', { token: extra.json().access_token });
    expect(keysOf(json(res))).toEqual(['message']);
  });
});

describe('user wrappers', () => {
  it('GET /user/me: the bare user', async () => {
    const res = await call(t.app, 'GET', '/api/v1/user/me', { token: runner.token });
    expectUser(json(res));
  });

  it('GET /user/{id}: {user}', async () => {
    const res = await call(t.app, 'GET', `/api/v1/user/${runner.user.id}`, { token: admin.token });
    const body = json(res);
    expect(keysOf(body)).toEqual(['user']);
    UserEnvelopeSchema.strict().parse(body);
    expectUser(body.user);
  });

  it('GET /user: {users: paged}', async () => {
    const res = await call(t.app, 'GET', '/api/v1/user', { token: admin.token });
    const body = json(res);
    expect(keysOf(body)).toEqual(['users']);
    expectPaged(body.users);
    UsersEnvelopeSchema.parse(body);
    expect(body.users.data.length).toBeGreaterThan(0);
    for (const user of body.users.data) expectUser(user);
  });

  it('PUT /user/{id}: {user}, also with a new password', async () => {
    const res = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: 'Wire Runner', email: runner.user.email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    const body = json(res);
    expect(keysOf(body)).toEqual(['user']);
    expectUser(body.user);
  });

  it('DELETE /user/{id}: {message}', async () => {
    const doomed = await registerUser(t.app);
    const res = await call(t.app, 'DELETE', `/api/v1/user/${doomed.user.id}`, { token: admin.token });
    expect(keysOf(json(res))).toEqual(['message']);
  });
});

describe('entry wrappers', () => {
  it('POST /entry: {entry}', async () => {
    const res = await call(t.app, 'POST', '/api/v1/entry', {
      token: runner.token,
      body: { date: '2026-03-17', distance: 5, time: '00:25:00' },
    });
    const body = json(res, 201);
    expect(keysOf(body)).toEqual(['entry']);
    EntryEnvelopeSchema.strict().parse(body);
    expectEntry(body.entry);
  });

  it('GET /entry/{id}: {entry}', async () => {
    const body = json(await call(t.app, 'GET', `/api/v1/entry/${entryId}`, { token: runner.token }));
    expect(keysOf(body)).toEqual(['entry']);
    expectEntry(body.entry);
  });

  it('PUT /entry/{id}: {entry}', async () => {
    const body = json(
      await call(t.app, 'PUT', `/api/v1/entry/${entryId}`, {
        token: runner.token,
        body: { date: '2026-03-16', distance: 10, time: '00:50:00' },
      }),
    );
    expect(keysOf(body)).toEqual(['entry']);
    expectEntry(body.entry);
  });

  it('GET /entry: {entries: paged, summary}', async () => {
    const body = json(await call(t.app, 'GET', '/api/v1/entry', { token: runner.token }));
    expect(keysOf(body)).toEqual(['entries', 'summary']);
    expectPaged(body.entries);
    expect(keysOf(body.summary)).toEqual(['avg_pace', 'distance', 'runs', 'seconds']);
    OwnEntriesEnvelopeSchema.parse(body);
    expect(body.entries.data.length).toBeGreaterThan(0);
    for (const entry of body.entries.data) expectEntry(entry);
  });

  it('GET /entry/all: {entries: paged} of entries with user {id, name}', async () => {
    const res = await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token });
    const body = json(res);
    expect(keysOf(body)).toEqual(['entries']);
    expectPaged(body.entries);
    AllEntriesEnvelopeSchema.parse(body);
    for (const entry of body.entries.data) expectEntry(entry, true);
  });

  it('DELETE /entry/{id}: {message}', async () => {
    const doomed = await createEntry(t.app, runner.token, { date: '2026-03-01', distance: 1, time: '00:06:00' });
    expect(keysOf(json(await call(t.app, 'DELETE', `/api/v1/entry/${doomed.id}`, { token: runner.token })))).toEqual([
      'message',
    ]);
  });
});

describe('dashboards and report', () => {
  it('GET /dashboard/data', async () => {
    const body = json(await call(t.app, 'GET', '/api/v1/dashboard/data', { token: runner.token }));
    DashboardSchema.strict().parse(body);
    expect(body.week_chart.length).toBeGreaterThan(0);
    for (const row of body.week_chart) {
      expect(row).toHaveLength(3);
      expect(row[0]).toMatch(/^\d{2}\/\d{2}$/);
    }
  });

  it('GET /dashboard/admin-data, with fastest_run and longest_run carrying user {id, name}', async () => {
    const res = await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: admin.token });
    const body = json(res);
    AdminDashboardSchema.strict().parse(body);
    expectEntry(body.fastest_run, true);
    expectEntry(body.longest_run, true);
  });

  it('GET /report/weekly: {weekly: {year, min_year, max_year, data, chart}}', async () => {
    const body = json(
      await call(t.app, 'GET', '/api/v1/report/weekly', { token: runner.token, query: { year: 2026 } }),
    );
    expect(keysOf(body)).toEqual(['weekly']);
    expect(keysOf(body.weekly)).toEqual(['chart', 'data', 'max_year', 'min_year', 'year']);
    WeeklyReportSchema.parse(body);
    expect(body.weekly.data.length).toBeGreaterThan(0);
    for (const row of body.weekly.data) {
      expect(keysOf(row)).toEqual([
        'avg_distance',
        'avg_speed',
        'count',
        'total_distance',
        'total_time',
        'week',
        'week_end',
        'week_start',
      ]);
    }
    for (const row of body.weekly.chart) expect(row).toHaveLength(3);
  });
});

describe('error bodies', () => {
  it.each([
    ['401', () => call(t.app, 'GET', '/api/v1/user/me'), 401, ['message']],
    ['403', () => call(t.app, 'GET', '/api/v1/user', { token: runner.token }), 403, ['message']],
    ['404', () => call(t.app, 'GET', '/api/v1/entry/999999', { token: runner.token }), 404, ['message']],
    ['422', () => call(t.app, 'POST', '/api/v1/entry', { token: runner.token, body: {} }), 422, ['errors', 'message']],
  ] as const)('%s is {message%s}', async (_label, request, status, keys) => {
    const body = json(await request(), status);
    expect(keysOf(body)).toEqual(keys);
    ErrorSchema.strict().parse(body);
  });
});

describe('no secrets in user JSON', () => {
  it('never shows a password or a hash in any response that carries a user', async () => {
    const secret = 'no-secret-shown-7';
    const reg = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        name: 'Secret Keeper',
        email: 'secret-keeper@example.com',
        password: secret,
        password_confirmation: secret,
      },
      ip: nextIp(),
    });
    const { access_token: token, user } = reg.json();
    await createEntry(t.app, token, { date: '2026-03-18', distance: 49, time: '01:00:00' }); // fastest and longest
    const responses = [
      reg,
      await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: secret }, ip: nextIp() }),
      await call(t.app, 'GET', '/api/v1/user/me', { token }),
      await call(t.app, 'GET', `/api/v1/user/${user.id}`, { token: admin.token }),
      await call(t.app, 'GET', '/api/v1/user', { token: admin.token, query: { per_page: 100 } }),
      await call(t.app, 'PUT', `/api/v1/user/${user.id}`, {
        token,
        body: { name: 'Secret Keeper', email: user.email, password: secret, password_confirmation: secret },
      }),
      await call(t.app, 'POST', `/api/v1/user/${user.id}`, {
        token,
        form: { _method: 'PUT', name: 'Secret Keeper', email: user.email },
      }),
      await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token }),
      await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: admin.token }),
    ];
    for (const res of responses) {
      expect(res.statusCode, res.body).toBeLessThan(300);
      expect(res.body).toContain('Secret Keeper');
      expect(res.body).not.toMatch(/password|hash|salt|argon|scrypt|\$2[aby]\$/i);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain(ADMIN_PASSWORD);
    }
  });
});

/**
 * The answer cache never serves an answer a write has changed (decision 034). Three apps share one
 * database: `t.app` writes, `reader` keeps answers, `cold` has no cache. For every write route of the
 * route table (walked as the app is built: a write route added later fails here until it has a
 * case), the reader first keeps every cached route's answers; then the write goes through the first
 * app, and the reader's next answer of every cached route (also walked: each needs its requests
 * below) must equal the cold app's. The same after the clock moves on, without a write.
 * SQLite (a file shared by the three apps), and PostgreSQL when TEST_DATABASE_URL is set.
 */
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { RoutesMatcher } from '../../features/routes/routes.service.js';
import { gpxFile, importFiles, meridianPoints } from '../imports/fixtures.js';
import { totp } from '../two-factor/totp.js';
import {
  call,
  createEntry,
  createShoe,
  createTestApp,
  login,
  loginAdmin,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';

const writeRoutes = new Set<string>();
const cachedRoutes = new Set<string>();
function observe(route: RouteOptions): void {
  if (!route.url.startsWith('/api/')) return;
  for (const method of [route.method].flat()) {
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) writeRoutes.add(`${method} ${route.url}`);
    if (method === 'GET' && route.config?.cache) cachedRoutes.add(route.url);
  }
}

let t: TestApp;
let reader: FastifyInstance;
let cold: FastifyInstance;
let admin: Account;
let runner: Account;
let donor: Account;
let tracked: number;

beforeAll(async () => {
  // 22:30 UTC: already tomorrow in a zone of UTC+14, where the runner moves in one case.
  t = await createTestApp({}, { now: '2026-03-18T22:30:00Z', sqliteFile: true, build: { onRoute: observe } });
  reader = await buildApp(t.config);
  cold = await buildApp(t.config, { answerCache: null });
  await Promise.all([reader.ready(), cold.ready()]);
  admin = await loginAdmin(t.app);
  runner = await registerUser(t.app, { timezone: 'UTC' });
  const shoe = await createShoe(t.app, runner.token, { name: 'Daily' });
  for (const [date, distance, time] of [
    ['2025-06-01', 5, '00:24:00'],
    ['2026-03-10', 10.1, '00:50:00'],
    ['2026-03-16', 21.2, '01:45:00'],
    ['2026-03-18', 5.2, '00:26:00'],
  ] as const) {
    await createEntry(t.app, runner.token, { date, distance, time, effort: 6, shoe_id: shoe });
  }
  const gpx = gpxFile({ start: new Date('2026-03-17T07:00:00Z'), segments: [meridianPoints(120, 0.0004, 10)] });
  const imported = await importFiles(t.app, runner.token, [{ name: 'run.gpx', content: gpx }]);
  expect(imported.statusCode, imported.body).toBe(201);
  const listed = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token, query: { dateFrom: '2026-03-17' } });
  tracked = (listed.json().entries.data as { id: number; has_track: boolean }[]).find((e) => e.has_track)!.id;
  await call(t.app, 'POST', '/api/v1/goals', {
    token: runner.token,
    body: { period: 'week', metric: 'distance', target: 30 },
  });
  donor = await registerUser(t.app);
  await createEntry(t.app, donor.token, { date: '2026-02-01', distance: 42.2, time: '03:30:00', title: 'Marathon' });
  await createShoe(t.app, donor.token, { name: 'Racer' });
  await call(t.app, 'POST', '/api/v1/goals', {
    token: donor.token,
    body: { period: 'year', metric: 'runs', target: 100 },
  });
});
afterAll(async () => {
  await cold?.close();
  await reader?.close();
  await t?.close();
});

/** The segment last made, and the runner's route (their pages are kept answers). */
let segmentId = 0;
let routeId = 0;

/** The requests of each cached route (a cached route without any fails the test). */
const READS: Record<string, () => string[]> = {
  '/api/v1/entry': () =>
    ['', '?per_page=2&page=2', '?sort=-distance&dateFrom=2026-01-01'].map((q) => `/api/v1/entry${q}`),
  '/api/v1/entry/:id/track': () => [`/api/v1/entry/${tracked}/track`],
  '/api/v1/dashboard/data': () => ['/api/v1/dashboard/data'],
  '/api/v1/report/weekly': () => ['/api/v1/report/weekly', '/api/v1/report/weekly?year=2025'],
  '/api/v1/goals': () => ['/api/v1/goals'],
  '/api/v1/insights/records': () => ['/api/v1/insights/records'],
  '/api/v1/insights/predictions': () => ['/api/v1/insights/predictions'],
  '/api/v1/insights/load': () => ['/api/v1/insights/load', '/api/v1/insights/load?date=2026-03-01'],
  '/api/v1/insights/streaks': () => ['/api/v1/insights/streaks'],
  '/api/v1/insights/calendar': () => ['/api/v1/insights/calendar', '/api/v1/insights/calendar?year=2025'],
  '/api/v1/insights/year': () => ['/api/v1/insights/year', '/api/v1/insights/year?year=2025'],
  '/api/v1/insights/routes': () => ['/api/v1/insights/routes', '/api/v1/insights/routes?year=2026'],
  '/api/v1/routes': () => ['/api/v1/routes'],
  '/api/v1/routes/:id': () => [`/api/v1/routes/${routeId}`],
  '/api/v1/segments': () => ['/api/v1/segments'],
  '/api/v1/segments/:id': () => [`/api/v1/segments/${segmentId}`],
};

const reads = () => [...cachedRoutes].flatMap((route) => READS[route]?.() ?? []);

async function answer(app: FastifyInstance, who: Account, url: string): Promise<[number, string]> {
  const res = await call(app, 'GET', url, { token: who.token });
  return [res.statusCode, res.body];
}

/** The reader keeps every answer of `who` (each asked again is a hit). */
async function keepAll(who: Account): Promise<void> {
  for (const url of reads()) await answer(reader, who, url);
  const hits = reader.answerCache!.hits;
  let kept = 0;
  for (const url of reads()) if ((await answer(reader, who, url))[0] === 200) kept += 1;
  expect(reader.answerCache!.hits - hits).toBe(kept);
}

async function expectFresh(who: Account, what: string): Promise<void> {
  for (const url of reads()) {
    expect(await answer(reader, who, url), `${url} after ${what}`).toEqual(await answer(cold, who, url));
  }
}

const ok = async (res: Promise<LightMyRequestResponse>, status = 200) => {
  const done = await res;
  expect(done.statusCode, done.body).toBe(status);
  return done;
};
const as = (who: Account) => ({ token: who.token });
const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: Record<string, unknown>, who = runner) =>
  ok(call(t.app, method, `/api/v1/${url}`, { token: who.token, ...(body ? { body } : {}) }));
const run = async (date = '2026-03-17') =>
  (await createEntry(t.app, runner.token, { date, distance: 7.5, time: '00:40:00' })).id;
const shoe = (name: string) => createShoe(t.app, runner.token, { name });
const webhook = async () =>
  (
    await ok(
      call(t.app, 'POST', '/api/v1/webhooks', { ...as(runner), body: { url: 'https://hooks.example.org/' } }),
      201,
    )
  ).json<{
    webhook: { id: number };
  }>().webhook.id;
const goal = async () =>
  (
    await ok(
      call(t.app, 'POST', '/api/v1/goals', { ...as(runner), body: { period: 'month', metric: 'time', target: 3600 } }),
      201,
    )
  ).json().goal.id as number;
const token = async () =>
  (
    await ok(call(t.app, 'POST', '/api/v1/tokens', { ...as(runner), body: { name: 'Watch', scope: 'read' } }), 201)
  ).json().token.id as number;
/** Routes and segments are matched off the request path: a write's answers are read once matching is done. */
const matched = () => (t.app.appContext.memory.runs as RoutesMatcher).idle();
const segment = async () => {
  const made = await ok(
    call(t.app, 'POST', '/api/v1/segments', {
      ...as(runner),
      body: { entry_id: tracked, start_m: 100, end_m: 1100, name: 'Hill' },
    }),
    201,
  );
  await matched();
  segmentId = made.json().segment.id as number;
  return segmentId;
};
/** Two runs the same way (away from the others): a route of the runner. */
const route = async () => {
  if (routeId === 0) {
    for (const day of ['2026-03-05', '2026-03-06']) {
      const gpx = gpxFile({ start: new Date(`${day}T07:00:00Z`), segments: [meridianPoints(60, 0.0004, 10, 2.5)] });
      await ok(importFiles(t.app, runner.token, [{ name: `${day}.gpx`, content: gpx }]), 201);
    }
    await matched();
    routeId = (await ok(call(t.app, 'GET', '/api/v1/routes', as(runner)))).json().routes[0].id as number;
  }
  return routeId;
};
const profile = (body: Record<string, unknown>) => ({ name: runner.user.name, email: runner.user.email, ...body });

/** What a write acts on, made before the reader keeps its answers: whose answers, and the id in the URL. */
interface Target {
  who: Account;
  id: number;
}

interface Case {
  prepare?: () => Promise<Target>;
  write: (target: Target) => Promise<unknown>;
}

const mine = async (id: Promise<number> | number): Promise<Target> => ({ who: runner, id: await id });

/** A write of §21's mailed links: without mail here, most answer a 4xx and change nothing a kept answer shows. */
const account = (url: string, body: Record<string, unknown>, status: number, who?: Account) =>
  ok(call(t.app, 'POST', `/api/v1/${url}`, { ...(who ? as(who) : {}), body, ip: nextIp() }), status);
const guessed = 'A'.repeat(43);

/** A runner of their own who started turning on two-factor sign-in (§21): the secret to confirm with. */
async function twoFactorStarted(): Promise<Target & { secret: string }> {
  const who = await registerUser(t.app);
  const begun = await send('POST', 'user/me/two-factor', {}, who);
  return { who, id: who.user.id, secret: begun.json().secret as string };
}

const confirmTwoFactor = async (target: Target) => {
  const { who, secret } = target as Target & { secret: string };
  const code = totp(secret, Math.floor(t.clock.now().getTime() / 1000));
  return (await send('POST', 'user/me/two-factor/confirm', { code }, who)).json().recovery_codes as string[];
};

/** A runner of their own with two-factor sign-in on, and a recovery code of theirs. */
async function twoFactorRunner(): Promise<Target & { recoveryCode: string }> {
  const started = await twoFactorStarted();
  return { ...started, recoveryCode: (await confirmTwoFactor(started))[0]! };
}

const CASES: Record<string, Case> = {
  'POST /api/v1/auth/forgot': { write: () => account('auth/forgot', { email: runner.user.email }, 409) },
  'POST /api/v1/auth/reset': {
    write: () =>
      account(
        'auth/reset',
        { token: guessed, password: 'new-password-1', password_confirmation: 'new-password-1' },
        422,
      ),
  },
  'POST /api/v1/auth/verify': { write: () => account('auth/verify', { token: guessed }, 422) },
  'POST /api/v1/auth/verify/resend': { write: () => account('auth/verify/resend', { email: runner.user.email }, 202) },
  'POST /api/v1/auth/accept-invitation': {
    write: () =>
      account(
        'auth/accept-invitation',
        { token: guessed, name: 'Invitee', password: 'new-password-1', password_confirmation: 'new-password-1' },
        422,
      ),
  },
  'POST /api/v1/auth/confirm-email': { write: () => account('auth/confirm-email', { token: guessed }, 422) },
  // Single sign-on is off in this app: the exchange is a 404 and writes nothing (server/test/oidc signs in).
  'POST /api/v1/auth/oidc/exchange': { write: () => account('auth/oidc/exchange', { code: guessed }, 404) },
  'POST /api/v1/invitations': { write: () => account('invitations', { email: 'invitee@example.com' }, 409, admin) },
  'POST /api/v1/user/:id/approve': { write: () => account(`user/${runner.user.id}/approve`, {}, 200, admin) },
  'POST /api/v1/auth/register': { write: () => registerUser(t.app) },
  'POST /api/v1/auth/login': { write: () => login(t.app, runner.user.email, runner.password) },
  'POST /api/v1/auth/logout': {
    write: async () => send('POST', 'auth/logout', {}, await login(t.app, runner.user.email, runner.password)),
  },
  'PUT /api/v1/user/:id': { write: () => send('PUT', `user/${runner.user.id}`, profile({ max_heart_rate: 181 })) },
  'PATCH /api/v1/user/:id': {
    write: () => send('PATCH', `user/${runner.user.id}`, profile({ timezone: 'Pacific/Kiritimati' })),
  },
  'POST /api/v1/user/:id': {
    write: () => send('POST', `user/${runner.user.id}`, profile({ _method: 'PUT', max_heart_rate: null })),
  },
  'DELETE /api/v1/user/:id': {
    prepare: async () => {
      const leaving = await registerUser(t.app);
      await createEntry(t.app, leaving.token, { date: '2026-03-01', distance: 5, time: '00:25:00' });
      return { who: leaving, id: leaving.user.id };
    },
    write: ({ id }) => send('DELETE', `user/${id}`, undefined, admin),
  },
  'POST /api/v1/entry': { write: () => run() },
  'PUT /api/v1/entry/:id': {
    prepare: () => mine(run()),
    write: ({ id }) => send('PUT', `entry/${id}`, { date: '2026-03-15', distance: 30, time: '02:30:00' }),
  },
  'PATCH /api/v1/entry/:id': {
    prepare: () => mine(tracked),
    write: ({ id }) =>
      send('PATCH', `entry/${id}`, { date: '2026-03-17', distance: 9, time: '00:45:00', title: 'Hills' }),
  },
  'POST /api/v1/entry/:id': {
    prepare: () => mine(run('2026-03-14')),
    write: ({ id }) => send('POST', `entry/${id}`, { _method: 'DELETE' }),
  },
  'DELETE /api/v1/entry/:id': {
    prepare: () => mine(run('2026-03-13')),
    write: ({ id }) => send('DELETE', `entry/${id}`),
  },
  'POST /api/v1/shoes': { write: () => shoe('Spikes') },
  'PUT /api/v1/shoes/:id': {
    prepare: () => mine(shoe('Old')),
    write: ({ id }) => send('PUT', `shoes/${id}`, { name: 'Older' }),
  },
  'PATCH /api/v1/shoes/:id': {
    prepare: () => mine(shoe('Worn')),
    write: ({ id }) => send('PATCH', `shoes/${id}`, { retired: true }),
  },
  'POST /api/v1/shoes/:id': {
    prepare: () => mine(shoe('Gone')),
    write: ({ id }) => send('POST', `shoes/${id}`, { _method: 'DELETE' }),
  },
  // The shoe of a run: deleting it clears the run's shoe_id.
  'DELETE /api/v1/shoes/:id': {
    prepare: async () => {
      const id = await shoe('Shared');
      await createEntry(t.app, runner.token, { date: '2026-03-12', distance: 6, time: '00:33:00', shoe_id: id });
      return mine(id);
    },
    write: ({ id }) => send('DELETE', `shoes/${id}`),
  },
  'POST /api/v1/goals': { write: () => goal() },
  'PUT /api/v1/goals/:id': {
    prepare: () => mine(goal()),
    write: ({ id }) => send('PUT', `goals/${id}`, { target: 7200 }),
  },
  'PATCH /api/v1/goals/:id': {
    prepare: () => mine(goal()),
    write: ({ id }) => send('PATCH', `goals/${id}`, { period: 'week' }),
  },
  'POST /api/v1/goals/:id': {
    prepare: () => mine(goal()),
    write: ({ id }) => send('POST', `goals/${id}`, { _method: 'DELETE' }),
  },
  'DELETE /api/v1/goals/:id': { prepare: () => mine(goal()), write: ({ id }) => send('DELETE', `goals/${id}`) },
  'POST /api/v1/tokens': { write: () => token() },
  'DELETE /api/v1/tokens/:id': { prepare: () => mine(token()), write: ({ id }) => send('DELETE', `tokens/${id}`) },
  'POST /api/v1/tokens/:id': {
    prepare: () => mine(token()),
    write: ({ id }) => send('POST', `tokens/${id}`, { _method: 'DELETE' }),
  },
  // Segments and routes (§22): the run page shows a run's route and segment efforts once matched.
  'POST /api/v1/segments': { write: () => segment() },
  'PUT /api/v1/segments/:id': {
    prepare: () => mine(segment()),
    write: ({ id }) => send('PUT', `segments/${id}`, { name: 'Bridge' }),
  },
  'PATCH /api/v1/segments/:id': {
    prepare: () => mine(segment()),
    write: ({ id }) => send('PATCH', `segments/${id}`, { name: 'Tunnel' }),
  },
  'POST /api/v1/segments/:id': {
    prepare: () => mine(segment()),
    write: ({ id }) => send('POST', `segments/${id}`, { _method: 'DELETE' }),
  },
  'DELETE /api/v1/segments/:id': {
    prepare: () => mine(segment()),
    write: ({ id }) => send('DELETE', `segments/${id}`),
  },
  'PUT /api/v1/routes/:id': {
    prepare: () => mine(route()),
    write: ({ id }) => send('PUT', `routes/${id}`, { name: 'Canal' }),
  },
  'POST /api/v1/routes/:id': {
    prepare: () => mine(route()),
    write: ({ id }) => send('POST', `routes/${id}`, { _method: 'PUT', name: 'Dyke' }),
  },
  // The calendar feed's key: no kept answer shows it (the feed itself is not a kept answer).
  'POST /api/v1/calendar-feed': { write: async () => void (await send('POST', 'calendar-feed')) },
  'DELETE /api/v1/calendar-feed': { write: async () => void (await send('DELETE', 'calendar-feed')) },
  // Two-factor sign-in (§21): no kept answer shows it.
  'POST /api/v1/user/me/two-factor': { write: () => send('POST', 'user/me/two-factor') },
  'POST /api/v1/user/me/two-factor/confirm': { prepare: twoFactorStarted, write: confirmTwoFactor },
  'DELETE /api/v1/user/me/two-factor': {
    prepare: twoFactorRunner,
    write: ({ who }) => send('DELETE', 'user/me/two-factor', { password: who.password }, who),
  },
  'DELETE /api/v1/user/:id/two-factor': {
    prepare: twoFactorRunner,
    write: ({ id }) => send('DELETE', `user/${id}/two-factor`, undefined, admin),
  },
  'POST /api/v1/user/:id/two-factor': {
    prepare: twoFactorRunner,
    write: ({ id }) => send('POST', `user/${id}/two-factor`, { _method: 'DELETE' }, admin),
  },
  'POST /api/v1/auth/two-factor': {
    prepare: twoFactorRunner,
    write: async (target) => {
      const { who, recoveryCode } = target as Target & { recoveryCode: string };
      const body = { email: who.user.email, password: who.password };
      const challenge = (await ok(call(t.app, 'POST', '/api/v1/auth/login', { body }))).json().challenge as string;
      return ok(call(t.app, 'POST', '/api/v1/auth/two-factor', { body: { challenge, code: recoveryCode } }));
    },
  },
  // Webhooks: no kept answer shows them (their list is read afresh).
  'POST /api/v1/webhooks': { write: () => webhook() },
  'DELETE /api/v1/webhooks/:id': {
    prepare: () => mine(webhook()),
    write: ({ id }) => send('DELETE', `webhooks/${id}`),
  },
  'POST /api/v1/webhooks/:id': {
    prepare: () => mine(webhook()),
    write: ({ id }) => send('POST', `webhooks/${id}`, { _method: 'DELETE' }),
  },
  // The inbox folder's key (off here: POST is a 409): no kept answer shows it.
  'POST /api/v1/inbox': { write: async () => void (await call(t.app, 'POST', '/api/v1/inbox', as(runner))) },
  'DELETE /api/v1/inbox': { write: async () => void (await send('DELETE', 'inbox')) },
  // Another runner's export imported: its runs and shoe, then its goals alone.
  'POST /api/v1/import': {
    write: async () => {
      const exported = await ok(call(t.app, 'GET', '/api/v1/export', { ...as(donor), query: { format: 'json' } }));
      const content = (part: Record<string, unknown>) => JSON.stringify({ ...exported.json(), ...part });
      const runs = [{ name: 'runs.json', content: content({ goals: [] }) }];
      await ok(importFiles(t.app, runner.token, runs), 201);
      await expectFresh(runner, 'an import of runs');
      await keepAll(runner);
      const goals = [{ name: 'goals.json', content: content({ entries: [], shoes: [] }) }];
      return ok(importFiles(t.app, runner.token, goals), 201);
    },
  },
};

describe('the answer cache after every write route', () => {
  it('walks the route table: every write route has a case, every cached route its requests', () => {
    expect(writeRoutes.size).toBeGreaterThan(20);
    expect([...writeRoutes].filter((route) => !CASES[route])).toEqual([]);
    expect([...cachedRoutes].filter((route) => !READS[route])).toEqual([]);
    expect(Object.keys(CASES).filter((route) => !writeRoutes.has(route))).toEqual([]);
  });

  it('answers after each write as an app without a cache does, in another app on the database', async () => {
    for (const route of [...writeRoutes].sort()) {
      const { prepare, write } = CASES[route]!;
      const target = prepare ? await prepare() : { who: runner, id: 0 };
      await keepAll(target.who);
      await write(target);
      await matched();
      await expectFresh(target.who, route);
    }
    // One case for each of the app's write routes, each reading every kept answer three times: it grows with them.
  }, 90_000);

  it('follows the clock: a new day, then a new year, without any write', async () => {
    await keepAll(runner);
    t.clock.advance({ days: 1 });
    await expectFresh(runner, 'a day');
    await keepAll(runner);
    t.clock.set('2027-01-04T12:00:00Z');
    await expectFresh(runner, 'the new year');
  });
});

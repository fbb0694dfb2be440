/**
 * Invariants when requests race, on SQLite and on PostgreSQL (TEST_DATABASE_URL): the last
 * admin survives two admins demoting or deleting each other, counters and buckets stay exact
 * while a runner's writes race their deletion (and those writes get 401, never 500), one
 * e-mail registered many times at once makes exactly one account, and editing a run while it
 * is deleted leaves one consistent answer. Each race is tried several times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainedTotals, recountedTotals } from '../../../scripts/seed/consistency.js';
import {
  call,
  createEntry,
  createTestApp,
  DEFAULT_PASSWORD,
  loginAdmin,
  makeAdmin,
  nextIp,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { inTransaction, TRANSACTION_ATTEMPTS } from '../../context.js';
import { together } from '../race.js';

const TRIALS = 8;

let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

async function expectTalliesExact() {
  const db = t.app.appContext.db;
  expect(await maintainedTotals(db)).toEqual(await recountedTotals(db));
}

async function adminCount(): Promise<number> {
  const row = await t.app.appContext.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Two fresh admins, the only admins there are (the first admin is demoted by one of them). */
async function twoLoneAdmins(trial: number): Promise<[Account, Account]> {
  const a = await registerUser(t.app, { name: 'A', email: `race-a${trial}-${Date.now()}@example.com` });
  const b = await registerUser(t.app, { name: 'B', email: `race-b${trial}-${Date.now()}@example.com` });
  await makeAdmin(t.app, a.user, admin.token);
  await makeAdmin(t.app, b.user, admin.token);
  const others = await t.app.appContext.db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('role', '=', 'admin')
    .where('id', 'not in', [a.user.id, b.user.id])
    .execute();
  for (const other of others) {
    const res = await call(t.app, 'PUT', `/api/v1/user/${other.id}`, {
      token: a.token,
      body: { name: other.name, email: other.email, role: 'user' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  expect(await adminCount()).toBe(2);
  return [a, b];
}

async function restoreFirstAdmin(keeper: Account) {
  const first = await t.app.appContext.db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('email', '=', 'admin@example.com')
    .executeTakeFirstOrThrow();
  await call(t.app, 'PUT', `/api/v1/user/${first.id}`, {
    token: keeper.token,
    body: { name: first.name, email: first.email, role: 'admin' },
  });
  admin = await loginAdmin(t.app);
}

describe('the last admin, when two admins race', () => {
  it('survives two admins demoting each other at the same moment', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const [a, b] = await twoLoneAdmins(trial);
      const demote = (actor: Account, target: Account) =>
        call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
          token: actor.token,
          body: { name: target.user.name, email: target.user.email, role: 'user' },
        });
      const [ab, ba] = await together([() => demote(a, b), () => demote(b, a)]);
      const codes = [ab!.statusCode, ba!.statusCode].sort();
      expect(codes, `${ab!.body} ${ba!.body}`).toEqual([200, 403]);
      expect(await adminCount()).toBe(1);
      await restoreFirstAdmin(ab!.statusCode === 200 ? a : b);
    }
  });

  it('survives two admins deleting each other at the same moment', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const [a, b] = await twoLoneAdmins(100 + trial);
      const remove = (actor: Account, target: Account) =>
        call(t.app, 'DELETE', `/api/v1/user/${target.user.id}`, { token: actor.token });
      const [ab, ba] = await together([() => remove(a, b), () => remove(b, a)]);
      const codes = [ab!.statusCode, ba!.statusCode];
      // One deletion wins; the other is refused (403, the last admin) or finds its actor gone (401).
      expect(
        codes.filter((c) => c === 200),
        `${ab!.body} ${ba!.body}`,
      ).toHaveLength(1);
      expect(codes.every((c) => [200, 401, 403].includes(c))).toBe(true);
      expect(await adminCount()).toBe(1);
      await restoreFirstAdmin(ab!.statusCode === 200 ? a : b);
    }
    await expectTalliesExact();
  });
});

describe('writes while their runner is deleted', () => {
  it('answer 201 or 401 (never 500), and every counter and bucket stays exact', async () => {
    for (let trial = 0; trial < TRIALS / 2; trial++) {
      const runner = await registerUser(t.app, { email: `doomed${trial}-${Date.now()}@example.com` });
      for (let i = 0; i < 3; i++) {
        await createEntry(t.app, runner.token, { date: '2026-03-01', distance: 5, time: '00:25:00' });
      }
      const write = (i: number) => () =>
        call(t.app, 'POST', '/api/v1/entry', {
          token: runner.token,
          body: {
            date: `2026-03-${String(2 + (i % 9)).padStart(2, '0')}`,
            distance: 3 + i,
            time: '00:30:00',
            effort: 5,
          },
        });
      const writers = Array.from({ length: 12 }, (_, i) => write(i));
      const results = await together([
        ...writers.slice(0, 6),
        () => call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token }),
        ...writers.slice(6),
      ]);
      const deletion = results[6]!;
      expect(deletion.statusCode, deletion.body).toBe(200);
      for (const res of results.filter((r) => r !== deletion)) {
        expect([201, 401], res.body).toContain(res.statusCode);
      }
      await expectTalliesExact();
      const all = await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token, query: { per_page: 100 } });
      const rows = await t.app.appContext.db
        .selectFrom('entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(all.json().entries.total).toBe(Number(rows.n));
    }
  });
});

describe('shoes and goals written while their runner is deleted', () => {
  it('answer 201, 401 or 409, never 500, and leave nothing of the runner behind', async () => {
    for (let trial = 0; trial < TRIALS / 2; trial++) {
      const runner = await registerUser(t.app, { email: `gear${trial}-${Date.now()}@example.com` });
      const shoe = (i: number) => () =>
        call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body: { name: `Pair ${i}` } });
      const goal = (i: number) => () =>
        call(t.app, 'POST', '/api/v1/goals', {
          token: runner.token,
          body: { period: 'week', metric: 'runs', target: i + 1 },
        });
      const results = await together([
        shoe(0),
        goal(0),
        shoe(1),
        () => call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token }),
        goal(1),
        shoe(2),
        goal(2),
      ]);
      expect(results[3]!.statusCode, results[3]!.body).toBe(200);
      for (const res of results.filter((_, i) => i !== 3)) {
        expect([201, 401, 409], res.body).toContain(res.statusCode);
      }
      const db = t.app.appContext.db;
      expect(await db.selectFrom('shoes').select('id').where('user_id', '=', runner.user.id).execute()).toEqual([]);
      expect(await db.selectFrom('goals').select('id').where('user_id', '=', runner.user.id).execute()).toEqual([]);
    }
  });
});

describe('one e-mail registered many times at once', () => {
  it('makes exactly one account; the others hear the e-mail is taken', async () => {
    for (let trial = 0; trial < TRIALS / 2; trial++) {
      const email = `twin${trial}-${Date.now()}@example.com`;
      const register = () =>
        call(t.app, 'POST', '/api/v1/auth/register', {
          ip: nextIp(),
          body: { name: 'Twin', email, password: DEFAULT_PASSWORD, password_confirmation: DEFAULT_PASSWORD },
        });
      const results = await together(Array.from({ length: 6 }, () => register));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
      for (const res of results.filter((r) => r.statusCode !== 201)) {
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors.email).toEqual(['The email has already been taken.']);
      }
      const rows = await t.app.appContext.db.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(rows).toHaveLength(1);
    }
    await expectTalliesExact();
  });
});

describe('accounts created and deleted on one day at once', () => {
  it("count each on its day: the users list's total and every page stay exact", async () => {
    for (let trial = 0; trial < TRIALS / 2; trial++) {
      const doomed = await Promise.all(
        [0, 1, 2].map((i) => registerUser(t.app, { email: `gone${trial}-${i}-${Date.now()}@example.com` })),
      );
      const results = await together([
        ...[0, 1, 2, 3].map(
          (i) => () =>
            call(t.app, 'POST', '/api/v1/auth/register', {
              ip: nextIp(),
              body: {
                name: 'New',
                email: `new${trial}-${i}-${Date.now()}@example.com`,
                password: DEFAULT_PASSWORD,
                password_confirmation: DEFAULT_PASSWORD,
              },
            }),
        ),
        ...doomed.map(
          (runner) => () => call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token }),
        ),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 200, 200, 200]);
      await expectTalliesExact();
    }
    const ids = (
      await t.app.appContext.db
        .selectFrom('users')
        .select('id')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => Number(r.id));
    for (let page = 1; (page - 1) * 5 <= ids.length; page++) {
      const res = await call(t.app, 'GET', '/api/v1/user', { token: admin.token, query: { per_page: 5, page } });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.users.total).toBe(ids.length);
      expect(body.users.data.map((u: { id: number }) => u.id)).toEqual(ids.slice((page - 1) * 5, page * 5));
    }
  });
});

describe('editing a run while it is deleted', () => {
  it('either edits then deletes, or deletes and the edit finds nothing; nothing else', async () => {
    const runner = await registerUser(t.app, { email: `editor-${Date.now()}@example.com` });
    for (let trial = 0; trial < TRIALS; trial++) {
      const entry = await createEntry(t.app, runner.token, { date: '2026-03-01', distance: 5, time: '00:25:00' });
      const [edit, remove] = await together([
        () =>
          call(t.app, 'PUT', `/api/v1/entry/${entry.id}`, {
            token: runner.token,
            body: { date: '2026-03-02', distance: 8, time: '00:40:00' },
          }),
        () => call(t.app, 'DELETE', `/api/v1/entry/${entry.id}`, { token: runner.token }),
      ]);
      expect(remove!.statusCode, remove!.body).toBe(200);
      expect([200, 404], edit!.body).toContain(edit!.statusCode);
      const gone = await call(t.app, 'GET', `/api/v1/entry/${entry.id}`, { token: runner.token });
      expect(gone.statusCode).toBe(404);
    }
    await expectTalliesExact();
  });
});

describe('runners moving runs across the same days in opposite directions', () => {
  // An app of its own with a connection per racing request and a patient query timeout: what
  // is measured is the deadlocks, not waits for a connection or a lock on a busy CI machine
  // (each of which ends in a 503 after 5 s by design).
  let own: TestApp;
  let ownAdmin: Account;
  beforeAll(async () => {
    own = await createTestApp({ dbPoolSize: 12, dbQueryTimeoutMs: 60_000 });
    ownAdmin = await loginAdmin(own.app);
  });
  afterAll(async () => {
    await own.close();
  });

  it('never answer 5xx, and the tallies stay exact', async () => {
    const days = ['2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14'];
    for (let trial = 0; trial < TRIALS / 4; trial++) {
      const movers = await Promise.all(
        [0, 1].map((i) => registerUser(own.app, { email: `mover${trial}-${i}-${Date.now()}@example.com` })),
      );
      const doomed = await registerUser(own.app, { email: `leaver${trial}-${Date.now()}@example.com` });
      const runs: { token: string; id: number; date: string }[] = [];
      for (const [i, runner] of movers.entries()) {
        for (const date of days) {
          const entry = await createEntry(own.app, runner.token, { date, distance: 5 + i, time: '00:30:00' });
          runs.push({ token: runner.token, id: entry.id, date });
        }
      }
      for (const date of days) await createEntry(own.app, doomed.token, { date, distance: 7, time: '00:35:00' });
      // Every run moves to the day "opposite" its own: each pair of days is crossed both ways.
      const moves = runs.map(
        (run) => () =>
          call(own.app, 'PUT', `/api/v1/entry/${run.id}`, {
            token: run.token,
            body: { date: days[days.length - 1 - days.indexOf(run.date)], distance: 6, time: '00:31:00' },
          }),
      );
      const results = await together([
        ...moves.slice(0, 4),
        () => call(own.app, 'DELETE', `/api/v1/user/${doomed.user.id}`, { token: ownAdmin.token }),
        ...moves.slice(4),
      ]);
      for (const res of results) expect(res.statusCode, res.body).toBe(200);
      const db = own.app.appContext.db;
      expect(await maintainedTotals(db)).toEqual(await recountedTotals(db));
    }
    // On PostgreSQL the writers take their turns on the tallies (reliability/tally-locks.test.ts counts no deadlock).
  }, 120_000);
});

describe('a transaction the database ends to break a deadlock', () => {
  const conflict = (code: string) => Object.assign(new Error('deadlock detected'), { code });

  it('runs again from scratch until it commits, and gives up after TRANSACTION_ATTEMPTS', async () => {
    const ctx = t.app.appContext;
    let calls = 0;
    const answer = await inTransaction(ctx, async () => {
      calls += 1;
      if (calls < 3) throw conflict(calls === 1 ? '40P01' : '40001');
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(calls).toBe(3);

    calls = 0;
    await expect(
      inTransaction(ctx, async () => {
        calls += 1;
        throw conflict('40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(calls).toBe(TRANSACTION_ATTEMPTS);
  });

  it('is not run again for any other error', async () => {
    let calls = 0;
    await expect(
      inTransaction(t.app.appContext, async () => {
        calls += 1;
        throw Object.assign(new Error('duplicate key'), { code: '23505' });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(calls).toBe(1);
  });
});

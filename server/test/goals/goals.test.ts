/**
 * Goals (CONTRACT.md §11): calendar periods in the runner's zone, progress from the runs,
 * what remains and is needed per day, the 12 earlier periods, own only, at most 20 (also
 * under races), and partial updates checked against the metric they end up with.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoalEnvelopeSchema, GoalsEnvelopeSchema, MAX_GOALS, periodsBack, type Goal } from '../../../core/goals.js';
import { addDays, round2 } from '../../../core/time.js';
import {
  NOT_FOUND,
  call,
  createEntry,
  createTestApp,
  expectError,
  expectValidation,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { keysOf } from '../wire-keys.js';

const GOAL_KEYS = [
  'achieved',
  'history',
  'id',
  'metric',
  'per_day_needed',
  'period',
  'period_end',
  'period_start',
  'progress',
  'remaining',
  'target',
];

// The clock stands at 2026-03-18T12:00:00Z, a Wednesday (ISO week 2026-03-16 .. 2026-03-22).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function addGoal(runner: Account, body: Record<string, unknown>): Promise<Goal> {
  const res = await call(t.app, 'POST', '/api/v1/goals', { token: runner.token, body });
  expect(res.statusCode, res.body).toBe(201);
  return GoalEnvelopeSchema.parse(res.json()).goal;
}

async function goalsOf(runner: Account): Promise<Goal[]> {
  const res = await call(t.app, 'GET', '/api/v1/goals', { token: runner.token });
  expect(res.statusCode, res.body).toBe(200);
  return GoalsEnvelopeSchema.parse(res.json()).goals;
}

const run = (runner: Account, date: string, distance: number, time = '01:00:00') =>
  createEntry(t.app, runner.token, { date, distance, time });

describe('POST and GET /api/v1/goals', () => {
  it('measures a weekly distance goal over this ISO week', async () => {
    const runner = await registerUser(t.app);
    await run(runner, '2026-03-15', 30); // Sunday of last week
    await run(runner, '2026-03-16', 10.5);
    await run(runner, '2026-03-18', 4.25);
    const res = await call(t.app, 'POST', '/api/v1/goals', {
      token: runner.token,
      body: { period: 'week', metric: 'distance', target: 40 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(keysOf(res.json())).toEqual(['goal']);
    const goal = res.json().goal;
    expect(keysOf(goal)).toEqual(GOAL_KEYS);
    // Wednesday to Sunday: 5 days left including today.
    expect(goal).toMatchObject({
      period: 'week',
      metric: 'distance',
      target: 40,
      period_start: '2026-03-16',
      period_end: '2026-03-22',
      progress: 14.75,
      remaining: 25.25,
      per_day_needed: round2(25.25 / 5),
      achieved: false,
    });
    expect(goal.history).toHaveLength(12);
    expect(goal.history[0]).toEqual({ period_start: '2026-03-09', progress: 30, achieved: false });
    expect(goal.history.map((row: { period_start: string }) => row.period_start)).toEqual(
      Array.from({ length: 12 }, (_, i) => addDays('2026-03-09', -7 * i)),
    );
    expect(await goalsOf(runner)).toEqual([goal]);
  });

  it('measures months and years, time and numbers of runs, and says when a goal is met', async () => {
    const runner = await registerUser(t.app);
    await run(runner, '2026-03-01', 5, '00:30:00');
    await run(runner, '2026-03-18', 5, '00:45:00');
    await run(runner, '2026-02-28', 5, '02:00:00');
    await run(runner, '2025-12-31', 5, '01:00:00');
    const month = await addGoal(runner, { period: 'month', metric: 'time', target: 3600 });
    expect(month).toMatchObject({
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      progress: 4500,
      remaining: 0,
      per_day_needed: 0,
      achieved: true,
    });
    expect(month.history[0]).toEqual({ period_start: '2026-02-01', progress: 7200, achieved: true });
    expect(month.history[2]).toEqual({ period_start: '2025-12-01', progress: 3600, achieved: true });
    expect(month.history[11]!.period_start).toBe('2025-03-01');

    const year = await addGoal(runner, { period: 'year', metric: 'runs', target: 100 });
    expect(year).toMatchObject({ period_start: '2026-01-01', period_end: '2026-12-31', progress: 3, remaining: 97 });
    // 2026-03-18 .. 2026-12-31 inclusive is 289 days.
    expect(year.per_day_needed).toBe(round2(97 / 289));
    expect(year.history[0]).toEqual({ period_start: '2025-01-01', progress: 1, achieved: false });
    expect(year.history[11]!.period_start).toBe('2014-01-01');
  });

  it("follows the runner's time zone for what this week is", async () => {
    // 2026-03-22T12:00Z is already Monday 2026-03-23 in Auckland (UTC+13).
    t.clock.set('2026-03-22T12:00:00.000Z');
    try {
      const auckland = await registerUser(t.app, { timezone: 'Pacific/Auckland' });
      const utc = await registerUser(t.app);
      await run(auckland, '2026-03-22', 8);
      await run(utc, '2026-03-22', 8);
      const there = await addGoal(auckland, { period: 'week', metric: 'distance', target: 10 });
      const here = await addGoal(utc, { period: 'week', metric: 'distance', target: 10 });
      expect(there).toMatchObject({ period_start: '2026-03-23', progress: 0, per_day_needed: round2(10 / 7) });
      expect(there.history[0]).toEqual({ period_start: '2026-03-16', progress: 8, achieved: false });
      expect(here).toMatchObject({ period_start: '2026-03-16', progress: 8, remaining: 2, per_day_needed: 2 });
    } finally {
      t.clock.set('2026-03-18T12:00:00.000Z');
    }
  });

  it('follows deleted and changed runs (days left without runs count for nothing)', async () => {
    const runner = await registerUser(t.app);
    const a = await run(runner, '2026-03-17', 6);
    const goal = await addGoal(runner, { period: 'week', metric: 'runs', target: 1 });
    expect(goal).toMatchObject({ progress: 1, achieved: true });
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${a.id}`, { token: runner.token })).statusCode).toBe(200);
    expect((await goalsOf(runner))[0]).toMatchObject({ progress: 0, remaining: 1, achieved: false });
    const b = await run(runner, '2026-03-18', 6);
    await call(t.app, 'PUT', `/api/v1/entry/${b.id}`, {
      token: runner.token,
      body: { date: '2026-03-13', distance: 6, time: '01:00:00' },
    });
    const [after] = await goalsOf(runner);
    expect(after).toMatchObject({ progress: 0, achieved: false });
    expect(after!.history[0]).toEqual({ period_start: '2026-03-09', progress: 1, achieved: true });
  });

  it('adds up any runs exactly, in every period shown', async () => {
    const runner = await registerUser(t.app);
    const goals = {
      week: await addGoal(runner, { period: 'week', metric: 'distance', target: 21.097 }),
      month: await addGoal(runner, { period: 'month', metric: 'time', target: 36000 }),
    };
    const runs: { date: string; distance: number; seconds: number }[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            daysAgo: fc.integer({ min: 0, max: 400 }),
            metres: fc.integer({ min: 1, max: 30_000 }),
            minutes: fc.integer({ min: 40, max: 240 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (batch) => {
          for (const { daysAgo, metres, minutes } of batch) {
            const date = addDays('2026-03-18', -daysAgo);
            const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
            const mm = String(minutes % 60).padStart(2, '0');
            await run(runner, date, metres / 1000, `${hh}:${mm}:00`);
            runs.push({ date, distance: metres, seconds: minutes * 60 });
          }
          const byId = new Map((await goalsOf(runner)).map((goal) => [goal.id, goal]));
          for (const [period, stored] of Object.entries(goals)) {
            const goal = byId.get(stored.id)!;
            const shown = [
              { start: goal.period_start, progress: goal.progress },
              ...goal.history.map((row) => ({ start: row.period_start, progress: row.progress })),
            ];
            const expected = periodsBack(period as 'week' | 'month', '2026-03-18', 13).map(({ start, end }) => {
              const inPeriod = runs.filter((r) => r.date >= start && r.date <= end);
              const sum = inPeriod.reduce((total, r) => total + (period === 'week' ? r.distance : r.seconds), 0);
              return { start, progress: period === 'week' ? sum / 1000 : sum };
            });
            expect(shown).toEqual(expected);
          }
        },
      ),
      { numRuns: 8, interruptAfterTimeLimit: 20_000 },
    );
  });

  it.each([
    [{ metric: 'distance', target: 10 }, 'period', 'The period field is required.'],
    [{ period: 'day', metric: 'distance', target: 10 }, 'period', 'The period must be one of week, month or year.'],
    [{ period: 'week', metric: 'pace', target: 10 }, 'metric', 'The metric must be one of distance, time or runs.'],
    [{ period: 'week', metric: 'distance' }, 'target', 'The target field is required.'],
    [{ period: 'week', metric: 'distance', target: 0 }, 'target', 'The target must be greater than 0.'],
    [{ period: 'week', metric: 'distance', target: 'far' }, 'target', 'The target must be a number.'],
    [{ period: 'week', metric: 'distance', target: 1.2345 }, 'target', undefined],
    [{ period: 'week', metric: 'runs', target: 2.5 }, 'target', 'The target must be a whole number of runs.'],
    [{ period: 'week', metric: 'time', target: 1e12 }, 'target', undefined],
  ])('refuses %j with a 422 on %s', async (body, field, message) => {
    const runner = await registerUser(t.app);
    expectValidation(await call(t.app, 'POST', '/api/v1/goals', { token: runner.token, body }), field, message);
    expect(await goalsOf(runner)).toEqual([]);
  });

  it('needs a signed-in runner', async () => {
    expectError(await call(t.app, 'GET', '/api/v1/goals'), 401);
  });
});

describe('at most 20 goals', () => {
  it('refuses the 21st with a 422, and takes one again once a goal is gone', async () => {
    const runner = await registerUser(t.app);
    for (let i = 0; i < MAX_GOALS; i++) await addGoal(runner, { period: 'week', metric: 'runs', target: i + 1 });
    const res = await call(t.app, 'POST', '/api/v1/goals', {
      token: runner.token,
      body: { period: 'year', metric: 'runs', target: 1 },
    });
    expectValidation(res, 'goal', 'You can have at most 20 goals.');
    const goals = await goalsOf(runner);
    expect(goals).toHaveLength(MAX_GOALS);
    // Another runner is not affected.
    await addGoal(await registerUser(t.app), { period: 'week', metric: 'runs', target: 1 });
    await call(t.app, 'DELETE', `/api/v1/goals/${goals[0]!.id}`, { token: runner.token });
    await addGoal(runner, { period: 'year', metric: 'runs', target: 1 });
  });

  it('holds when many requests arrive at once', async () => {
    const runner = await registerUser(t.app);
    for (let i = 0; i < MAX_GOALS - 3; i++) await addGoal(runner, { period: 'month', metric: 'runs', target: i + 1 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(t.app, 'POST', '/api/v1/goals', {
          token: runner.token,
          body: { period: 'week', metric: 'time', target: 600 * (i + 1) },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    expect(await goalsOf(runner)).toHaveLength(MAX_GOALS);
  });
});

describe('PUT and DELETE /api/v1/goals/{id}', () => {
  it('changes the fields it is given, checking the target against the resulting metric', async () => {
    const runner = await registerUser(t.app);
    await run(runner, '2026-03-17', 5);
    const goal = await addGoal(runner, { period: 'week', metric: 'distance', target: 20.5 });
    let res = await call(t.app, 'PUT', `/api/v1/goals/${goal.id}`, { token: runner.token, body: { period: 'month' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().goal).toMatchObject({ id: goal.id, period: 'month', metric: 'distance', target: 20.5 });
    expect(res.json().goal.period_start).toBe('2026-03-01');
    expectValidation(
      await call(t.app, 'PUT', `/api/v1/goals/${goal.id}`, { token: runner.token, body: { metric: 'runs' } }),
      'target',
      'The target must be a whole number of runs.',
    );
    res = await call(t.app, 'POST', `/api/v1/goals/${goal.id}`, {
      token: runner.token,
      body: { _method: 'PUT', metric: 'runs', target: '3' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().goal).toMatchObject({ period: 'month', metric: 'runs', target: 3, progress: 1, remaining: 2 });
    expect(await goalsOf(runner)).toEqual([res.json().goal]);
  });

  it("answers 404 for another runner's goal, even to an admin, and never changes it", async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const admin = await loginAdmin(t.app);
    const goal = await addGoal(owner, { period: 'week', metric: 'distance', target: 10 });
    for (const intruder of [other, admin]) {
      const put = await call(t.app, 'PUT', `/api/v1/goals/${goal.id}`, { token: intruder.token, body: { target: 1 } });
      expect(put.statusCode).toBe(404);
      expect(put.json()).toEqual(NOT_FOUND);
      expectError(await call(t.app, 'DELETE', `/api/v1/goals/${goal.id}`, { token: intruder.token }), 404);
      expect(await goalsOf(intruder)).not.toContainEqual(expect.objectContaining({ id: goal.id }));
    }
    expect(await goalsOf(owner)).toEqual([goal]);
    const del = await call(t.app, 'DELETE', `/api/v1/goals/${goal.id}`, { token: owner.token });
    expect(del.statusCode).toBe(200);
    expect(await goalsOf(owner)).toEqual([]);
    expectError(await call(t.app, 'DELETE', `/api/v1/goals/${goal.id}`, { token: owner.token }), 404);
  });
});

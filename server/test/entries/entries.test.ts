/** The single-run calls of /api/v1/entry (create, read, edit, delete, method override); the lists are in entries/lists.test.ts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paceMinPerKm, parseDuration, round2, speedKmh } from '../../../core/time.js';
import {
  NOT_FOUND,
  call,
  createEntry,
  createTestApp,
  expectError,
  expectValidation,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { ENTRY_KEYS, ISO_UTC, keysOf } from '../wire-keys.js';

// The clock stands at 2026-03-18T12:00:00Z (DEFAULT_NOW).
let t: TestApp;
let runner: Account;
let other: Account;
beforeAll(async () => {
  t = await createTestApp();
  runner = await registerUser(t.app, { name: 'Entry Runner' });
  other = await registerUser(t.app, { name: 'Other Runner' });
});
afterAll(async () => {
  await t.close();
});

const post = (token: string, body: unknown) => call(t.app, 'POST', '/api/v1/entry', { token, body });
const ids = (res: { json: () => { entries: { data: { id: number }[] } } }) => res.json().entries.data.map((e) => e.id);

describe('POST /api/v1/entry', () => {
  it('creates a run and answers 201 {entry} with speed and pace', async () => {
    const res = await post(runner.token, { date: '2026-03-15', distance: 42.195, time: '03:30:00' });
    expect(res.statusCode, res.body).toBe(201);
    expect(keysOf(res.json())).toEqual(['entry']);
    const entry = res.json().entry;
    expect(keysOf(entry)).toEqual(ENTRY_KEYS);
    expect(entry).toMatchObject({
      user_id: runner.user.id,
      date: '2026-03-15',
      distance: 42.195,
      time: '03:30:00',
      speed: 12.06,
      pace: 4.98,
    });
    expect(Number.isInteger(entry.id)).toBe(true);
    expect(entry.created_at).toMatch(ISO_UTC);
    expect(entry.updated_at).toMatch(ISO_UTC);
  });

  it.each([
    [42.195, '03:30:00', 12.06, 4.98],
    [5, '00:20:00', 15, 4],
    [10, '00:45:30', 13.19, 4.55],
    // Pace from the exact values (5.2053 -> 5.21), not 60 / rounded speed (60 / 11.53 = 5.20).
    [1.063, '00:05:32', 11.53, 5.21],
    // Exactly 1.005 km/h: half rounds up, even though 1.005 is stored a hair below it.
    [0.335, '00:20:00', 1.01, 59.7],
    [1000, '99:59:59', 10, 6],
    [0.001, '00:00:01', 3.6, 16.67],
  ])('computes speed and pace for %s km in %s from the exact values', async (distance, time, speed, pace) => {
    const entry = await createEntry(t.app, runner.token, { date: '2026-03-01', distance, time });
    const seconds = parseDuration(time) ?? 0;
    expect(entry.distance).toBe(distance);
    expect(entry.time).toBe(time);
    expect(entry.speed).toBe(speed);
    expect(entry.pace).toBe(pace);
    expect(entry.speed).toBe(round2(speedKmh(distance, seconds)));
    expect(entry.pace).toBe(round2(paceMinPerKm(distance, seconds)));
  });

  it("ignores id, user_id, speed and pace in the body: the run is the caller's, its numbers computed", async () => {
    const res = await post(runner.token, {
      date: '2026-03-09',
      distance: 10,
      time: '01:00:00',
      id: 1,
      user_id: other.user.id,
      speed: 99,
      pace: 1,
      created_at: '2000-01-01T00:00:00.000Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const entry = res.json().entry;
    expect(entry).toMatchObject({ user_id: runner.user.id, speed: 10, pace: 6 });
    expect(entry.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    const moved = await call(t.app, 'PUT', `/api/v1/entry/${entry.id}`, {
      token: runner.token,
      body: { date: '2026-03-09', distance: 10, time: '01:00:00', user_id: other.user.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().entry.user_id).toBe(runner.user.id);
    const theirs = await call(t.app, 'GET', '/api/v1/entry', { token: other.token, query: { per_page: 100 } });
    expect(ids(theirs)).not.toContain(entry.id);
  });

  it('accepts a form-urlencoded body, with numbers as text', async () => {
    const res = await call(t.app, 'POST', '/api/v1/entry', {
      token: runner.token,
      form: { date: '2026-03-02', distance: '5.5', time: '00:33:00' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().entry).toMatchObject({ date: '2026-03-02', distance: 5.5, time: '00:33:00', speed: 10, pace: 6 });
  });

  it('accepts the distance as a JSON string and trims the fields', async () => {
    const res = await post(runner.token, { date: ' 2026-03-02 ', distance: ' 7.25 ', time: ' 00:43:30 ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().entry).toMatchObject({ date: '2026-03-02', distance: 7.25, time: '00:43:30' });
  });

  it('accepts the edges: 1900-01-01, today, 1000 km, 3 decimals, 99:59:59, exactly 50 km/h', async () => {
    for (const body of [
      { date: '1900-01-01', distance: 5, time: '00:30:00' },
      { date: '2026-03-18', distance: 5, time: '00:30:00' },
      { date: '2026-03-01', distance: 1000, time: '99:59:59' },
      { date: '2026-03-01', distance: 42.195, time: '04:00:00' },
      { date: '2026-03-01', distance: 10, time: '00:12:00' },
      { date: '2024-02-29', distance: 3, time: '00:20:00' },
    ]) {
      const res = await post(runner.token, body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(201);
    }
  });

  it('reports all three missing fields, date first', async () => {
    const res = await post(runner.token, {});
    const errors = expectValidation(res, 'date', 'The date field is required.');
    expect(res.json().message).toBe('The date field is required.');
    expect(errors.distance).toEqual(['The distance field is required.']);
    expect(errors.time).toEqual(['The time field is required.']);
  });

  const ok = { date: '2026-03-10', distance: 10, time: '01:00:00' };
  it.each([
    ['date', { date: '' }, 'The date field is required.'],
    ['date', { date: '18/03/2026' }, 'The date must be a real date in the format YYYY-MM-DD.'],
    ['date', { date: '2026-02-29' }, 'The date must be a real date in the format YYYY-MM-DD.'],
    ['date', { date: '2026-3-1' }, 'The date must be a real date in the format YYYY-MM-DD.'],
    ['date', { date: '2026-03-10T10:00:00Z' }, 'The date must be a real date in the format YYYY-MM-DD.'],
    ['date', { date: '1899-12-31' }, 'The date must not be before 1900-01-01.'],
    ['distance', { distance: '' }, 'The distance field is required.'],
    ['distance', { distance: 0 }, 'The distance must be greater than 0.'],
    ['distance', { distance: -5 }, 'The distance must be greater than 0.'],
    ['distance', { distance: 'ten' }, 'The distance must be a number.'],
    ['distance', { distance: '1e2' }, 'The distance must be a number.'],
    ['distance', { distance: 1000.5, time: '99:00:00' }, 'The distance must not be greater than 1000.'],
    ['distance', { distance: 1.2345 }, 'The distance must have at most 3 decimals.'],
    ['time', { time: '' }, 'The time field is required.'],
    ['time', { time: '1:00:00' }, 'The time must be a duration in the format HH:MM:SS.'],
    ['time', { time: '01:00' }, 'The time must be a duration in the format HH:MM:SS.'],
    ['time', { time: '00:60:00' }, 'The time must be a duration in the format HH:MM:SS.'],
    ['time', { time: '00:00:60' }, 'The time must be a duration in the format HH:MM:SS.'],
    ['time', { time: 3600 }, 'The time must be a string.'],
    ['time', { time: '00:00:00' }, 'The time must be greater than 00:00:00.'],
    ['time', { distance: 10, time: '00:11:59' }, 'The distance and time give a speed over 50 km/h; please check them.'],
    [
      'time',
      { distance: 1000, time: '19:59:59' },
      'The distance and time give a speed over 50 km/h; please check them.',
    ],
  ])('rejects a bad %s %j with 422 and stores nothing', async (field, overrides, message) => {
    const before = (await call(t.app, 'GET', '/api/v1/entry', { token: runner.token })).json().entries.total;
    const res = await post(runner.token, { ...ok, ...overrides });
    expectValidation(res, field, message);
    expect(Object.keys(res.json().errors)).toEqual([field]);
    const after = (await call(t.app, 'GET', '/api/v1/entry', { token: runner.token })).json().entries.total;
    expect(after).toBe(before);
  });

  it('rejects a date after today (UTC user) with 422 on date', async () => {
    expectValidation(await post(runner.token, { ...ok, date: '2026-03-19' }), 'date');
    expectValidation(await post(runner.token, { ...ok, date: '2027-01-01' }), 'date');
  });

  describe('"today" is the user\'s own', () => {
    // At 2026-03-18T12:00Z it is already 02:00 on the 19th in Kiritimati (+14)
    // and only 01:00 on the 18th in Pago Pago (-11).
    let east: Account;
    let west: Account;
    beforeAll(async () => {
      east = await registerUser(t.app, { timezone: 'Pacific/Kiritimati' });
      west = await registerUser(t.app, { timezone: 'Pacific/Pago_Pago' });
    });

    it('lets a Kiritimati runner log the 19th but not the 20th', async () => {
      expect((await post(east.token, { ...ok, date: '2026-03-19' })).statusCode).toBe(201);
      expectValidation(await post(east.token, { ...ok, date: '2026-03-20' }), 'date');
    });

    it('lets a Pago Pago runner log the 18th but not the 19th', async () => {
      expect((await post(west.token, { ...ok, date: '2026-03-18' })).statusCode).toBe(201);
      expectValidation(await post(west.token, { ...ok, date: '2026-03-19' }), 'date');
    });

    it("moves with the clock, to the second, in the user's zone", async () => {
      const saved = t.clock.now().toISOString();
      try {
        t.clock.set('2026-03-18T10:59:59Z'); // 23:59:59 on the 17th in Pago Pago
        expectValidation(await post(west.token, { ...ok, date: '2026-03-18' }), 'date');
        t.clock.set('2026-03-18T11:00:00Z'); // midnight starting the 18th in Pago Pago
        expect((await post(west.token, { ...ok, date: '2026-03-18' })).statusCode).toBe(201);
        t.clock.set('2026-03-19T09:59:59Z'); // 23:59:59 on the 19th in Kiritimati
        expectValidation(await post(east.token, { ...ok, date: '2026-03-20' }), 'date');
        t.clock.set('2026-03-19T10:00:00Z'); // midnight starting the 20th in Kiritimati
        expect((await post(east.token, { ...ok, date: '2026-03-20' })).statusCode).toBe(201);
      } finally {
        t.clock.set(saved);
      }
    });

    it("follows a change of the user's time zone", async () => {
      const mover = await registerUser(t.app, { timezone: 'Pacific/Pago_Pago' });
      expectValidation(await post(mover.token, { ...ok, date: '2026-03-19' }), 'date');
      const res = await call(t.app, 'PUT', `/api/v1/user/${mover.user.id}`, {
        token: mover.token,
        body: { name: mover.user.name, email: mover.user.email, timezone: 'Pacific/Kiritimati' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await post(mover.token, { ...ok, date: '2026-03-19' })).statusCode).toBe(201);
    });
  });
});

describe('GET /api/v1/entry/{id}', () => {
  it('returns {entry}', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-03', distance: 12.5, time: '01:15:00' });
    const res = await call(t.app, 'GET', `/api/v1/entry/${created.id}`, { token: runner.token });
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.json())).toEqual(['entry']);
    expect(res.json().entry).toEqual(created);
  });

  it.each(['999999', 'abc', '0', '99999999999'])('answers 404 "Not found." for id %s', async (id) => {
    const res = await call(t.app, 'GET', `/api/v1/entry/${id}`, { token: runner.token });
    expectError(res, 404);
    expect(res.json()).toEqual(NOT_FOUND);
  });
});

describe('PUT /api/v1/entry/{id}', () => {
  it('updates the run, recomputes speed and pace, and returns {entry}', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    t.clock.advance({ minutes: 10 });
    const res = await call(t.app, 'PUT', `/api/v1/entry/${created.id}`, {
      token: runner.token,
      body: { date: '2026-03-05', distance: 10, time: '00:50:00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['entry']);
    const entry = res.json().entry;
    expect(entry).toMatchObject({
      id: created.id,
      user_id: runner.user.id,
      date: '2026-03-05',
      distance: 10,
      time: '00:50:00',
      speed: 12,
      pace: 5,
    });
    expect(entry.created_at).toBe(created.created_at);
    expect(Date.parse(entry.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    const read = await call(t.app, 'GET', `/api/v1/entry/${created.id}`, { token: runner.token });
    expect(read.json().entry).toEqual(entry);
  });

  it('validates like create, and a rejected update changes nothing', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const cases: [Record<string, unknown>, string][] = [
      [{ date: '2026-03-19', distance: 5, time: '00:25:00' }, 'date'],
      [{ date: '2026-03-04', distance: 1.2345, time: '00:25:00' }, 'distance'],
      [{ date: '2026-03-04', distance: 5, time: '00:00:00' }, 'time'],
      [{ date: '2026-03-04', distance: 50, time: '00:25:00' }, 'time'],
      [{ distance: 5, time: '00:25:00' }, 'date'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t.app, 'PUT', `/api/v1/entry/${created.id}`, { token: runner.token, body });
      expectValidation(res, field);
    }
    const read = await call(t.app, 'GET', `/api/v1/entry/${created.id}`, { token: runner.token });
    expect(read.json().entry).toEqual(created);
  });

  it('answers 404 for an unknown entry', async () => {
    const res = await call(t.app, 'PUT', '/api/v1/entry/999999', {
      token: runner.token,
      body: { date: '2026-03-04', distance: 5, time: '00:25:00' },
    });
    expectError(res, 404, 'Not found.');
  });

  it('also works as a real PATCH with the full body', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const res = await call(t.app, 'PATCH', `/api/v1/entry/${created.id}`, {
      token: runner.token,
      body: { date: '2026-03-06', distance: 6, time: '00:30:00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().entry).toMatchObject({ id: created.id, date: '2026-03-06', distance: 6, speed: 12 });
  });
});

describe('DELETE /api/v1/entry/{id}', () => {
  it('deletes the run and answers 200 {message}; it is gone afterwards', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const before = (await call(t.app, 'GET', '/api/v1/entry', { token: runner.token })).json().entries.total;
    const res = await call(t.app, 'DELETE', `/api/v1/entry/${created.id}`, { token: runner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['message']);
    expect(typeof res.json().message).toBe('string');
    expectError(await call(t.app, 'GET', `/api/v1/entry/${created.id}`, { token: runner.token }), 404, 'Not found.');
    expectError(await call(t.app, 'DELETE', `/api/v1/entry/${created.id}`, { token: runner.token }), 404, 'Not found.');
    const list = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token, query: { per_page: 100 } });
    expect(ids(list)).not.toContain(created.id);
    expect(list.json().entries.total).toBe(before - 1);
  });
});

describe('_method override on /api/v1/entry/{id}', () => {
  it.each(['PUT', 'put', 'Put', 'PATCH', 'patch'])('POST with _method %s updates (JSON body)', async (method) => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const res = await call(t.app, 'POST', `/api/v1/entry/${created.id}`, {
      token: runner.token,
      body: { _method: method, date: '2026-03-07', distance: 8, time: '00:40:00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().entry).toMatchObject({ id: created.id, date: '2026-03-07', distance: 8, speed: 12 });
    expect(keysOf(res.json().entry)).toEqual(ENTRY_KEYS);
  });

  it('POST with _method PUT updates (form-encoded body, as the original client sends)', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const res = await call(t.app, 'POST', `/api/v1/entry/${created.id}`, {
      token: runner.token,
      form: { _method: 'PUT', date: '2026-03-08', distance: '4.2', time: '00:21:00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().entry).toMatchObject({ id: created.id, date: '2026-03-08', distance: 4.2, speed: 12, pace: 5 });
  });

  it.each(['DELETE', 'delete', 'dElEtE'])('POST with _method %s deletes', async (method) => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const res = await call(t.app, 'POST', `/api/v1/entry/${created.id}`, {
      token: runner.token,
      body: { _method: method },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['message']);
    expectError(await call(t.app, 'GET', `/api/v1/entry/${created.id}`, { token: runner.token }), 404);
  });

  it('an override is still validated', async () => {
    const created = await createEntry(t.app, runner.token, { date: '2026-03-04', distance: 5, time: '00:25:00' });
    const res = await call(t.app, 'POST', `/api/v1/entry/${created.id}`, {
      token: runner.token,
      body: { _method: 'PUT', date: '2026-03-04', distance: 0, time: '00:25:00' },
    });
    expectValidation(res, 'distance', 'The distance must be greater than 0.');
  });
});

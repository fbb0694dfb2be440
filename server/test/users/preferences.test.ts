/** Preferences on the user resource (CONTRACT.md §11, §18): units, theme, pace and date formats. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_MESSAGE, UNITS_MESSAGE } from '../../../core/preferences.js';
import { DATE_FORMAT_MESSAGE, PACE_FORMAT_MESSAGE } from '../../../core/schemas.js';
import {
  call,
  createEntry,
  createTestApp,
  expectValidation,
  loginAdmin,
  registerUser,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const me = async (token: string) => (await call(t.app, 'GET', '/api/v1/user/me', { token })).json();

describe('units and theme', () => {
  it('start as km and auto', async () => {
    const runner = await registerUser(t.app);
    expect(runner.user).toMatchObject({ units: 'km', theme: 'auto' });
    expect(await me(runner.token)).toMatchObject({ units: 'km', theme: 'auto' });
  });

  it('are set by the profile update and kept when absent or blank (the original profile form)', async () => {
    const runner = await registerUser(t.app);
    const url = `/api/v1/user/${runner.user.id}`;
    const set = await call(t.app, 'PUT', url, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, units: 'mi', theme: 'dark' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user).toMatchObject({ units: 'mi', theme: 'dark' });

    // The original client: a form-encoded POST with _method and only its own fields.
    const original = await call(t.app, 'POST', url, {
      token: runner.token,
      form: { _method: 'PUT', name: 'Renamed', email: runner.user.email, password: '', password_confirmation: '' },
    });
    expect(original.statusCode, original.body).toBe(200);
    expect(original.json().user).toMatchObject({ name: 'Renamed', units: 'mi', theme: 'dark' });

    const blank = await call(t.app, 'PUT', url, {
      token: runner.token,
      body: { name: 'Renamed', email: runner.user.email, units: '', theme: ' ' },
    });
    expect(blank.json().user).toMatchObject({ units: 'mi', theme: 'dark' });

    // null is "unchanged" for every preference, as it is for the time zone.
    const nulls = await call(t.app, 'PUT', url, {
      token: runner.token,
      body: { name: 'Renamed', email: runner.user.email, units: null, theme: null, timezone: null },
    });
    expect(nulls.statusCode, nulls.body).toBe(200);
    expect(nulls.json().user).toMatchObject({ units: 'mi', theme: 'dark', timezone: runner.user.timezone });

    const back = await call(t.app, 'PUT', url, {
      token: runner.token,
      body: { name: 'Renamed', email: runner.user.email, units: 'km', theme: 'light' },
    });
    expect(back.json().user).toMatchObject({ units: 'km', theme: 'light' });
    expect(await me(runner.token)).toMatchObject({ units: 'km', theme: 'light' });
  });

  it.each([
    ['units', { units: 'miles' }, UNITS_MESSAGE],
    ['units', { units: 5 }, UNITS_MESSAGE],
    ['theme', { theme: 'sepia' }, THEME_MESSAGE],
    ['theme', { theme: true }, THEME_MESSAGE],
  ])('refuse a bad %s with 422 (%j)', async (field, extra, message) => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, ...extra },
    });
    expectValidation(res, field, message);
    expect(await me(runner.token)).toMatchObject({ units: 'km', theme: 'auto' });
  });

  it('never change what the API speaks: runs stay in km', async () => {
    const runner = await registerUser(t.app);
    await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, units: 'mi' },
    });
    const entry = await createEntry(t.app, runner.token, { date: '2026-03-17', distance: 10, time: '01:00:00' });
    expect(entry).toMatchObject({ distance: 10, speed: 10, pace: 6 });
    const dashboard = (await call(t.app, 'GET', '/api/v1/dashboard/data', { token: runner.token })).json();
    expect(dashboard.max_distance).toBe(10);
  });

  it("appear in the users list and are another user's to keep when an admin edits them", async () => {
    const runner = await registerUser(t.app);
    await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, units: 'mi', theme: 'dark' },
    });
    const admin = await loginAdmin(t.app);
    const list = (
      await call(t.app, 'GET', '/api/v1/user', { token: admin.token, query: { query: runner.user.email } })
    ).json();
    expect(list.users.data[0]).toMatchObject({ id: runner.user.id, units: 'mi', theme: 'dark' });
    const edited = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: admin.token,
      body: { name: 'By admin', email: runner.user.email, role: 'manager' },
    });
    expect(edited.json().user).toMatchObject({ name: 'By admin', role: 'manager', units: 'mi', theme: 'dark' });
  });
});

describe('pace_format and date_format (§18)', () => {
  const put = (runner: { token: string; user: { id: number; name: string; email: string } }, extra: object) =>
    call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, ...extra },
    });

  it('start as decimal and auto (§19: the language’s short date, for users created from Part 4 on)', async () => {
    const runner = await registerUser(t.app);
    expect(runner.user).toMatchObject({ pace_format: 'decimal', date_format: 'auto' });
    expect(await me(runner.token)).toMatchObject({ pace_format: 'decimal', date_format: 'auto' });
  });

  it.each(['DD/MM/YYYY', 'YYYY-MM-DD', 'MM/DD/YYYY'])(
    'are set by the profile update (date_format %s)',
    async (format) => {
      const runner = await registerUser(t.app);
      const res = await put(runner, { pace_format: 'clock', date_format: format });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user).toMatchObject({ pace_format: 'clock', date_format: format });
      expect(await me(runner.token)).toMatchObject({ pace_format: 'clock', date_format: format });
    },
  );

  it('stay as they are when absent, blank or null, and with the original profile form', async () => {
    const runner = await registerUser(t.app);
    await put(runner, { pace_format: 'clock', date_format: 'YYYY-MM-DD' });
    for (const extra of [{}, { pace_format: '', date_format: ' ' }, { pace_format: null, date_format: null }]) {
      const res = await put(runner, extra);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user).toMatchObject({ pace_format: 'clock', date_format: 'YYYY-MM-DD' });
    }
    const original = await call(t.app, 'POST', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      form: { _method: 'PUT', name: 'Renamed', email: runner.user.email, password: '', password_confirmation: '' },
    });
    expect(original.statusCode, original.body).toBe(200);
    expect(original.json().user).toMatchObject({ name: 'Renamed', pace_format: 'clock', date_format: 'YYYY-MM-DD' });
  });

  it.each([
    ['pace_format', { pace_format: 'mm:ss' }, PACE_FORMAT_MESSAGE],
    ['pace_format', { pace_format: 1 }, PACE_FORMAT_MESSAGE],
    ['date_format', { date_format: 'DD.MM.YYYY' }, DATE_FORMAT_MESSAGE],
    ['date_format', { date_format: 'yyyy-mm-dd' }, DATE_FORMAT_MESSAGE],
    ['date_format', { date_format: ['YYYY-MM-DD'] }, DATE_FORMAT_MESSAGE],
  ])('refuse a bad %s with 422 (%j)', async (field, extra, message) => {
    const runner = await registerUser(t.app);
    expectValidation(await put(runner, extra), field, message);
    expect(await me(runner.token)).toMatchObject({ pace_format: 'decimal', date_format: 'auto' });
  });

  it('show in the users list and stay when an admin edits the user', async () => {
    const runner = await registerUser(t.app);
    await put(runner, { pace_format: 'clock', date_format: 'DD/MM/YYYY' });
    const admin = await loginAdmin(t.app);
    const list = (
      await call(t.app, 'GET', '/api/v1/user', { token: admin.token, query: { query: runner.user.email } })
    ).json();
    expect(list.users.data[0]).toMatchObject({ pace_format: 'clock', date_format: 'DD/MM/YYYY' });
    const edited = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: admin.token,
      body: { name: 'By admin', email: runner.user.email },
    });
    expect(edited.json().user).toMatchObject({ pace_format: 'clock', date_format: 'DD/MM/YYYY' });
  });

  it('never change what the API speaks: paces stay decimal min/km, dates YYYY-MM-DD', async () => {
    const runner = await registerUser(t.app);
    await put(runner, { pace_format: 'clock', date_format: 'DD/MM/YYYY', units: 'mi' });
    const entry = await createEntry(t.app, runner.token, { date: '2026-03-17', distance: 10, time: '00:53:30' });
    expect(entry).toMatchObject({ date: '2026-03-17', pace: 5.35 });
  });
});

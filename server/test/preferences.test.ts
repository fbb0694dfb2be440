/** Preferences on the user resource (CONTRACT.md §11): units and theme. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNITS_MESSAGE, THEME_MESSAGE } from '../../core/preferences.js';
import {
  call,
  createEntry,
  createTestApp,
  expectValidation,
  loginAdmin,
  registerUser,
  type TestApp,
} from './helpers.js';

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

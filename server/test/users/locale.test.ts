/**
 * The user's language (CONTRACT.md §19): `locale` is `auto` or one of the six, set at registration
 * or by the profile update, unchanged when absent, blank or null, a 422 otherwise; and `date_format`
 * gains `auto`, the default of users created from now on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_FORMAT_MESSAGE, LOCALE_MESSAGE } from '../../../core/schemas.js';
import { call, createTestApp, expectValidation, loginAdmin, nextIp, registerUser, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const register = (extra: object) => {
  counter += 1;
  const email = `locale-${counter}-${Date.now()}@example.com`;
  return call(t.app, 'POST', '/api/v1/auth/register', {
    ip: nextIp(),
    body: { name: 'Lena', email, password: 'correct-horse-1', password_confirmation: 'correct-horse-1', ...extra },
  });
};
const me = async (token: string) => (await call(t.app, 'GET', '/api/v1/user/me', { token })).json();
const put = (runner: { token: string; user: { id: number; name: string; email: string } }, extra: object) =>
  call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
    token: runner.token,
    body: { name: runner.user.name, email: runner.user.email, ...extra },
  });

describe('locale at registration', () => {
  it('is auto without one, and auto when blank or null', async () => {
    for (const extra of [{}, { locale: '' }, { locale: '  ' }, { locale: null }]) {
      const res = await register(extra);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().user.locale, JSON.stringify(extra)).toBe('auto');
    }
  });

  it.each(['auto', 'en', 'de', 'fr', 'es', 'it', 'nl'])('accepts %s and keeps it', async (locale) => {
    const res = await register({ locale });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user.locale).toBe(locale);
    expect(await me(res.json().access_token)).toMatchObject({ locale });
  });

  it.each([['ja'], ['de-DE'], ['DE'], ['english'], [5], [['de']]])('refuses %j with 422 on locale', async (locale) => {
    expectValidation(await register({ locale }), 'locale', LOCALE_MESSAGE);
  });
});

describe('locale on the profile', () => {
  it('is set by the update and stays when absent, blank or null', async () => {
    const runner = await registerUser(t.app);
    expect(runner.user.locale).toBe('auto');
    const set = await put(runner, { locale: 'nl' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user.locale).toBe('nl');
    for (const extra of [{}, { locale: '' }, { locale: null }]) {
      const res = await put(runner, extra);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.locale).toBe('nl');
    }
    const back = await put(runner, { locale: 'auto' });
    expect(back.json().user.locale).toBe('auto');
  });

  it('refuses any other value with 422 on locale and keeps the stored one', async () => {
    const runner = await registerUser(t.app);
    await put(runner, { locale: 'it' });
    for (const locale of ['pt', 'it-IT', 'Auto', 1]) {
      expectValidation(await put(runner, { locale }), 'locale', LOCALE_MESSAGE);
    }
    expect(await me(runner.token)).toMatchObject({ locale: 'it' });
  });

  it('shows in the users list and stays when an admin edits the user', async () => {
    const runner = await registerUser(t.app);
    await put(runner, { locale: 'es' });
    const admin = await loginAdmin(t.app);
    const list = (
      await call(t.app, 'GET', '/api/v1/user', { token: admin.token, query: { query: runner.user.email } })
    ).json();
    expect(list.users.data[0]).toMatchObject({ locale: 'es' });
    const edited = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: admin.token,
      body: { name: 'By admin', email: runner.user.email },
    });
    expect(edited.json().user).toMatchObject({ locale: 'es' });
  });
});

describe('date_format auto', () => {
  it('is the date format of a new user', async () => {
    const runner = await registerUser(t.app);
    expect(runner.user.date_format).toBe('auto');
    expect(await me(runner.token)).toMatchObject({ date_format: 'auto' });
  });

  it('can be chosen again after another format', async () => {
    const runner = await registerUser(t.app);
    expect((await put(runner, { date_format: 'YYYY-MM-DD' })).json().user.date_format).toBe('YYYY-MM-DD');
    expect((await put(runner, { date_format: 'auto' })).json().user.date_format).toBe('auto');
  });

  it('is named by the 422 of a bad date_format', async () => {
    const runner = await registerUser(t.app);
    expect(DATE_FORMAT_MESSAGE).toBe('The date_format must be auto, MM/DD/YYYY, DD/MM/YYYY or YYYY-MM-DD.');
    expectValidation(await put(runner, { date_format: 'DD.MM.YYYY' }), 'date_format', DATE_FORMAT_MESSAGE);
  });
});

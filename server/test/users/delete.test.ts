/** DELETE /api/v1/user/{id}: an account goes with its runs and tokens, by an admin or its owner. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UNAUTHENTICATED,
  call,
  canLogin as loginSucceeds,
  createEntry,
  createTestApp,
  expectError,
  login,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { keysOf } from '../wire-keys.js';

let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

const canLogin = (email: string, password: string) => loginSucceeds(t.app, email, password);

describe('DELETE /api/v1/user/{id}', () => {
  it('deletes the user with their entries and tokens', async () => {
    const account = await registerUser(t.app);
    const second = await login(t.app, account.user.email, account.password);
    const entry = await createEntry(t.app, account.token, { date: '2026-03-10', distance: 5, time: '00:30:00' });
    const keeper = await registerUser(t.app);
    const kept = await createEntry(t.app, keeper.token, { date: '2026-03-10', distance: 6, time: '00:30:00' });

    const res = await call(t.app, 'DELETE', `/api/v1/user/${account.user.id}`, { token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['message']);

    expectError(await call(t.app, 'GET', `/api/v1/user/${account.user.id}`, { token: admin.token }), 404, 'Not found.');
    for (const token of [account.token, second.token]) {
      const me = await call(t.app, 'GET', '/api/v1/user/me', { token });
      expect(me.statusCode).toBe(401);
      expect(me.json()).toEqual(UNAUTHENTICATED);
    }
    expectError(await call(t.app, 'GET', `/api/v1/entry/${entry.id}`, { token: admin.token }), 404, 'Not found.');
    const all = await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token, query: { per_page: 100 } });
    const allIds = all.json().entries.data.map((e: { id: number }) => e.id);
    expect(all.json().entries.total).toBe(allIds.length);
    expect(allIds).not.toContain(entry.id);
    expect(allIds).toContain(kept.id);
    expect(await canLogin(account.user.email, account.password)).toBe(false);
    // Deleted users free their e-mail address.
    expect((await registerUser(t.app, { email: account.user.email })).user.id).not.toBe(account.user.id);
  });

  it('lets a user delete their own account', async () => {
    const account = await registerUser(t.app);
    const res = await call(t.app, 'DELETE', `/api/v1/user/${account.user.id}`, { token: account.token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: account.token })).statusCode).toBe(401);
    expectError(await call(t.app, 'GET', `/api/v1/user/${account.user.id}`, { token: admin.token }), 404);
  });

  it('is reached by POST with _method DELETE in any case', async () => {
    for (const method of ['DELETE', 'delete', 'DeLeTe']) {
      const account = await registerUser(t.app);
      const res = await call(t.app, 'POST', `/api/v1/user/${account.user.id}`, {
        token: admin.token,
        body: { _method: method },
      });
      expect(res.statusCode, res.body).toBe(200);
      expectError(await call(t.app, 'GET', `/api/v1/user/${account.user.id}`, { token: admin.token }), 404);
    }
    const account = await registerUser(t.app);
    const form = await call(t.app, 'POST', `/api/v1/user/${account.user.id}`, {
      token: admin.token,
      form: { _method: 'DELETE' },
    });
    expect(form.statusCode, form.body).toBe(200);
    expectError(await call(t.app, 'GET', `/api/v1/user/${account.user.id}`, { token: admin.token }), 404);
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await call(t.app, 'DELETE', '/api/v1/user/999999', { token: admin.token }), 404, 'Not found.');
  });
});

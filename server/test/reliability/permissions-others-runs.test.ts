/**
 * CONTRACT.md §5 for runs that are not the caller's (read, update, delete, /entry/all) and the
 * admin dashboard, for guest, user, manager and admin; the other rows are in reliability/permissions.test.ts.
 * Every denial is checked for its exact status and body, and the run read back afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../core/schemas.js';
import { call, createTestApp, loginAdmin, type Account, type TestApp } from '../helpers.js';
import { accountWithRun, expect200, expect401, expect403, runAsSeenBy } from '../roles.js';

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

const account = (role: Role) => accountWithRun(t.app, admin.token, role);
const entryAsSeenByAdmin = (id: number) => runAsSeenBy(t.app, admin.token, id);
const entryUpdate = { date: '2026-03-11', distance: 7, time: '00:35:00' };
const ROLES: Role[] = ['user', 'manager', 'admin'];

describe("read, update, delete another user's entry; /entry/all", () => {
  it('guest: 401 on /entry/all', async () => {
    expect401(await call(t.app, 'GET', '/api/v1/entry/all'));
  });

  it.each(['user', 'manager'] as const)(
    "%s: 403 on others' entries (of every role) and on /entry/all; nothing changes",
    async (role) => {
      const actor = await account(role);
      for (const ownerRole of ROLES) {
        const owner = await account(ownerRole);
        const url = `/api/v1/entry/${owner.entry.id}`;
        const token = actor.token;
        expect403(await call(t.app, 'GET', url, { token }));
        expect403(await call(t.app, 'PUT', url, { token, body: entryUpdate }));
        expect403(await call(t.app, 'PATCH', url, { token, body: entryUpdate }));
        expect403(await call(t.app, 'POST', url, { token, body: { _method: 'put', ...entryUpdate } }));
        expect403(await call(t.app, 'DELETE', url, { token }));
        expect403(await call(t.app, 'POST', url, { token, form: { _method: 'DELETE' } }));
        expect(await entryAsSeenByAdmin(owner.entry.id)).toEqual(owner.entry);
      }
      expect403(await call(t.app, 'GET', '/api/v1/entry/all', { token: actor.token }));
      // Their own list never shows others' runs.
      const own = await call(t.app, 'GET', '/api/v1/entry', { token: actor.token, query: { per_page: 100 } });
      expect(own.json().entries.data.map((e: { id: number }) => e.id)).toEqual([actor.entry.id]);
    },
  );

  it("admin: reads, updates (keeping the owner) and deletes another user's entry, and lists all", async () => {
    const owner = await account('user');
    const url = `/api/v1/entry/${owner.entry.id}`;
    const read = await call(t.app, 'GET', url, { token: admin.token });
    expect200(read);
    expect(read.json().entry).toEqual(owner.entry);
    const updated = await call(t.app, 'POST', url, { token: admin.token, body: { _method: 'PUT', ...entryUpdate } });
    expect200(updated);
    expect(updated.json().entry).toMatchObject({ ...entryUpdate, user_id: owner.user.id });
    const ownersView = await call(t.app, 'GET', url, { token: owner.token });
    expect(ownersView.json().entry).toMatchObject({ ...entryUpdate, user_id: owner.user.id });
    const all = await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token, query: { per_page: 100 } });
    expect200(all);
    expect(all.json().entries.data.map((e: { id: number }) => e.id)).toContain(owner.entry.id);
    expect200(await call(t.app, 'DELETE', url, { token: admin.token }));
    expect((await call(t.app, 'GET', url, { token: owner.token })).statusCode).toBe(404);
  });
});

describe('admin dashboard', () => {
  it('guest 401, user 403, manager 200, admin 200', async () => {
    expect401(await call(t.app, 'GET', '/api/v1/dashboard/admin-data'));
    const user = await account('user');
    expect403(await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: user.token }));
    const manager = await account('manager');
    expect200(await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: manager.token }));
    expect200(await call(t.app, 'GET', '/api/v1/dashboard/admin-data', { token: admin.token }));
  });
});

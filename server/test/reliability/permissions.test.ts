/**
 * CONTRACT.md §5, row by row and column by column (guest, user, manager, admin), on own
 * and others' resources. Every denial is checked for its exact status and body, and the
 * state is read back afterwards to show that nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, User } from '../../../core/schemas.js';
import { accountWithRun, expect200, expect401, expect403, runAsSeenBy } from '../roles.js';
import {
  call,
  createTestApp,
  getUser,
  login,
  loginAdmin,
  registerUser,
  setRole,
  type Account,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

/** A fresh account with the given role and one run. */
const account = (role: Role) => accountWithRun(t.app, admin.token, role);

const userAsSeenByAdmin = (id: number) => getUser(t.app, admin.token, id);
const entryAsSeenByAdmin = (id: number) => runAsSeenBy(t.app, admin.token, id);
async function expectUserGone(id: number) {
  const res = await call(t.app, 'GET', `/api/v1/user/${id}`, { token: admin.token });
  expect(res.statusCode).toBe(404);
}

const profileUpdate = (user: User, extra: Record<string, unknown> = {}) => ({
  name: `${user.name} (edited)`,
  email: user.email,
  ...extra,
});
const entryUpdate = { date: '2026-03-11', distance: 7, time: '00:35:00' };
const ROLES: Role[] = ['user', 'manager', 'admin'];

describe('register, login: guests only', () => {
  it('a guest registers (201) and logs in (200)', async () => {
    const reg = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: {
        name: 'Guest',
        email: 'guest-perm@example.com',
        password: 'guest-pass-1',
        password_confirmation: 'guest-pass-1',
      },
      ip: '10.200.0.1',
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'guest-perm@example.com', password: 'guest-pass-1' },
      ip: '10.200.0.1',
    });
    expect200(res);
  });
});

describe('me; read and update own profile', () => {
  it('guest: 401 on /user/me, on showing and on updating a profile, and nothing changes', async () => {
    const target = await account('user');
    expect401(await call(t.app, 'GET', '/api/v1/user/me'));
    expect401(await call(t.app, 'GET', `/api/v1/user/${target.user.id}`));
    expect401(await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, { body: profileUpdate(target.user) }));
    expect401(
      await call(t.app, 'POST', `/api/v1/user/${target.user.id}`, {
        body: { _method: 'PUT', ...profileUpdate(target.user) },
      }),
    );
    expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
  });

  it.each(ROLES)('%s: reads and updates own name, e-mail, password and time zone', async (role) => {
    const me = await account(role);
    const read = await call(t.app, 'GET', '/api/v1/user/me', { token: me.token });
    expect200(read);
    expect(read.json()).toEqual(me.user);
    const show = await call(t.app, 'GET', `/api/v1/user/${me.user.id}`, { token: me.token });
    expect200(show);
    expect(show.json().user).toEqual(me.user);

    const email = `own-${role}-${me.user.id}@example.com`;
    const res = await call(t.app, 'PUT', `/api/v1/user/${me.user.id}`, {
      token: me.token,
      body: {
        name: `Own ${role}`,
        email,
        password: 'own-new-pass',
        password_confirmation: 'own-new-pass',
        timezone: 'Asia/Tokyo',
      },
    });
    expect200(res);
    expect(await userAsSeenByAdmin(me.user.id)).toMatchObject({
      name: `Own ${role}`,
      email,
      timezone: 'Asia/Tokyo',
      role,
    });
    expect((await login(t.app, email, 'own-new-pass')).user.id).toBe(me.user.id);
  });
});

describe('delete own account', () => {
  it('guest: 401 and the account stays', async () => {
    const target = await account('user');
    expect401(await call(t.app, 'DELETE', `/api/v1/user/${target.user.id}`));
    expect401(await call(t.app, 'POST', `/api/v1/user/${target.user.id}`, { body: { _method: 'DELETE' } }));
    expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
  });

  it.each(['user', 'manager'] as const)('%s: deletes own account', async (role) => {
    const me = await account(role);
    expect200(await call(t.app, 'DELETE', `/api/v1/user/${me.user.id}`, { token: me.token }));
    await expectUserGone(me.user.id);
    expect401(await call(t.app, 'GET', '/api/v1/user/me', { token: me.token }));
  });

  it('admin: deletes own account while another admin remains', async () => {
    const me = await account('admin');
    expect200(await call(t.app, 'DELETE', `/api/v1/user/${me.user.id}`, { token: me.token }));
    await expectUserGone(me.user.id);
  });

  it('admin: the last admin cannot delete their account (403), themselves or through another admin', async () => {
    const solo = await createTestApp();
    try {
      const first = await loginAdmin(solo.app);
      const denied = await call(solo.app, 'DELETE', `/api/v1/user/${first.user.id}`, { token: first.token });
      expect403(denied, 'The last admin account cannot be deleted.');
      expect200(await call(solo.app, 'GET', '/api/v1/user/me', { token: first.token }));

      // A second admin may delete the first; then the second is the last one.
      const second = await registerUser(solo.app);
      await setRole(solo.app, second.user, 'admin', first.token);
      expect200(await call(solo.app, 'DELETE', `/api/v1/user/${first.user.id}`, { token: second.token }));
      const last = await call(solo.app, 'POST', `/api/v1/user/${second.user.id}`, {
        token: second.token,
        body: { _method: 'DELETE' },
      });
      expect403(last, 'The last admin account cannot be deleted.');
      const me = await call(solo.app, 'GET', '/api/v1/user/me', { token: second.token });
      expect200(me);
      expect(me.json().role).toBe('admin');
    } finally {
      await solo.close();
    }
  });
});

describe('list users, show any user', () => {
  let user: Account;
  let otherUser: Account;
  let manager: Account;
  beforeAll(async () => {
    user = await account('user');
    otherUser = await account('user');
    manager = await account('manager');
  });

  it('guest: 401', async () => {
    expect401(await call(t.app, 'GET', '/api/v1/user'));
    expect401(await call(t.app, 'GET', `/api/v1/user/${user.user.id}`));
  });

  it('user: 403 on the list and on other users, 200 on own', async () => {
    expect403(await call(t.app, 'GET', '/api/v1/user', { token: user.token }));
    expect403(await call(t.app, 'GET', '/api/v1/user', { token: user.token, query: { query: 'a' } }));
    for (const other of [otherUser.user.id, manager.user.id, admin.user.id]) {
      expect403(await call(t.app, 'GET', `/api/v1/user/${other}`, { token: user.token }));
    }
    expect200(await call(t.app, 'GET', `/api/v1/user/${user.user.id}`, { token: user.token }));
  });

  it.each(['manager', 'admin'] as const)('%s: lists users and shows users of every role', async (role) => {
    const viewer = role === 'manager' ? manager : admin;
    const list = await call(t.app, 'GET', '/api/v1/user', { token: viewer.token, query: { per_page: 100 } });
    expect200(list);
    const listed = list.json().users.data.map((u: { id: number }) => u.id);
    expect(listed).toEqual(expect.arrayContaining([user.user.id, manager.user.id, admin.user.id]));
    for (const target of [user.user, otherUser.user, manager.user, admin.user]) {
      const res = await call(t.app, 'GET', `/api/v1/user/${target.id}`, { token: viewer.token });
      expect200(res);
      expect(res.json().user.id).toBe(target.id);
    }
  });
});

describe('update or delete another user', () => {
  it('guest: 401 and nothing changes', async () => {
    const target = await account('user');
    expect401(await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, { body: profileUpdate(target.user) }));
    expect401(await call(t.app, 'DELETE', `/api/v1/user/${target.user.id}`));
    expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
  });

  it('user: 403 on users of every role, by real and overridden methods, and nothing changes', async () => {
    const actor = await account('user');
    for (const role of ROLES) {
      const target = await account(role);
      const token = actor.token;
      const url = `/api/v1/user/${target.user.id}`;
      expect403(await call(t.app, 'PUT', url, { token, body: profileUpdate(target.user) }));
      expect403(await call(t.app, 'PATCH', url, { token, body: profileUpdate(target.user) }));
      expect403(await call(t.app, 'POST', url, { token, body: { _method: 'PUT', ...profileUpdate(target.user) } }));
      expect403(
        await call(t.app, 'PUT', url, {
          token,
          body: profileUpdate(target.user, { password: 'hijacked-1', password_confirmation: 'hijacked-1' }),
        }),
      );
      expect403(await call(t.app, 'DELETE', url, { token }));
      expect403(await call(t.app, 'POST', url, { token, form: { _method: 'DELETE' } }));
      expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
      expect200(await call(t.app, 'GET', '/api/v1/user/me', { token: target.token }));
    }
  });

  it('manager: updates and deletes users whose role is user', async () => {
    const actor = await account('manager');
    const target = await account('user');
    const res = await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
      token: actor.token,
      body: profileUpdate(target.user),
    });
    expect200(res);
    expect((await userAsSeenByAdmin(target.user.id)).name).toBe(`${target.user.name} (edited)`);
    const withPassword = await call(t.app, 'POST', `/api/v1/user/${target.user.id}`, {
      token: actor.token,
      body: {
        _method: 'PUT',
        ...profileUpdate(target.user),
        password: 'reset-by-manager',
        password_confirmation: 'reset-by-manager',
      },
    });
    expect200(withPassword);
    expect((await login(t.app, target.user.email, 'reset-by-manager')).user.id).toBe(target.user.id);
    expect200(await call(t.app, 'DELETE', `/api/v1/user/${target.user.id}`, { token: actor.token }));
    await expectUserGone(target.user.id);
  });

  it.each(['manager', 'admin'] as const)(
    'manager: 403 on a user whose role is %s, and nothing changes',
    async (role) => {
      const actor = await account('manager');
      const target = await account(role);
      const url = `/api/v1/user/${target.user.id}`;
      expect403(await call(t.app, 'PUT', url, { token: actor.token, body: profileUpdate(target.user) }));
      expect403(
        await call(t.app, 'POST', url, { token: actor.token, body: { _method: 'PUT', ...profileUpdate(target.user) } }),
      );
      expect403(await call(t.app, 'DELETE', url, { token: actor.token }));
      expect403(await call(t.app, 'POST', url, { token: actor.token, body: { _method: 'DELETE' } }));
      expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
    },
  );

  it.each(ROLES)('admin: updates and deletes another user whose role is %s', async (role) => {
    const target = await account(role);
    expect200(
      await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
        token: admin.token,
        body: profileUpdate(target.user),
      }),
    );
    expect((await userAsSeenByAdmin(target.user.id)).name).toBe(`${target.user.name} (edited)`);
    expect200(await call(t.app, 'DELETE', `/api/v1/user/${target.user.id}`, { token: admin.token }));
    await expectUserGone(target.user.id);
  });
});

describe("change a role (own or another's)", () => {
  it('guest: 401 and nothing changes', async () => {
    const target = await account('user');
    expect401(
      await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
        body: profileUpdate(target.user, { role: 'admin' }),
      }),
    );
    expect((await userAsSeenByAdmin(target.user.id)).role).toBe('user');
  });

  it("user: 403 for own role and another's; nothing else in the request is applied", async () => {
    const actor = await account('user');
    expect403(
      await call(t.app, 'PUT', `/api/v1/user/${actor.user.id}`, {
        token: actor.token,
        body: profileUpdate(actor.user, { role: 'admin' }),
      }),
    );
    expect403(
      await call(t.app, 'POST', `/api/v1/user/${actor.user.id}`, {
        token: actor.token,
        form: { _method: 'PUT', ...profileUpdate(actor.user), role: 'manager' },
      }),
    );
    expect(await userAsSeenByAdmin(actor.user.id)).toEqual(actor.user);
    const target = await account('user');
    expect403(
      await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
        token: actor.token,
        body: profileUpdate(target.user, { role: 'manager' }),
      }),
    );
    expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
  });

  it("manager: 403 for own role and for a plain user's role; nothing else is applied", async () => {
    const actor = await account('manager');
    expect403(
      await call(t.app, 'PUT', `/api/v1/user/${actor.user.id}`, {
        token: actor.token,
        body: profileUpdate(actor.user, { role: 'admin' }),
      }),
    );
    expect(await userAsSeenByAdmin(actor.user.id)).toEqual(actor.user);
    const target = await account('user');
    expect403(
      await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
        token: actor.token,
        body: profileUpdate(target.user, { role: 'manager' }),
      }),
    );
    expect(await userAsSeenByAdmin(target.user.id)).toEqual(target.user);
  });

  it("admin: changes another user's role, both ways", async () => {
    const target = await account('user');
    const up = await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
      token: admin.token,
      body: profileUpdate(target.user, { role: 'admin' }),
    });
    expect200(up);
    expect(up.json().user.role).toBe('admin');
    // The new role takes effect on the target's existing token.
    expect200(await call(t.app, 'GET', '/api/v1/entry/all', { token: target.token }));
    const down = await call(t.app, 'PUT', `/api/v1/user/${target.user.id}`, {
      token: admin.token,
      body: profileUpdate(target.user, { role: 'manager' }),
    });
    expect200(down);
    expect((await userAsSeenByAdmin(target.user.id)).role).toBe('manager');
    expect403(await call(t.app, 'GET', '/api/v1/entry/all', { token: target.token }));
  });

  it('admin: 403 "You cannot change your own role." and nothing changes', async () => {
    const actor = await account('admin');
    const res = await call(t.app, 'PUT', `/api/v1/user/${actor.user.id}`, {
      token: actor.token,
      body: profileUpdate(actor.user, { role: 'user' }),
    });
    expect403(res, 'You cannot change your own role.');
    expect(await userAsSeenByAdmin(actor.user.id)).toEqual(actor.user);
  });
});

describe('own entries CRUD, own dashboard, own weekly report', () => {
  it('guest: 401 everywhere and the entry is untouched', async () => {
    const owner = await account('user');
    const id = owner.entry.id;
    expect401(await call(t.app, 'GET', '/api/v1/entry'));
    expect401(await call(t.app, 'POST', '/api/v1/entry', { body: entryUpdate }));
    expect401(await call(t.app, 'GET', `/api/v1/entry/${id}`));
    expect401(await call(t.app, 'PUT', `/api/v1/entry/${id}`, { body: entryUpdate }));
    expect401(await call(t.app, 'POST', `/api/v1/entry/${id}`, { body: { _method: 'PUT', ...entryUpdate } }));
    expect401(await call(t.app, 'DELETE', `/api/v1/entry/${id}`));
    expect401(await call(t.app, 'POST', `/api/v1/entry/${id}`, { form: { _method: 'DELETE' } }));
    expect401(await call(t.app, 'GET', '/api/v1/dashboard/data'));
    expect401(await call(t.app, 'GET', '/api/v1/report/weekly'));
    expect(await entryAsSeenByAdmin(id)).toEqual(owner.entry);
    const list = await call(t.app, 'GET', '/api/v1/entry', { token: owner.token });
    expect(list.json().entries.total).toBe(1);
  });

  it.each(ROLES)(
    '%s: creates, lists, reads, updates and deletes own runs; sees own dashboard and report',
    async (role) => {
      const me = await account(role);
      const created = await call(t.app, 'POST', '/api/v1/entry', {
        token: me.token,
        body: { date: '2026-03-12', distance: 6, time: '00:36:00' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().entry.id;
      const list = await call(t.app, 'GET', '/api/v1/entry', { token: me.token });
      expect200(list);
      expect(list.json().entries.data.map((e: { id: number }) => e.id)).toEqual([id, me.entry.id]);
      expect200(await call(t.app, 'GET', `/api/v1/entry/${id}`, { token: me.token }));
      const updated = await call(t.app, 'PUT', `/api/v1/entry/${id}`, { token: me.token, body: entryUpdate });
      expect200(updated);
      expect(updated.json().entry).toMatchObject({ ...entryUpdate, user_id: me.user.id });
      const dash = await call(t.app, 'GET', '/api/v1/dashboard/data', { token: me.token });
      expect200(dash);
      expect(dash.json().weekly_count).toBe(0);
      expect(dash.json().max_distance).toBe(7);
      const report = await call(t.app, 'GET', '/api/v1/report/weekly', { token: me.token, query: { year: 2026 } });
      expect200(report);
      expect(report.json().weekly.data.map((r: { count: number }) => r.count)).toEqual([2]);
      expect200(await call(t.app, 'DELETE', `/api/v1/entry/${id}`, { token: me.token }));
      expect((await call(t.app, 'GET', `/api/v1/entry/${id}`, { token: me.token })).statusCode).toBe(404);
    },
  );
});

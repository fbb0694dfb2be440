import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canLogin as loginSucceeds,
  NOT_FOUND,
  UNAUTHENTICATED,
  call,
  createTestApp,
  expectError,
  expectValidation,
  login,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { ISO_UTC, USER_KEYS, keysOf } from '../wire-keys.js';

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

describe('GET /api/v1/user/me', () => {
  it('returns the bare user object of the caller', async () => {
    const account = await registerUser(t.app, { name: 'Me Myself', timezone: 'Asia/Tokyo' });
    const res = await call(t.app, 'GET', '/api/v1/user/me', { token: account.token });
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(keysOf(me)).toEqual(USER_KEYS);
    expect(me).toEqual(account.user);
    expect(me).toMatchObject({ name: 'Me Myself', role: 'user', timezone: 'Asia/Tokyo' });
    expect(me.created_at).toMatch(ISO_UTC);
    expect(me.updated_at).toMatch(ISO_UTC);
    expect(me.date).toBe(me.created_at);
  });

  it('answers 401 "Unauthenticated." without a token', async () => {
    const res = await call(t.app, 'GET', '/api/v1/user/me');
    expectError(res, 401, 'Unauthenticated.');
  });
});

describe('GET /api/v1/user (list)', () => {
  // A separate app so the set of users is known exactly.
  let l: TestApp;
  let token: string;
  const names = [
    'Alice Springs',
    'Bob Marley',
    'Percent 100% Club',
    'Under_Score Runner',
    'Marks Runner',
    'Percent100 Plain',
    'Back\\slash Runner',
  ];
  const ids: number[] = [];
  beforeAll(async () => {
    l = await createTestApp();
    token = (await loginAdmin(l.app)).token;
    for (const [i, name] of names.entries()) {
      l.clock.advance({ minutes: 1 });
      // E-mails that match none of the queries below, so only names decide.
      ids.push((await registerUser(l.app, { name, email: `person${i}@example.net` })).user.id);
    }
    l.clock.advance({ minutes: 1 });
    ids.push((await registerUser(l.app, { name: 'Mail Only', email: 'special-mailbox@example.org' })).user.id);
  });
  afterAll(async () => {
    await l.close();
  });

  const list = (query: Record<string, string | number> = {}) => call(l.app, 'GET', '/api/v1/user', { token, query });

  it('returns {users: paged} newest first, with the defaults page 1 and per_page 15', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(keysOf(body)).toEqual(['users']);
    const users = body.users;
    expect(users.current_page).toBe(1);
    expect(users.per_page).toBe(15);
    expect(users.total).toBe(ids.length + 1);
    expect(users.last_page).toBe(1);
    expect(users.from).toBe(1);
    expect(users.to).toBe(ids.length + 1);
    expect(users.next_page_url).toBeNull();
    expect(users.prev_page_url).toBeNull();
    const listed = users.data.map((u: { id: number }) => u.id);
    expect(listed).toEqual([...ids].reverse().concat(users.data.at(-1).id));
    expect(users.data.at(-1).email).toBe('admin@example.com');
    for (const u of users.data) expect(keysOf(u)).toEqual(USER_KEYS);
  });

  it('pages with per_page, and every user appears exactly once across pages', async () => {
    const total = ids.length + 1; // 9
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await list({ page, per_page: 2 });
      expect(res.statusCode).toBe(200);
      const users = res.json().users;
      expect(users.current_page).toBe(page);
      expect(users.per_page).toBe(2);
      expect(users.total).toBe(total);
      expect(users.last_page).toBe(5);
      expect(users.from).toBe((page - 1) * 2 + 1);
      expect(users.to).toBe(Math.min(page * 2, total));
      if (page === 1) expect(users.prev_page_url).toBeNull();
      else expect(users.prev_page_url).toContain(`page=${page - 1}`);
      if (page === 5) expect(users.next_page_url).toBeNull();
      else expect(users.next_page_url).toContain(`page=${page + 1}`);
      seen.push(...users.data.map((u: { id: number }) => u.id));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('answers a page past the end with empty data and the correct last_page', async () => {
    const res = await list({ page: 99, per_page: 4 });
    expect(res.statusCode).toBe(200);
    const users = res.json().users;
    expect(users.data).toEqual([]);
    expect(users.current_page).toBe(99);
    expect(users.last_page).toBe(3);
    expect(users.total).toBe(ids.length + 1);
    expect(users.from).toBeNull();
    expect(users.to).toBeNull();
    expect(users.next_page_url).toBeNull();
  });

  it('accepts per_page 1 and 100', async () => {
    expect((await list({ per_page: 1 })).json().users.data).toHaveLength(1);
    expect((await list({ per_page: 100 })).json().users.data).toHaveLength(ids.length + 1);
  });

  it.each([
    ['per_page', { per_page: 0 }, 'The per_page must be at least 1.'],
    ['per_page', { per_page: 101 }, 'The per_page must not be greater than 100.'],
    ['per_page', { per_page: 'ten' }, 'The per_page must be an integer.'],
    ['per_page', { per_page: '2.5' }, 'The per_page must be an integer.'],
    ['page', { page: 0 }, 'The page must be at least 1.'],
    ['page', { page: -1 }, 'The page must be at least 1.'],
    ['page', { page: 'last' }, 'The page must be an integer.'],
    ['query', { query: 'q'.repeat(256) }, 'The query must not be greater than 255 characters.'],
  ])('rejects a bad %s %j with 422', async (field, query, message) => {
    expectValidation(await list(query), field, message);
  });

  const found = async (query: string) =>
    (await list({ query, per_page: 100 }))
      .json()
      .users.data.map((u: { name: string }) => u.name)
      .sort();

  it('matches a case-insensitive substring of the name', async () => {
    expect(await found('ALICE')).toEqual(['Alice Springs']);
    expect(await found('runner')).toEqual(['Back\\slash Runner', 'Marks Runner', 'Under_Score Runner']);
  });

  it('matches a substring of the e-mail', async () => {
    expect(await found('SPECIAL-MAILBOX')).toEqual(['Mail Only']);
    expect(await found('admin@')).toHaveLength(1);
  });

  it('takes % and _ literally', async () => {
    expect(await found('%')).toEqual(['Percent 100% Club']);
    expect(await found('100%')).toEqual(['Percent 100% Club']);
    expect(await found('_')).toEqual(['Under_Score Runner']);
    expect(await found('r_s')).toEqual(['Under_Score Runner']);
    expect(await found('\\')).toEqual(['Back\\slash Runner']);
  });

  it('reports the total and pages of the filtered list', async () => {
    const users = (await list({ query: 'runner', per_page: 2 })).json().users;
    expect(users.total).toBe(3);
    expect(users.last_page).toBe(2);
  });

  it('returns nothing (not everything) for a query that matches no one, including SQL-looking text', async () => {
    for (const query of ['zzz-nobody', "' OR '1'='1", '"; DROP TABLE users; --']) {
      const res = await list({ query });
      expect(res.statusCode).toBe(200);
      expect(res.json().users.data).toEqual([]);
      expect(res.json().users.total).toBe(0);
      expect(res.json().users.last_page).toBeGreaterThanOrEqual(1);
    }
    expect((await list()).json().users.total).toBe(ids.length + 1);
  });
});

describe('GET /api/v1/user/{id}', () => {
  it('returns {user}', async () => {
    const account = await registerUser(t.app, { name: 'Shown User' });
    const res = await call(t.app, 'GET', `/api/v1/user/${account.user.id}`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.json())).toEqual(['user']);
    expect(res.json().user).toEqual(account.user);
  });

  it.each(['999999', '0', 'abc', '2147483648', '1.5'])('answers 404 "Not found." for id %s', async (id) => {
    const res = await call(t.app, 'GET', `/api/v1/user/${id}`, { token: admin.token });
    expectError(res, 404);
    expect(res.json()).toEqual(NOT_FOUND);
  });
});

describe('PUT /api/v1/user/{id}', () => {
  it('updates name, e-mail and time zone and returns {user}', async () => {
    const account = await registerUser(t.app);
    t.clock.advance({ minutes: 5 });
    const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: { name: '  Renamed Runner ', email: ' Renamed.Runner@Example.com', timezone: 'America/Denver' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['user']);
    const user = res.json().user;
    expect(user).toMatchObject({
      id: account.user.id,
      name: 'Renamed Runner',
      email: 'renamed.runner@example.com',
      timezone: 'America/Denver',
      role: 'user',
    });
    expect(user.created_at).toBe(account.user.created_at);
    expect(Date.parse(user.updated_at)).toBeGreaterThan(Date.parse(account.user.updated_at));
    const me = await call(t.app, 'GET', '/api/v1/user/me', { token: account.token });
    expect(me.json()).toEqual(user);
    expect(await canLogin('renamed.runner@example.com', account.password)).toBe(true);
    expect(await canLogin(account.user.email, account.password)).toBe(false);
  });

  it('keeps the time zone when it is blank or absent', async () => {
    const account = await registerUser(t.app, { timezone: 'Europe/Lisbon' });
    for (const extra of [{ timezone: '' }, {}]) {
      const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
        token: account.token,
        body: { name: account.user.name, email: account.user.email, ...extra },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.timezone).toBe('Europe/Lisbon');
    }
  });

  it('counts the name in characters, not bytes or UTF-16 units', async () => {
    const account = await registerUser(t.app);
    for (const name of ['日'.repeat(255), 'Ünïcødé Rünner', '🏃'.repeat(200)]) {
      const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
        token: account.token,
        body: { name, email: account.user.email },
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.json().user.name).toBe(name);
    }
    const tooLong = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: { name: '日'.repeat(256), email: account.user.email },
    });
    expectValidation(tooLong, 'name', 'The name must not be greater than 255 characters.');
  });

  it('keeps the password when it is blank or absent', async () => {
    const account = await registerUser(t.app);
    for (const extra of [
      { password: '', password_confirmation: '' },
      {},
      { password: null, password_confirmation: null },
    ]) {
      const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
        token: account.token,
        body: { name: account.user.name, email: account.user.email, ...extra },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await canLogin(account.user.email, account.password)).toBe(true);
  });

  it('changes the password, revokes the other tokens and keeps the current one', async () => {
    const account = await registerUser(t.app);
    const other = await login(t.app, account.user.email, account.password);
    const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: {
        name: account.user.name,
        email: account.user.email,
        password: 'brand-new-pass',
        password_confirmation: 'brand-new-pass',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: account.token })).statusCode).toBe(200);
    const revoked = await call(t.app, 'GET', '/api/v1/user/me', { token: other.token });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual(UNAUTHENTICATED);
    expect(await canLogin(account.user.email, 'brand-new-pass')).toBe(true);
    expect(await canLogin(account.user.email, account.password)).toBe(false);
  });

  it("revokes all of the user's tokens when an admin changes the password", async () => {
    const account = await registerUser(t.app);
    const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: admin.token,
      body: {
        name: account.user.name,
        email: account.user.email,
        password: 'set-by-admin-1',
        password_confirmation: 'set-by-admin-1',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: account.token })).statusCode).toBe(401);
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: admin.token })).statusCode).toBe(200);
    expect(await canLogin(account.user.email, 'set-by-admin-1')).toBe(true);
  });

  it("rejects an e-mail taken by someone else (any case) and accepts the user's own", async () => {
    const taken = await registerUser(t.app);
    const account = await registerUser(t.app);
    const clash = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: { name: 'Clash', email: taken.user.email.toUpperCase() },
    });
    expectValidation(clash, 'email');
    const me = await call(t.app, 'GET', '/api/v1/user/me', { token: account.token });
    expect(me.json()).toEqual(account.user);

    const own = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: { name: 'Same Mail', email: account.user.email.toUpperCase() },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().user.email).toBe(account.user.email);
  });

  it.each([
    ['name', { name: '' }, 'The name field is required.'],
    ['name', { name: 'x'.repeat(256) }, 'The name must not be greater than 255 characters.'],
    ['email', { email: undefined }, 'The email field is required.'],
    ['email', { email: 'nope' }, 'The email must be a valid email address.'],
    ['password', { password: 'short', password_confirmation: 'short' }, 'The password must be at least 8 characters.'],
    [
      'password',
      { password: 'long-enough-1', password_confirmation: 'different-1' },
      'The password confirmation does not match.',
    ],
    ['timezone', { timezone: 'Not/AZone' }, 'The timezone must be a valid time zone.'],
    ['role', { role: 'superuser' }, 'The role must be one of user, manager or admin.'],
  ])('rejects a bad %s %j with 422 and changes nothing', async (field, overrides, message) => {
    const account = await registerUser(t.app);
    const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: admin.token,
      body: { name: 'Changed Name', email: account.user.email, ...overrides },
    });
    expectValidation(res, field, message);
    const after = await call(t.app, 'GET', `/api/v1/user/${account.user.id}`, { token: admin.token });
    expect(after.json().user).toEqual(account.user);
  });

  it('ignores id, created_at and other unknown fields in the body', async () => {
    const account = await registerUser(t.app);
    const res = await call(t.app, 'PUT', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: {
        name: account.user.name,
        email: account.user.email,
        id: 1,
        created_at: '2000-01-01T00:00:00.000Z',
        password_hash: 'x',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: account.user.id, created_at: account.user.created_at });
    expect(await canLogin(account.user.email, account.password)).toBe(true);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await call(t.app, 'PUT', '/api/v1/user/999999', {
      token: admin.token,
      body: { name: 'Nobody', email: 'nobody-put@example.com' },
    });
    expectError(res, 404, 'Not found.');
  });

  it('is reached by POST with _method PUT in any case, JSON or form-encoded', async () => {
    const account = await registerUser(t.app);
    const json = await call(t.app, 'POST', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: { _method: 'put', name: 'Via Override', email: account.user.email },
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().user.name).toBe('Via Override');
    const form = await call(t.app, 'POST', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      form: { _method: 'PUT', name: 'Via Form', email: account.user.email, password: '', password_confirmation: '' },
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().user.name).toBe('Via Form');
    const patch = await call(t.app, 'POST', `/api/v1/user/${account.user.id}`, {
      token: account.token,
      body: { _method: 'Patch', name: 'Via Patch', email: account.user.email },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json().user.name).toBe('Via Patch');
    expect(await canLogin(account.user.email, account.password)).toBe(true);
  });
});

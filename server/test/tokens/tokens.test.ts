/** Personal API tokens (CONTRACT.md §11): creation, listing, scopes, expiry and revocation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCreatedSchema, TokensEnvelopeSchema, type PersonalToken } from '../../../core/tokens.js';
import { purgeExpired } from '../../features/auth/auth.service.js';
import {
  NOT_FOUND,
  UNAUTHENTICATED,
  call,
  createEntry,
  createTestApp,
  expectError,
  expectValidation,
  loginAdmin,
  makeAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { ISO_UTC, keysOf } from '../wire-keys.js';

const TOKEN_KEYS = ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'scope'];
const RUN = { date: '2026-03-17', distance: 10, time: '00:50:00' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function createToken(
  token: string,
  body: Record<string, unknown>,
): Promise<{ token: PersonalToken; plain: string }> {
  const res = await call(t.app, 'POST', '/api/v1/tokens', { token, body });
  expect(res.statusCode, res.body).toBe(201);
  const parsed = TokenCreatedSchema.parse(res.json());
  return { token: parsed.token, plain: parsed.plain_text_token };
}

async function listTokens(token: string): Promise<PersonalToken[]> {
  const res = await call(t.app, 'GET', '/api/v1/tokens', { token });
  expect(res.statusCode, res.body).toBe(200);
  return TokensEnvelopeSchema.parse(res.json()).tokens;
}

const me = (token: string) => call(t.app, 'GET', '/api/v1/user/me', { token });

async function expectWorks(token: string): Promise<void> {
  expect((await me(token)).statusCode).toBe(200);
}
async function expectRevoked(token: string): Promise<void> {
  const res = await me(token);
  expectError(res, 401);
  expect(res.json()).toEqual(UNAUTHENTICATED);
}

describe('creating a personal token', () => {
  it('answers 201 with the token once in plain text: long, random, never stored as such', async () => {
    const sqlite = await createTestApp({}, { sqliteFile: true });
    try {
      const runner = await registerUser(sqlite.app);
      const plains: string[] = [];
      for (const scope of ['read', 'write']) {
        const res = await call(sqlite.app, 'POST', '/api/v1/tokens', {
          token: runner.token,
          body: { name: ` My ${scope} script `, scope },
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(keysOf(res.json())).toEqual(['plain_text_token', 'token']);
        const body = TokenCreatedSchema.parse(res.json());
        expect(keysOf(body.token)).toEqual(TOKEN_KEYS);
        expect(body.token).toMatchObject({ name: `My ${scope} script`, scope, last_used_at: null, expires_at: null });
        expect(body.token.created_at).toBe(sqlite.clock.now().toISOString());
        // 32 random bytes are 43 characters of base64url.
        expect(body.plain_text_token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
        plains.push(body.plain_text_token);
      }
      expect(new Set(plains).size).toBe(2);
      const dump = (await sqlite.dumpDatabase()) ?? '';
      expect(dump.length).toBeGreaterThan(0);
      for (const plain of plains) {
        expect(dump).not.toContain(plain);
        expect(dump).not.toContain(plain.slice(3));
      }
    } finally {
      await sqlite.close();
    }
  });

  it('sets expires_at expires_in_days ahead, and accepts form bodies', async () => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/tokens', {
      token: runner.token,
      form: { name: 'cron', scope: 'write', expires_in_days: '30' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { token } = TokenCreatedSchema.parse(res.json());
    expect(token.expires_at).toMatch(ISO_UTC);
    expect(Date.parse(token.expires_at ?? '') - t.clock.now().getTime()).toBe(30 * 86_400_000);
  });

  it.each([
    ['name', { scope: 'read' }, 'The name field is required.'],
    ['name', { name: '   ', scope: 'read' }, 'The name field is required.'],
    ['name', { name: 'x'.repeat(101), scope: 'read' }, 'The name must not be greater than 100 characters.'],
    ['name', { name: 'a\u0000b', scope: 'read' }, 'The name must not contain control characters.'],
    ['scope', { name: 'n' }, 'The scope field is required.'],
    ['scope', { name: 'n', scope: 'admin' }, 'The scope must be read or write.'],
    ['expires_in_days', { name: 'n', scope: 'read', expires_in_days: 0 }, undefined],
    ['expires_in_days', { name: 'n', scope: 'read', expires_in_days: 366 }, undefined],
    ['expires_in_days', { name: 'n', scope: 'read', expires_in_days: 1.5 }, undefined],
    ['expires_in_days', { name: 'n', scope: 'read', expires_in_days: 'soon' }, undefined],
  ])('refuses a bad %s with 422 (%j)', async (field, body, message) => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/tokens', { token: runner.token, body });
    expectValidation(res, field, message ?? 'The expires_in_days must be a whole number from 1 to 365.');
    expect(await listTokens(runner.token)).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/tokens'],
      ['POST', '/api/v1/tokens'],
      ['DELETE', '/api/v1/tokens/1'],
    ] as const) {
      expect((await call(t.app, method, url, { body: { name: 'n', scope: 'read' } })).json()).toEqual(UNAUTHENTICATED);
    }
  });
});

describe('the list of tokens', () => {
  it("shows only the caller's personal tokens, newest first, with their last use", async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    await createToken(other.token, { name: 'not mine', scope: 'write' });
    const first = await createToken(runner.token, { name: 'first', scope: 'read' });
    const second = await createToken(runner.token, { name: 'second', scope: 'write', expires_in_days: 7 });
    const listed = await listTokens(runner.token);
    expect(listed.map((token) => token.name)).toEqual(['second', 'first']);
    expect(listed[0]).toEqual(second.token);
    expect(listed[1]).toEqual(first.token);

    t.clock.advance({ minutes: 5 });
    await expectWorks(first.plain);
    const used = (await listTokens(runner.token)).find((token) => token.id === first.token.id);
    expect(used?.last_used_at).toBe(t.clock.now().toISOString());
    // Refreshed at most once a minute, so that reading needs no write.
    t.clock.advance({ seconds: 20 });
    await expectWorks(first.plain);
    expect((await listTokens(runner.token)).find((token) => token.id === first.token.id)?.last_used_at).toBe(
      used?.last_used_at,
    );
    t.clock.advance({ minutes: 2 });
    await expectWorks(first.plain);
    expect((await listTokens(runner.token)).find((token) => token.id === first.token.id)?.last_used_at).toBe(
      t.clock.now().toISOString(),
    );
  });
});

describe('revoking a token', () => {
  it('works for the owner only: anyone else, and a sign-in token id, get 404', async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const admin = await loginAdmin(t.app);
    const mine = await createToken(runner.token, { name: 'mine', scope: 'write' });

    for (const caller of [other, admin]) {
      const res = await call(t.app, 'DELETE', `/api/v1/tokens/${mine.token.id}`, { token: caller.token });
      expectError(res, 404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    await expectWorks(mine.plain);
    expect(await listTokens(runner.token)).toHaveLength(1);

    // The runner's own sign-in token is not a personal token: its id is unknown here.
    const ids = (await listTokens(runner.token)).map((token) => token.id);
    for (let id = 1; id < mine.token.id + 5; id++) {
      if (ids.includes(id)) continue;
      expect((await call(t.app, 'DELETE', `/api/v1/tokens/${id}`, { token: runner.token })).statusCode).toBe(404);
    }
    await expectWorks(runner.token);
    await expectWorks(other.token);

    const res = await call(t.app, 'DELETE', `/api/v1/tokens/${mine.token.id}`, { token: runner.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['message']);
    await expectRevoked(mine.plain);
    expect(await listTokens(runner.token)).toEqual([]);
    expectError(await call(t.app, 'DELETE', `/api/v1/tokens/${mine.token.id}`, { token: runner.token }), 404);
    expectError(await call(t.app, 'DELETE', '/api/v1/tokens/abc', { token: runner.token }), 404);
  });

  it('also as POST with _method DELETE, as the web app sends it', async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const mine = await createToken(runner.token, { name: 'mine', scope: 'read' });
    const url = `/api/v1/tokens/${mine.token.id}`;
    expectError(await call(t.app, 'POST', url, { token: other.token, body: { _method: 'delete' } }), 404);
    expectError(await call(t.app, 'POST', url, { token: runner.token, body: { _method: 'PUT' } }), 405);
    await expectWorks(mine.plain);
    expect((await call(t.app, 'POST', url, { token: runner.token, body: { _method: 'delete' } })).statusCode).toBe(200);
    await expectRevoked(mine.plain);
  });
});

describe('a read token', () => {
  let runner: Account;
  let read: string;
  beforeAll(async () => {
    runner = await registerUser(t.app);
    read = (await createToken(runner.token, { name: 'read', scope: 'read' })).plain;
  });

  it('reads what its owner may read', async () => {
    await createEntry(t.app, runner.token, RUN);
    expect((await call(t.app, 'GET', '/api/v1/user/me', { token: read })).json()).toMatchObject({ id: runner.user.id });
    const entries = await call(t.app, 'GET', '/api/v1/entry', { token: read });
    expect(entries.statusCode).toBe(200);
    expect(entries.json().entries.total).toBe(1);
    expect((await call(t.app, 'GET', '/api/v1/dashboard/data', { token: read })).statusCode).toBe(200);
    expect((await call(t.app, 'GET', `/api/v1/user/${runner.user.id}`, { token: read })).statusCode).toBe(200);
    // Still only what the owner may: another user's profile is refused as for the owner.
    expectError(await call(t.app, 'GET', '/api/v1/entry/all', { token: read }), 403);
  });

  it('gets 403 on every other method and on /tokens, and changes nothing', async () => {
    const entry = await createEntry(t.app, runner.token, RUN);
    const attempts = [
      call(t.app, 'POST', '/api/v1/entry', { token: read, body: RUN }),
      call(t.app, 'PUT', `/api/v1/entry/${entry.id}`, { token: read, body: RUN }),
      call(t.app, 'POST', `/api/v1/entry/${entry.id}`, { token: read, body: { _method: 'DELETE' } }),
      call(t.app, 'DELETE', `/api/v1/entry/${entry.id}`, { token: read }),
      call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
        token: read,
        body: { name: 'Renamed', email: runner.user.email, units: 'mi' },
      }),
      call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: read }),
      call(t.app, 'POST', '/api/v1/auth/logout', { token: read }),
      call(t.app, 'GET', '/api/v1/tokens', { token: read }),
      call(t.app, 'POST', '/api/v1/tokens', { token: read, body: { name: 'n', scope: 'write' } }),
    ];
    for (const res of await Promise.all(attempts)) expectError(res, 403);
    const user = (await me(runner.token)).json();
    expect(user).toMatchObject({ name: runner.user.name, units: 'km' });
    expect((await call(t.app, 'GET', `/api/v1/entry/${entry.id}`, { token: read })).statusCode).toBe(200);
    await expectWorks(read);
    expect(await listTokens(runner.token)).toHaveLength(1);
  });
});

describe('a write token', () => {
  it('does what its owner may: runs and profile, preferences included', async () => {
    const runner = await registerUser(t.app);
    const write = (await createToken(runner.token, { name: 'write', scope: 'write' })).plain;
    const created = await call(t.app, 'POST', '/api/v1/entry', { token: write, body: RUN });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().entry.id as number;
    expect(
      (await call(t.app, 'PUT', `/api/v1/entry/${id}`, { token: write, body: { ...RUN, distance: 12 } })).json().entry,
    ).toMatchObject({ distance: 12 });
    const profile = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: write,
      body: { name: 'Scripted', email: runner.user.email, units: 'mi', theme: 'dark' },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().user).toMatchObject({ name: 'Scripted', units: 'mi', theme: 'dark' });
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${id}`, { token: write })).statusCode).toBe(200);
    // Never more than the owner: everyone's runs are for admins.
    expectError(await call(t.app, 'GET', '/api/v1/entry/all', { token: write }), 403);
  });

  it('gets 403 on tokens, e-mail, password and deleting the account', async () => {
    const runner = await registerUser(t.app);
    const write = (await createToken(runner.token, { name: 'write', scope: 'write' })).plain;
    const url = `/api/v1/user/${runner.user.id}`;
    const refused = [
      call(t.app, 'GET', '/api/v1/tokens', { token: write }),
      call(t.app, 'POST', '/api/v1/tokens', { token: write, body: { name: 'n', scope: 'write' } }),
      call(t.app, 'DELETE', '/api/v1/tokens/1', { token: write }),
      call(t.app, 'PUT', url, { token: write, body: { name: 'n', email: 'new-address@example.com' } }),
      call(t.app, 'PUT', url, {
        token: write,
        body: {
          name: 'n',
          email: runner.user.email,
          password: 'new-password-1',
          password_confirmation: 'new-password-1',
        },
      }),
      call(t.app, 'POST', url, {
        token: write,
        form: { _method: 'PUT', name: 'n', email: 'other-address@example.com' },
      }),
      call(t.app, 'DELETE', url, { token: write }),
      call(t.app, 'POST', url, { token: write, body: { _method: 'DELETE' } }),
    ];
    for (const res of await Promise.all(refused)) expectError(res, 403);
    const user = (await me(runner.token)).json();
    expect(user).toMatchObject({ name: runner.user.name, email: runner.user.email });
    await expectWorks(write);
    expect(await listTokens(runner.token)).toHaveLength(1);
    // The password is unchanged: the runner still signs in with the old one.
    const login = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: runner.password },
      ip: '10.250.0.1',
    });
    expect(login.statusCode).toBe(200);
  });

  it("of an admin may delete another user's account, as the admin may", async () => {
    const admin = await registerUser(t.app);
    await makeAdmin(t.app, admin.user);
    const write = (await createToken(admin.token, { name: 'admin script', scope: 'write' })).plain;
    const doomed = await registerUser(t.app);
    expect((await call(t.app, 'DELETE', `/api/v1/user/${doomed.user.id}`, { token: write })).statusCode).toBe(200);
    await expectRevoked(doomed.token);
  });
});

describe('expiry', () => {
  it('a token with expires_in_days works until then, and never idle-expires', async () => {
    const runner = await registerUser(t.app);
    const expiring = (await createToken(runner.token, { name: 'a day', scope: 'read', expires_in_days: 1 })).plain;
    const forever = (await createToken(runner.token, { name: 'forever', scope: 'read' })).plain;
    const year = (await createToken(runner.token, { name: 'a year', scope: 'write', expires_in_days: 365 })).plain;
    t.clock.advance({ hours: 23, minutes: 59 });
    await expectWorks(expiring);
    t.clock.advance({ minutes: 1 });
    await expectRevoked(expiring);
    await expectWorks(forever);

    // 400 days without any use: the sign-in token is gone, the personal token without expiry is not.
    t.clock.advance({ days: 400 });
    await expectRevoked(runner.token);
    await expectRevoked(year);
    await expectWorks(forever);
  });

  it('housekeeping forgets expired personal tokens and idle sign-in tokens only', async () => {
    const runner = await registerUser(t.app);
    const signedIn = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: runner.user.email, password: runner.password },
      ip: '10.250.0.2',
    });
    const session = signedIn.json().access_token as string;
    const expiring = await createToken(session, { name: 'short', scope: 'read', expires_in_days: 2 });
    const forever = await createToken(session, { name: 'forever', scope: 'read' });
    t.clock.advance({ days: 3 });
    await purgeExpired(t.app.appContext);
    const names = (await listTokens(session)).map((token) => token.name);
    expect(names).toEqual(['forever']);
    await expectRevoked(expiring.plain);
    t.clock.advance({ days: 31 });
    await purgeExpired(t.app.appContext);
    await expectRevoked(session);
    await expectWorks(forever.plain);
  });
});

describe('revocation', () => {
  it('logout keeps personal tokens; logging out with a personal token revokes nothing', async () => {
    const runner = await registerUser(t.app);
    const read = (await createToken(runner.token, { name: 'read', scope: 'read' })).plain;
    const write = (await createToken(runner.token, { name: 'write', scope: 'write' })).plain;
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: write })).statusCode).toBe(200);
    await expectWorks(write);
    await expectWorks(runner.token);
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: runner.token })).statusCode).toBe(200);
    await expectRevoked(runner.token);
    await expectWorks(read);
    await expectWorks(write);
  });

  it("a password change revokes the user's personal tokens, whoever changes it", async () => {
    const runner = await registerUser(t.app);
    const tokens = [
      (await createToken(runner.token, { name: 'read', scope: 'read' })).plain,
      (await createToken(runner.token, { name: 'write', scope: 'write' })).plain,
    ];
    const other = await registerUser(t.app);
    const othersToken = (await createToken(other.token, { name: 'other', scope: 'read' })).plain;
    const password = 'brand-new-password';
    const res = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, password, password_confirmation: password },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const token of tokens) await expectRevoked(token);
    await expectWorks(runner.token);
    await expectWorks(othersToken);
    expect(await listTokens(runner.token)).toEqual([]);

    const again = (await createToken(runner.token, { name: 'again', scope: 'read' })).plain;
    const admin = await loginAdmin(t.app);
    const byAdmin = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: admin.token,
      body: {
        name: runner.user.name,
        email: runner.user.email,
        password: `${password}2`,
        password_confirmation: `${password}2`,
      },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    await expectRevoked(again);
    await expectWorks(othersToken);
  });

  it('deleting the user revokes their personal tokens', async () => {
    const runner = await registerUser(t.app);
    const token = (await createToken(runner.token, { name: 'read', scope: 'read' })).plain;
    expect((await call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: runner.token })).statusCode).toBe(
      200,
    );
    await expectRevoked(token);
  });
});

describe('the OpenAPI document', () => {
  it('declares the bearer scheme and the tokens each route accepts', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json')).json();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.description).toMatch(/read/);
    expect(doc.paths['/api/v1/tokens'].get['x-token-scopes']).toEqual(['sign-in']);
    expect(doc.paths['/api/v1/tokens'].post['x-token-scopes']).toEqual(['sign-in']);
    expect(doc.paths['/api/v1/tokens/{id}'].delete['x-token-scopes']).toEqual(['sign-in']);
    expect(doc.paths['/api/v1/entry'].get['x-token-scopes']).toEqual(['sign-in', 'read', 'write']);
    expect(doc.paths['/api/v1/entry'].post['x-token-scopes']).toEqual(['sign-in', 'write']);
    expect(doc.paths['/api/v1/auth/login'].post['x-token-scopes']).toBeUndefined();
  });
});

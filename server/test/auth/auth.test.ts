import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BAD_CREDENTIALS,
  DEFAULT_PASSWORD,
  UNAUTHENTICATED,
  call,
  createTestApp,
  expectError,
  expectValidation,
  login,
  nextIp,
  registerUser,
  type TestApp,
} from '../helpers.js';
import { USER_KEYS, keysOf } from '../wire-keys.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function register(body: unknown) {
  return call(t.app, 'POST', '/api/v1/auth/register', { body, ip: nextIp() });
}

const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Valid Runner',
  email: `valid-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'long-enough-1',
  password_confirmation: 'long-enough-1',
  ...overrides,
});

describe('POST /api/v1/auth/register', () => {
  it('creates a user and answers 201 {user, access_token, token_type: "Bearer"} with a working token', async () => {
    const res = await register({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'analytical-1',
      password_confirmation: 'analytical-1',
      timezone: 'Europe/Berlin',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(keysOf(body)).toEqual(['access_token', 'token_type', 'user']);
    expect(body.token_type).toBe('Bearer');
    expect(typeof body.access_token).toBe('string');
    expect(body.access_token.length).toBeGreaterThanOrEqual(40);
    expect(keysOf(body.user)).toEqual(USER_KEYS);
    expect(body.user).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'user',
      timezone: 'Europe/Berlin',
    });

    const me = await call(t.app, 'GET', '/api/v1/user/me', { token: body.access_token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body.user);
  });

  it('trims the name and e-mail and lower-cases the e-mail', async () => {
    const res = await register(valid({ name: '  Grace Hopper  ', email: '  Grace.HOPPER@Example.COM ' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user).toMatchObject({ name: 'Grace Hopper', email: 'grace.hopper@example.com' });
  });

  it('defaults the time zone to UTC', async () => {
    const res = await register(valid());
    expect(res.statusCode).toBe(201);
    expect(res.json().user.timezone).toBe('UTC');
  });

  it.each(['admin', 'manager'])('ignores role %j in the body: a new account is always a user', async (role) => {
    const res = await register(valid({ role }));
    expect(res.statusCode).toBe(201);
    expect(res.json().user.role).toBe('user');
    const me = await call(t.app, 'GET', '/api/v1/user/me', { token: res.json().access_token });
    expect(me.json().role).toBe('user');
    const list = await call(t.app, 'GET', '/api/v1/user', { token: res.json().access_token });
    expect(list.statusCode).toBe(403);
  });

  it('rejects an e-mail already taken, whatever its case, with 422 on email', async () => {
    const first = await register(valid({ email: 'dup@example.com', name: 'First Owner' }));
    expect(first.statusCode).toBe(201);
    const second = await register(valid({ email: 'DUP@Example.com', name: 'Second Comer' }));
    expectValidation(second, 'email');
    // The original account is untouched and still logs in with its own password.
    const again = await login(t.app, 'dup@example.com', 'long-enough-1');
    expect(again.user.name).toBe('First Owner');
  });

  it('accepts a form-urlencoded body', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/register', {
      form: {
        name: 'Form Runner',
        email: 'form-runner@example.com',
        password: 'form-pass-1',
        password_confirmation: 'form-pass-1',
      },
      ip: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user).toMatchObject({ name: 'Form Runner', email: 'form-runner@example.com', role: 'user' });
  });

  it('reports every missing field, the first (name) as the message', async () => {
    const res = await register({});
    const errors = expectValidation(res, 'name', 'The name field is required.');
    expect(res.json().message).toBe('The name field is required.');
    expect(errors.email).toEqual(['The email field is required.']);
    expect(errors.password).toEqual(['The password field is required.']);
  });

  it.each([
    ['name', { name: '   ' }, 'The name field is required.'],
    ['name', { name: 'x'.repeat(256) }, 'The name must not be greater than 255 characters.'],
    ['name', { name: 42 }, 'The name must be a string.'],
    ['email', { email: '' }, 'The email field is required.'],
    ['email', { email: 'not-an-email' }, 'The email must be a valid email address.'],
    ['email', { email: 'two@@example.com' }, 'The email must be a valid email address.'],
    ['email', { email: `${'a'.repeat(250)}@example.com` }, 'The email must not be greater than 255 characters.'],
    ['password', { password: '', password_confirmation: '' }, 'The password field is required.'],
    [
      'password',
      { password: 'short-1', password_confirmation: 'short-1' },
      'The password must be at least 8 characters.',
    ],
    [
      'password',
      { password: 'p'.repeat(129), password_confirmation: 'p'.repeat(129) },
      'The password must not be greater than 128 characters.',
    ],
    [
      'password',
      { password: 'long-enough-1', password_confirmation: 'long-enough-2' },
      'The password confirmation does not match.',
    ],
    ['password', { password_confirmation: undefined }, 'The password confirmation does not match.'],
    ['timezone', { timezone: 'Mars/Olympus_Mons' }, 'The timezone must be a valid time zone.'],
  ])('rejects a bad %s: %j', async (field, overrides, message) => {
    const body = valid(overrides);
    const res = await register(body);
    expectValidation(res, field, message);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  });

  it('accepts a name of exactly 255 characters and a password of exactly 8 and 128', async () => {
    expect((await register(valid({ name: 'n'.repeat(255) }))).statusCode).toBe(201);
    expect((await register(valid({ password: '12345678', password_confirmation: '12345678' }))).statusCode).toBe(201);
    const long = 'p'.repeat(128);
    expect((await register(valid({ password: long, password_confirmation: long }))).statusCode).toBe(201);
  });

  it('creates nothing when validation fails', async () => {
    const res = await register(valid({ email: 'never-created@example.com', password_confirmation: 'something-else' }));
    expect(res.statusCode).toBe(422);
    const attempt = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'never-created@example.com', password: 'long-enough-1' },
      ip: nextIp(),
    });
    expectError(attempt, 401, BAD_CREDENTIALS);
  });
});

describe('POST /api/v1/auth/login', () => {
  let account: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    account = await registerUser(t.app, { email: 'login-case@example.com', name: 'Login Case' });
  });

  it('answers 200 {user, access_token, token_type} with a new working token', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'login-case@example.com', password: DEFAULT_PASSWORD },
      ip: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(keysOf(body)).toEqual(['access_token', 'token_type', 'user']);
    expect(body.token_type).toBe('Bearer');
    expect(body.user).toEqual(account.user);
    expect(body.access_token).not.toBe(account.token);
    for (const token of [body.access_token, account.token]) {
      const me = await call(t.app, 'GET', '/api/v1/user/me', { token });
      expect(me.statusCode).toBe(200);
      expect(me.json().id).toBe(account.user.id);
    }
  });

  it('finds the account whatever the case of the e-mail and with surrounding spaces', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: '  Login-CASE@Example.com ', password: DEFAULT_PASSWORD },
      ip: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.id).toBe(account.user.id);
  });

  it('accepts a form-urlencoded body', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      form: { email: 'login-case@example.com', password: DEFAULT_PASSWORD },
      ip: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers 401 with the same body for a wrong password and for an unknown e-mail', async () => {
    const wrong = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'login-case@example.com', password: 'not-the-password' },
      ip: nextIp(),
    });
    expectError(wrong, 401, BAD_CREDENTIALS);
    const unknown = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'nobody-here@example.com', password: 'not-the-password' },
      ip: nextIp(),
    });
    expectError(unknown, 401, BAD_CREDENTIALS);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('does not trim or fold the case of the password', async () => {
    for (const password of [` ${DEFAULT_PASSWORD}`, DEFAULT_PASSWORD.toUpperCase()]) {
      const res = await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { email: 'login-case@example.com', password },
        ip: nextIp(),
      });
      expectError(res, 401, BAD_CREDENTIALS);
    }
  });

  it('requires both fields (422)', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', { body: {}, ip: nextIp() });
    const errors = expectValidation(res, 'email', 'The email field is required.');
    expect(errors.password).toEqual(['The password field is required.']);
    const noPassword = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'login-case@example.com', password: '' },
      ip: nextIp(),
    });
    expectValidation(noPassword, 'password', 'The password field is required.');
  });
});

describe('POST /api/v1/auth/logout', () => {
  it('answers 200 {message} and the token stops working at once; other sessions stay', async () => {
    const account = await registerUser(t.app);
    const other = await login(t.app, account.user.email, account.password);
    const res = await call(t.app, 'POST', '/api/v1/auth/logout', { token: account.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(keysOf(res.json())).toEqual(['message']);
    expect(typeof res.json().message).toBe('string');

    const after = await call(t.app, 'GET', '/api/v1/user/me', { token: account.token });
    expectError(after, 401);
    expect(after.json()).toEqual(UNAUTHENTICATED);
    const again = await call(t.app, 'POST', '/api/v1/auth/logout', { token: account.token });
    expect(again.json()).toEqual(UNAUTHENTICATED);
    expect(again.statusCode).toBe(401);

    const stillIn = await call(t.app, 'GET', '/api/v1/user/me', { token: other.token });
    expect(stillIn.statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/logout');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHENTICATED);
  });
});

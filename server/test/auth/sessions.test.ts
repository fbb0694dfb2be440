import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BAD_CREDENTIALS,
  ADMIN_PASSWORD,
  DEFAULT_PASSWORD,
  NOT_FOUND,
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

const TOO_MANY = /^Too many attempts\. Try again in (\d+) seconds\.$/;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const me = (token: string) => call(t.app, 'GET', '/api/v1/user/me', { token });

describe('access tokens', () => {
  it('are long, random and different for every session', async () => {
    const account = await registerUser(t.app);
    const tokens = [account.token];
    for (let i = 0; i < 3; i++) tokens.push((await login(t.app, account.user.email, account.password)).token);
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) {
      // 256 bits are at least 43 characters in base64url and 64 in hex.
      expect(token.length).toBeGreaterThanOrEqual(43);
      expect((await me(token)).statusCode).toBe(200);
    }
  });

  it.each([
    ['no header', {}],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['garbage', { authorization: 'Bearer not-a-real-token' }],
    ['a long random token', { authorization: `Bearer ${'A'.repeat(64)}` }],
    ['another scheme', { authorization: 'Basic YWRtaW5AZXhhbXBsZS5jb206YWRtaW4tcGFzc3dvcmQtMQ==' }],
  ])('answer 401 "Unauthenticated." for %s', async (_label, headers) => {
    const res = await call(t.app, 'GET', '/api/v1/user/me', { headers });
    expectError(res, 401);
    expect(res.json()).toEqual(UNAUTHENTICATED);
  });

  it('do not work when altered, truncated or without the Bearer prefix', async () => {
    const { token } = await registerUser(t.app);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const header of [`Bearer ${flipped}`, `Bearer ${token.slice(0, -4)}`, `Bearer ${token}x`, token]) {
      const res = await call(t.app, 'GET', '/api/v1/user/me', { headers: { authorization: header } });
      expect(res.statusCode, header).toBe(401);
      expect(res.json()).toEqual(UNAUTHENTICATED);
    }
    expect((await me(token)).statusCode).toBe(200);
  });

  it('each answer simultaneous requests with their own runner, and a revoked one at once', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => registerUser(t.app)));
    const revoked = await login(t.app, accounts[0]!.user.email, accounts[0]!.password);
    const lookups = t.app.appContext.memory.tokenOwners;
    const statementsBefore = lookups?.statements() ?? 0;
    const rounds = 6;
    const answers = await Promise.all(
      Array.from({ length: rounds }, () => accounts.map(async (a) => ({ a, res: await me(a.token) }))).flat(),
    );
    for (const { a, res } of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(a.user.id);
    }
    if (t.config.databaseUrl.startsWith('postgres')) {
      // Lookups asked together share statements (db/batched.ts); SQLite looks each up in-process.
      const statements = lookups!.statements() - statementsBefore;
      expect(statements).toBeGreaterThan(0);
      expect(statements).toBeLessThan(answers.length / 2);
    }

    // Revoked while other lookups are in flight: the next request with it is refused.
    const busy = accounts.map((a) => me(a.token));
    expect((await call(t.app, 'POST', '/api/v1/auth/logout', { token: revoked.token })).statusCode).toBe(200);
    const [after, ...others] = await Promise.all([me(revoked.token), ...accounts.map((a) => me(a.token)), ...busy]);
    expectError(after!, 401);
    for (const res of others) expect(res.statusCode).toBe(200);
  });

  it('are stored only as a hash, and passwords only hashed', async () => {
    const inspected = await createTestApp({}, { sqliteFile: true });
    try {
      const account = await registerUser(inspected.app, { password: 'plain-text-password-42' });
      const second = await login(inspected.app, account.user.email, account.password);
      const admin = await login(inspected.app, 'admin@example.com', ADMIN_PASSWORD);
      const dump = await inspected.dumpDatabase();
      expect(dump).not.toBeNull();
      expect(dump).toContain(account.user.email); // the dump does show the data
      for (const secret of [account.token, second.token, admin.token, 'plain-text-password-42', ADMIN_PASSWORD]) {
        expect(dump).not.toContain(secret);
      }
      // Neither does a token appear encoded as hex or base64 of its text.
      expect(dump).not.toContain(Buffer.from(account.token).toString('hex'));
      expect(dump).not.toContain(Buffer.from(account.token).toString('base64'));
    } finally {
      await inspected.close();
    }
  });
});

describe('idle expiry after 30 days', () => {
  it('a token unused for 31 days stops working; a fresh login works', async () => {
    const account = await registerUser(t.app);
    const saved = t.clock.now().toISOString();
    try {
      t.clock.advance({ days: 31 });
      const res = await me(account.token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHENTICATED);
      const fresh = await login(t.app, account.user.email, account.password);
      expect((await me(fresh.token)).statusCode).toBe(200);
    } finally {
      t.clock.set(saved);
    }
  });

  it('using a token within 30 days keeps it alive, well past 30 days from login', async () => {
    const account = await registerUser(t.app);
    const idle = await login(t.app, account.user.email, account.password);
    const saved = t.clock.now().toISOString();
    try {
      t.clock.advance({ days: 29 });
      expect((await me(account.token)).statusCode).toBe(200);
      t.clock.advance({ days: 29 }); // 58 days after login, 29 after last use
      expect((await me(account.token)).statusCode).toBe(200);
      // The token not used since login has expired meanwhile.
      expect((await me(idle.token)).statusCode).toBe(401);
      t.clock.advance({ days: 29 });
      expect((await me(account.token)).statusCode).toBe(200);
      t.clock.advance({ days: 31 });
      expect((await me(account.token)).statusCode).toBe(401);
      // Once expired, it stays expired even when the clock goes back within range.
      t.clock.advance({ days: -2 });
      expect((await me(account.token)).statusCode).toBe(401);
    } finally {
      t.clock.set(saved);
    }
  });

  it('any authenticated call counts as use, not only /user/me', async () => {
    const account = await registerUser(t.app);
    const saved = t.clock.now().toISOString();
    try {
      t.clock.advance({ days: 20 });
      expect((await call(t.app, 'GET', '/api/v1/entry', { token: account.token })).statusCode).toBe(200);
      t.clock.advance({ days: 20 });
      expect((await call(t.app, 'GET', '/api/v1/dashboard/data', { token: account.token })).statusCode).toBe(200);
      t.clock.advance({ days: 20 });
      expect((await me(account.token)).statusCode).toBe(200);
    } finally {
      t.clock.set(saved);
    }
  });
});

describe('login throttle: 5 failures per e-mail and address per minute', () => {
  const attempt = (email: string, password: string, ip: string) =>
    call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password }, ip });

  function expectThrottled(res: Awaited<ReturnType<typeof attempt>>): number {
    const body = expectError(res, 429);
    const match = TOO_MANY.exec(body.message);
    expect(match, body.message).not.toBeNull();
    const seconds = Number(match?.[1]);
    expect(res.headers['retry-after']).toBe(String(seconds));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    return seconds;
  }

  it('answers 429 with Retry-After after 5 failures, even to the right password, until the minute passes', async () => {
    const victim = await registerUser(t.app);
    const bystander = await registerUser(t.app);
    const ip = nextIp();
    const saved = t.clock.now().toISOString();
    try {
      for (let i = 0; i < 5; i++) {
        expectError(await attempt(victim.user.email, 'wrong-password', ip), 401, BAD_CREDENTIALS);
        t.clock.advance({ seconds: 1 });
      }
      const first = expectThrottled(await attempt(victim.user.email, DEFAULT_PASSWORD, ip));
      // Other addresses and other e-mails are not affected.
      expect((await attempt(victim.user.email, DEFAULT_PASSWORD, nextIp())).statusCode).toBe(200);
      expect((await attempt(bystander.user.email, DEFAULT_PASSWORD, ip)).statusCode).toBe(200);
      // The same e-mail in another case is the same e-mail.
      expectThrottled(await attempt(victim.user.email.toUpperCase(), DEFAULT_PASSWORD, ip));

      t.clock.advance({ seconds: 30 });
      const later = expectThrottled(await attempt(victim.user.email, DEFAULT_PASSWORD, ip));
      expect(later).toBeLessThan(first);

      t.clock.advance({ seconds: 31 });
      expect((await attempt(victim.user.email, DEFAULT_PASSWORD, ip)).statusCode).toBe(200);
    } finally {
      t.clock.set(saved);
    }
  });

  it('keys on the connecting address: a forged X-Forwarded-For does not give a fresh budget', async () => {
    const victim = await registerUser(t.app);
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { email: victim.user.email, password: 'wrong-password' },
        ip,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      expectError(res, 401, BAD_CREDENTIALS);
    }
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: victim.user.email, password: DEFAULT_PASSWORD },
      ip,
      headers: { 'x-forwarded-for': '203.0.113.99' },
    });
    expectThrottled(res);
  });

  it('behind a trusted proxy, keys on the client address the proxy reports', async () => {
    const proxied = await createTestApp({ trustProxy: true });
    try {
      const victim = await registerUser(proxied.app);
      const proxy = nextIp();
      const attempt = (password: string, client: string) =>
        call(proxied.app, 'POST', '/api/v1/auth/login', {
          body: { email: victim.user.email, password },
          ip: proxy,
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < 5; i++) expectError(await attempt('wrong-password', '198.51.100.7'), 401, BAD_CREDENTIALS);
      expectThrottled(await attempt(DEFAULT_PASSWORD, '198.51.100.7'));
      expect((await attempt(DEFAULT_PASSWORD, '198.51.100.8')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('throttles unknown e-mails the same way (no hint that an account exists)', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expectError(await attempt('ghost@example.com', 'whatever-1', ip), 401, BAD_CREDENTIALS);
    expectThrottled(await attempt('ghost@example.com', 'whatever-1', ip));
  });

  it('counts only failures within a minute', async () => {
    const victim = await registerUser(t.app);
    const ip = nextIp();
    const saved = t.clock.now().toISOString();
    try {
      for (let i = 0; i < 4; i++) expectError(await attempt(victim.user.email, 'wrong-password', ip), 401);
      t.clock.advance({ seconds: 61 });
      for (let i = 0; i < 4; i++) expectError(await attempt(victim.user.email, 'wrong-password', ip), 401);
      expect((await attempt(victim.user.email, DEFAULT_PASSWORD, ip)).statusCode).toBe(200);
    } finally {
      t.clock.set(saved);
    }
  });
});

describe('registration throttle: 10 attempts per address per minute', () => {
  it('answers the 11th attempt from one address with 429 and Retry-After, until the minute passes', async () => {
    const ip = nextIp();
    const saved = t.clock.now().toISOString();
    const body = (n: number) => ({
      name: `Throttle ${n}`,
      email: `throttle-${n}-${ip}@example.com`,
      password: 'throttle-pass-1',
      password_confirmation: 'throttle-pass-1',
    });
    try {
      for (let n = 1; n <= 10; n++) {
        const res = await call(t.app, 'POST', '/api/v1/auth/register', { body: body(n), ip });
        expect(res.statusCode, `attempt ${n}: ${res.body}`).toBe(201);
      }
      const eleventh = await call(t.app, 'POST', '/api/v1/auth/register', { body: body(11), ip });
      const err = expectError(eleventh, 429);
      const match = TOO_MANY.exec(err.message);
      expect(match, err.message).not.toBeNull();
      expect(eleventh.headers['retry-after']).toBe(match?.[1]);
      // The refused attempt created no account.
      const ghost = await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { email: body(11).email, password: 'throttle-pass-1' },
        ip: nextIp(),
      });
      expect(ghost.statusCode).toBe(401);

      expect((await call(t.app, 'POST', '/api/v1/auth/register', { body: body(12), ip: nextIp() })).statusCode).toBe(
        201,
      );
      t.clock.advance({ seconds: 61 });
      expect((await call(t.app, 'POST', '/api/v1/auth/register', { body: body(13), ip })).statusCode).toBe(201);
    } finally {
      t.clock.set(saved);
    }
  });
});

describe('request hygiene', () => {
  it('refuses a body over the configured limit with 413 JSON', async () => {
    const small = await createTestApp({ bodyLimit: 2048 });
    try {
      const big = {
        name: 'x'.repeat(4000),
        email: 'big@example.com',
        password: 'big-pass-1',
        password_confirmation: 'big-pass-1',
      };
      const res = await call(small.app, 'POST', '/api/v1/auth/register', { body: big, ip: nextIp() });
      expectError(res, 413);
      const form = await call(small.app, 'POST', '/api/v1/auth/login', {
        form: { email: 'big@example.com', password: 'p'.repeat(4000) },
        ip: nextIp(),
      });
      expectError(form, 413);
    } finally {
      await small.close();
    }
  });

  it('accepts up to 1 MiB by default and refuses more with 413', async () => {
    const { token } = await registerUser(t.app);
    const justUnder = await call(t.app, 'POST', '/api/v1/entry', {
      token,
      body: { date: '2026-03-01', distance: 5, time: '00:30:00', pad: 'x'.repeat(900_000) },
    });
    expect(justUnder.statusCode, justUnder.body.slice(0, 200)).toBe(201);
    const over = await call(t.app, 'POST', '/api/v1/entry', {
      token,
      body: { date: '2026-03-01', distance: 5, time: '00:30:00', pad: 'x'.repeat(1_100_000) },
    });
    expectError(over, 413);
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/api/nope'],
    ['POST', '/api/v1/nothing-here'],
    ['GET', '/api/v1/entry/1/extra'],
    ['DELETE', '/api/v1/auth'],
  ] as const)('answers %s %s with 404 {"message":"Not found."}', async (method, url) => {
    const res = await call(t.app, method, url);
    expectError(res, 404);
    expect(res.json()).toEqual(NOT_FOUND);
  });

  it('answers malformed JSON with a JSON error that shows no internals', async () => {
    const { token } = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/entry', { token, body: '{"date": "2026-03-01", "distance": ' });
    expect([400, 422]).toContain(res.statusCode);
    expectError(res, res.statusCode);
    expect(res.body).not.toMatch(/stack|SyntaxError|at .*\.js|node_modules|FST_/);
  });

  it('answers a body of an unsupported type with a JSON error', async () => {
    const { token } = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/entry', {
      token,
      body: 'date=2026-03-01',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expectError(res, res.statusCode);
    expect(res.body).not.toMatch(/FST_|stack/);
  });

  it('answers a JSON body that is not an object with 422, not 500', async () => {
    const { token } = await registerUser(t.app);
    for (const body of ['[]', '"text"', '42', 'null']) {
      const res = await call(t.app, 'POST', '/api/v1/entry', {
        token,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, `${body}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, body).toBeLessThan(500);
      expectError(res, res.statusCode);
    }
  });

  it('answers an absurdly large page number without a server error', async () => {
    const { token } = await registerUser(t.app);
    for (const page of ['2147483648', '9007199254740991', '100000000000000000000']) {
      const res = await call(t.app, 'GET', '/api/v1/entry', { token, query: { page } });
      expect(res.statusCode, `${page}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 200) expect(res.json().entries.data).toEqual([]);
      else expectValidation(res, 'page');
    }
  });

  it('never leaks SQL or stack traces for hostile input', async () => {
    const { token } = await registerUser(t.app);
    const responses = [
      await call(t.app, 'GET', '/api/v1/entry/99999999999999999999', { token }),
      await call(t.app, 'GET', '/api/v1/entry/-1', { token }),
      await call(t.app, 'GET', "/api/v1/entry/1'%20OR%20'1'='1", { token }),
      await call(t.app, 'GET', '/api/v1/entry', { token, query: { dateFrom: "2026-01-01' OR 1=1 --" } }),
      await call(t.app, 'POST', '/api/v1/entry', { token, body: { date: { $gt: '' }, distance: [1], time: { a: 1 } } }),
      await call(t.app, 'POST', '/api/v1/auth/login', {
        body: { email: { $ne: null }, password: ['x'] },
        ip: nextIp(),
      }),
    ];
    for (const res of responses) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expectError(res, res.statusCode);
      expect(res.body).not.toMatch(/SELECT|INSERT|sqlite|postgres|syntax error|stack|\.ts:|\.js:/i);
    }
  });
});

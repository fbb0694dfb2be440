/**
 * Webhooks' calls (CONTRACT.md §20): the list, adding one (its secret shown once, the url's
 * rules, the events, the 6th refused), deleting one (another's is a 404), who may (sign-in and
 * write tokens; read tokens and demo accounts 403), and what a change of runs queues.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookCreatedSchema, WebhooksEnvelopeSchema } from '../../../core/webhooks.js';
import { DEMO_PASSWORD } from '../../features/demo/demo.service.js';
import { call, createTestApp, expectError, login, NOT_FOUND, registerUser, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function personalToken(token: string, scope: 'read' | 'write'): Promise<string> {
  const res = await call(t.app, 'POST', '/api/v1/tokens', { token, body: { name: `a ${scope} token`, scope } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ plain_text_token: string }>().plain_text_token;
}

const add = (token: string, body: unknown) => call(t.app, 'POST', '/api/v1/webhooks', { token, body });

describe('adding and listing webhooks', () => {
  it('answers 201 with the webhook and a secret of 32 random bytes in hex, shown once', async () => {
    const runner = await registerUser(t.app);
    const empty = await call(t.app, 'GET', '/api/v1/webhooks', { token: runner.token });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ webhooks: [] });

    const res = await add(runner.token, { url: 'https://hooks.example.org/runs?x=1' });
    expect(res.statusCode, res.body).toBe(201);
    const created = WebhookCreatedSchema.parse(res.json());
    expect(created.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(created.webhook).toMatchObject({
      url: 'https://hooks.example.org/runs?x=1',
      events: ['run.created', 'run.updated', 'run.deleted'],
      last_delivery: null,
    });
    expect(Object.keys(res.json<{ webhook: object }>().webhook).sort()).toEqual(
      ['created_at', 'events', 'id', 'last_delivery', 'url'].sort(),
    );
    const again = await add(runner.token, { url: 'https://hooks.example.org/two', events: ['run.deleted'] });
    expect(WebhookCreatedSchema.parse(again.json()).secret).not.toBe(created.secret);

    const list = WebhooksEnvelopeSchema.parse(
      (await call(t.app, 'GET', '/api/v1/webhooks', { token: runner.token })).json(),
    );
    expect(list.webhooks.map((w) => w.events)).toEqual([
      ['run.created', 'run.updated', 'run.deleted'],
      ['run.deleted'],
    ]);
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  it.each([
    ['ftp://hooks.example.org/', 'The url must be an http or https address.'],
    ['not a url', 'The url must be an http or https address.'],
    ['https://user:pass@hooks.example.org/', 'The url must not contain a user name or password.'],
    [`https://hooks.example.org/${'a'.repeat(2000)}`, 'The url must not be longer than 2000 characters.'],
    ['http://127.0.0.1:8123/api/webhook/x', 'The url must not point to a private or local address.'],
    ['http://10.1.2.3/', 'The url must not point to a private or local address.'],
    ['http://192.168.1.10:8123/', 'The url must not point to a private or local address.'],
    ['http://169.254.169.254/latest/meta-data', 'The url must not point to a private or local address.'],
    ['http://[::1]/', 'The url must not point to a private or local address.'],
    ['http://[::ffff:127.0.0.1]/', 'The url must not point to a private or local address.'],
    ['http://[fd00::1]/', 'The url must not point to a private or local address.'],
    ['http://0x7f000001/', 'The url must not point to a private or local address.'],
    ['http://239.1.1.1/', 'The url must not point to a private or local address.'],
    ['', 'The url field is required.'],
  ])('refuses the url %s with a 422 on url', async (url, message) => {
    const runner = await registerUser(t.app);
    const res = await add(runner.token, { url });
    const body = expectError(res, 422, message);
    expect(body.errors).toEqual({ url: [message] });
    expect((await call(t.app, 'GET', '/api/v1/webhooks', { token: runner.token })).json()).toEqual({ webhooks: [] });
  });

  it('says the url rule in the request’s language', async () => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/webhooks', {
      token: runner.token,
      body: { url: 'ftp://x.example.org/' },
      headers: { 'accept-language': 'de-CH, en;q=0.5' },
    });
    expectError(res, 422, 'Die URL muss eine http- oder https-Adresse sein.');
  });

  it.each([[[]], [['run.finished']], ['nope'], [[1]]])('refuses events %j with a 422 on events', async (events) => {
    const runner = await registerUser(t.app);
    const res = await add(runner.token, { url: 'https://hooks.example.org/', events });
    const body = expectError(res, 422);
    expect(Object.keys(body.errors ?? {})).toEqual(['events']);
  });

  it('takes events from a form as a comma-separated list', async () => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/webhooks', {
      token: runner.token,
      form: { url: 'https://hooks.example.org/', events: 'run.deleted,run.created' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(WebhookCreatedSchema.parse(res.json()).webhook.events).toEqual(['run.created', 'run.deleted']);
  });

  it('refuses the 6th webhook with a 422', async () => {
    const runner = await registerUser(t.app);
    for (let i = 0; i < 5; i++)
      expect((await add(runner.token, { url: `https://h${i}.example.org/` })).statusCode).toBe(201);
    expectError(await add(runner.token, { url: 'https://h6.example.org/' }), 422, 'You can have at most 5 webhooks.');
  });
});

describe('who may manage webhooks', () => {
  it('lets a write token manage them and gives a read token 403, reading or writing', async () => {
    const runner = await registerUser(t.app);
    const write = await personalToken(runner.token, 'write');
    const read = await personalToken(runner.token, 'read');
    const made = await add(write, { url: 'https://hooks.example.org/' });
    expect(made.statusCode, made.body).toBe(201);
    const id = WebhookCreatedSchema.parse(made.json()).webhook.id;
    expect((await call(t.app, 'GET', '/api/v1/webhooks', { token: write })).statusCode).toBe(200);
    expectError(await call(t.app, 'GET', '/api/v1/webhooks', { token: read }), 403);
    expectError(await add(read, { url: 'https://hooks.example.org/' }), 403);
    expectError(await call(t.app, 'DELETE', `/api/v1/webhooks/${id}`, { token: read }), 403);
    expect((await call(t.app, 'DELETE', `/api/v1/webhooks/${id}`, { token: write })).statusCode).toBe(200);
  });

  it('deletes one’s own (also as POST with _method) and answers 404 for another’s', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const id = WebhookCreatedSchema.parse((await add(owner.token, { url: 'https://hooks.example.org/' })).json())
      .webhook.id;
    expectError(await call(t.app, 'DELETE', `/api/v1/webhooks/${id}`, { token: other.token }), 404, NOT_FOUND.message);
    expect(
      (await call(t.app, 'GET', '/api/v1/webhooks', { token: owner.token })).json<{ webhooks: [] }>().webhooks,
    ).toHaveLength(1);
    const res = await call(t.app, 'POST', `/api/v1/webhooks/${id}`, {
      token: owner.token,
      body: { _method: 'delete' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Webhook was deleted.' });
    expectError(await call(t.app, 'DELETE', `/api/v1/webhooks/${id}`, { token: owner.token }), 404);
    expectError(await call(t.app, 'GET', '/api/v1/webhooks'), 401);
  });

  it('marks the routes sign-in or write token in the OpenAPI document', async () => {
    const doc = (await call(t.app, 'GET', '/api/openapi.json')).json<{
      paths: Record<string, Record<string, { 'x-token-scopes'?: string[] }>>;
    }>();
    expect(doc.paths['/api/v1/webhooks']!.get!['x-token-scopes']).toEqual(['sign-in', 'write']);
    expect(doc.paths['/api/v1/webhooks']!.post!['x-token-scopes']).toEqual(['sign-in', 'write']);
    expect(doc.paths['/api/v1/webhooks/{id}']!.delete!['x-token-scopes']).toEqual(['sign-in', 'write']);
  });

  it('gives demo accounts 403', async () => {
    const demo = await createTestApp({ demoMode: true });
    try {
      const { token } = await login(demo.app, 'demo.user@example.com', DEMO_PASSWORD);
      expectError(
        await call(demo.app, 'GET', '/api/v1/webhooks', { token }),
        403,
        'Demo accounts cannot have webhooks.',
      );
      expectError(
        await call(demo.app, 'POST', '/api/v1/webhooks', { token, body: { url: 'https://hooks.example.org/' } }),
        403,
      );
    } finally {
      await demo.close();
    }
  });
});

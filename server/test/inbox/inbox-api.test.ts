/**
 * `GET|POST|DELETE /api/v1/inbox` (CONTRACT.md §20): the key made, replaced and removed by a
 * sign-in session alone, its folder made with done/ and failed/ inside, a 409 without INBOX_DIR.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxEnvelopeSchema } from '../../../core/inbox.js';
import { TokenCreatedSchema } from '../../../core/tokens.js';
import { DEMO_PASSWORD } from '../../features/demo/demo.service.js';
import { call, createTestApp, expectError, login, registerUser, type TestApp } from '../helpers.js';

const SIGN_IN = 'Personal API tokens cannot manage the inbox: sign in to do so.';
const KEY = /^[a-z0-9]{24}$/;

let t: TestApp;
let root: string;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-api-'));
  t = await createTestApp({ inboxDir: root });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function inbox(app: TestApp['app'], token: string, method: 'GET' | 'POST' | 'DELETE' = 'GET') {
  const res = await call(app, method, '/api/v1/inbox', { token });
  expect(res.statusCode, res.body).toBe(200);
  return InboxEnvelopeSchema.parse(res.json()).inbox;
}

describe('the inbox key', () => {
  it('is made by POST with its folder, replaced by a later POST, removed by DELETE leaving the files', async () => {
    const runner = await registerUser(t.app);
    expect(await inbox(t.app, runner.token)).toEqual({ enabled: true, folder: null, recent: [] });

    const first = (await inbox(t.app, runner.token, 'POST')).folder!;
    expect(first).toMatch(KEY);
    expect(fs.lstatSync(path.join(root, first)).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.join(root, first)).sort()).toEqual(['done', 'failed']);
    expect((await inbox(t.app, runner.token)).folder).toBe(first);

    const second = (await inbox(t.app, runner.token, 'POST')).folder!;
    expect(second).toMatch(KEY);
    expect(second).not.toBe(first);
    expect((await inbox(t.app, runner.token)).folder).toBe(second);

    fs.writeFileSync(path.join(root, second, 'kept.txt'), 'x');
    expect(await inbox(t.app, runner.token, 'DELETE')).toEqual({ enabled: true, folder: null, recent: [] });
    expect((await inbox(t.app, runner.token)).folder).toBeNull();
    expect(fs.readFileSync(path.join(root, second, 'kept.txt'), 'utf8')).toBe('x');
  });

  it('is removed by POST with _method DELETE, as the web app sends it', async () => {
    const runner = await registerUser(t.app);
    await inbox(t.app, runner.token, 'POST');
    const res = await call(t.app, 'POST', '/api/v1/inbox', { token: runner.token, body: { _method: 'delete' } });
    expect(res.statusCode).toBe(200);
    expect(InboxEnvelopeSchema.parse(res.json()).inbox.folder).toBeNull();
  });

  it('is refused (403) to personal API tokens, read or write, for every method', async () => {
    const runner = await registerUser(t.app);
    const folder = (await inbox(t.app, runner.token, 'POST')).folder;
    for (const scope of ['read', 'write']) {
      const created = await call(t.app, 'POST', '/api/v1/tokens', {
        token: runner.token,
        body: { name: `inbox ${scope}`, scope },
      });
      const personal = TokenCreatedSchema.parse(created.json()).plain_text_token;
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const res = await call(t.app, method, '/api/v1/inbox', { token: personal });
        if (scope === 'read' && method !== 'GET') expectError(res, 403);
        else expectError(res, 403, SIGN_IN);
      }
    }
    expect((await inbox(t.app, runner.token)).folder).toBe(folder);
  });

  it('says why in the request’s language', async () => {
    const runner = await registerUser(t.app);
    const created = await call(t.app, 'POST', '/api/v1/tokens', {
      token: runner.token,
      body: { name: 'w', scope: 'write' },
    });
    const personal = TokenCreatedSchema.parse(created.json()).plain_text_token;
    const res = await call(t.app, 'GET', '/api/v1/inbox', { token: personal, headers: { 'accept-language': 'de' } });
    expectError(
      res,
      403,
      'Persönliche API-Tokens können den Eingangsordner nicht verwalten: Bitte melde dich dazu an.',
    );
  });

  it('answers 401 without a token', async () => {
    expectError(await call(t.app, 'GET', '/api/v1/inbox'), 401);
  });

  it('is refused (403) to demo accounts', async () => {
    const demo = await createTestApp({ demoMode: true, inboxDir: root });
    try {
      const runner = await login(demo.app, 'demo.user@example.com', DEMO_PASSWORD);
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        expectError(
          await call(demo.app, method, '/api/v1/inbox', { token: runner.token }),
          403,
          'Demo accounts have no inbox.',
        );
      }
    } finally {
      await demo.close();
    }
  });
});

describe('without INBOX_DIR', () => {
  it('is off: GET says so, POST is a 409 with a clear message, DELETE changes nothing', async () => {
    const off = await createTestApp();
    try {
      const runner = await registerUser(off.app);
      expect(await inbox(off.app, runner.token)).toEqual({ enabled: false, folder: null, recent: [] });
      expectError(
        await call(off.app, 'POST', '/api/v1/inbox', { token: runner.token }),
        409,
        'The inbox folder is off on this server (INBOX_DIR is not set).',
      );
      expect(await inbox(off.app, runner.token, 'DELETE')).toEqual({ enabled: false, folder: null, recent: [] });
    } finally {
      await off.close();
    }
  });
});

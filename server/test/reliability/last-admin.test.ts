/**
 * CONTRACT.md §5's "yes, unless the last admin" and "never leaves zero admins": the only admin
 * can neither delete their account nor give up their role, by any route, and nothing changes.
 * The whole matrix is in permission-matrix.test.ts.
 */
import { afterAll, beforeAll, expect, describe, it } from 'vitest';
import { call, createTestApp, nextIp, type TestApp } from '../helpers.js';
import { expectErrorBody, snapshot, type Member, type Request } from './world.js';

describe('§5 "yes, unless the last admin" and "never leaves zero admins"', () => {
  let solo: TestApp;
  let admin: Member;
  beforeAll(async () => {
    solo = await createTestApp();
    // The seeded admin is the only admin: sign in as it.
    const res = await call(solo.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'admin@example.com', password: 'admin-password-1' },
      ip: nextIp(),
    });
    const body = res.json();
    admin = { user: body.user, token: body.access_token, entry: null as never };
  });
  afterAll(async () => {
    await solo.close();
  });

  for (const request of [
    (id: number): Request => ({ method: 'DELETE', url: `/api/v1/user/${id}` }),
    (id: number): Request => ({ method: 'POST', url: `/api/v1/user/${id}`, body: { _method: 'DELETE' } }),
    (id: number): Request => ({
      method: 'PUT',
      url: `/api/v1/user/${id}`,
      body: { name: 'Admin', email: 'admin@example.com', role: 'user' },
    }),
  ]) {
    const shown = request(0);
    it(`the only admin cannot leave: ${shown.method} ${shown.body?._method ?? ''}${shown.body?.role ? 'role user' : ''} → 403, nothing changes`, async () => {
      const before = await snapshot(solo.app);
      const res = await call(solo.app, request(admin.user.id).method, request(admin.user.id).url, {
        token: admin.token,
        ...(request(admin.user.id).body ? { body: request(admin.user.id).body } : {}),
      });
      expectErrorBody(res, 403);
      expect(await snapshot(solo.app)).toBe(before);
    });
  }
});

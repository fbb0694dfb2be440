/** Accounts of each role and the answers CONTRACT.md §5 gives them, for the permission tests. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Entry, Role } from '../../core/schemas.js';
import { UNAUTHENTICATED, UNAUTHORIZED, call, createEntry, registerUser, setRole, type Account } from './helpers.js';

/** A fresh account with the given role (given by the admin of `adminToken`) and one run. */
export async function accountWithRun(
  app: FastifyInstance,
  adminToken: string,
  role: Role,
): Promise<Account & { entry: Entry }> {
  const created = await registerUser(app, { name: `A ${role}` });
  const user = role === 'user' ? created.user : await setRole(app, created.user, role, adminToken);
  const entry = await createEntry(app, created.token, { date: '2026-03-10', distance: 5, time: '00:30:00' });
  return { ...created, user, entry };
}

export function expect401(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json()).toEqual(UNAUTHENTICATED);
}

export function expect403(res: LightMyRequestResponse, message = UNAUTHORIZED.message) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({ message });
}

export function expect200(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(200);
}

/** A run as the holder of `token` (an admin) reads it: a 200, and its body. */
export async function runAsSeenBy(app: FastifyInstance, token: string, id: number): Promise<Entry> {
  const res = await call(app, 'GET', `/api/v1/entry/${id}`, { token });
  expect200(res);
  return res.json().entry;
}

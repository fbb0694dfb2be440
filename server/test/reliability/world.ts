/**
 * Fixtures for the reliability tests: a "world" of six accounts (an actor and another
 * account of each role), each with one run, created straight through the services
 * so that hundreds of worlds cost no password hashing. The requests under test always
 * go through HTTP (`inject`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { Entry, Role, User } from '../../../core/schemas.js';
import { inTransaction, nowIso } from '../../context.js';
import { insertRuns } from '../../features/entries/entries.service.js';
import { hashPassword, insertAccount, issueToken } from '../../features/users/users.service.js';

export const WORLD_PASSWORD = 'world-password-1';

export interface Member {
  user: User;
  token: string;
  entry: Entry;
}

export interface World {
  /** The accounts that make requests, one per role. */
  actors: Record<Role, Member>;
  /** Other accounts, one per role, whose resources the actors reach for. */
  others: Record<Role, Member>;
}

let passwordHash: Promise<string> | undefined;
let worldCounter = 0;

/** One account with a live token and one run, created without HTTP. */
export async function addMember(app: FastifyInstance, role: Role, label: string): Promise<Member> {
  passwordHash ??= hashPassword(WORLD_PASSWORD);
  const ctx = app.appContext;
  const tag = `${label}-${randomBytes(4).toString('hex')}`;
  const record = await inTransaction(ctx, async (trx) =>
    insertAccount(trx, {
      name: `World ${tag}`,
      email: `world-${tag}@example.com`,
      passwordHash: await passwordHash!,
      role,
      timezone: 'UTC',
      createdAt: nowIso(ctx),
    }),
  );
  const auth = await issueToken(ctx, record);
  const [entry] = await inTransaction(ctx, (trx) =>
    insertRuns(trx, record.id, [{ date: '2026-03-10', distanceKm: 10, seconds: 3000 }], nowIso(ctx)),
  );
  return { user: auth.user, token: auth.access_token, entry: entry! };
}

export async function createWorld(app: FastifyInstance): Promise<World> {
  worldCounter += 1;
  const n = worldCounter;
  const roles: Role[] = ['user', 'manager', 'admin'];
  const actors = {} as Record<Role, Member>;
  const others = {} as Record<Role, Member>;
  for (const role of roles) {
    actors[role] = await addMember(app, role, `w${n}-actor-${role}`);
    others[role] = await addMember(app, role, `w${n}-other-${role}`);
  }
  return { actors, others };
}

const TABLES = ['users', 'entries', 'tokens', 'entry_days', 'jobs', 'throttles'] as const;
type Table = (typeof TABLES)[number];

/**
 * Every row of the app's tables as one string, read through the app's own connection
 * (fast on both databases, and works for SQLite in memory). Leave out `throttles` where
 * failed attempts are meant to be counted.
 */
export async function snapshot(app: FastifyInstance, except: Table[] = []): Promise<string> {
  const db = app.appContext.db;
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    if (except.includes(table)) continue;
    out[table] = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(sql.ref(`${table}.${KEYS[table]}`))
      .execute();
  }
  return JSON.stringify(out);
}

const KEYS: Record<Table, string> = {
  users: 'id',
  entries: 'id',
  tokens: 'id',
  entry_days: 'date',
  jobs: 'name',
  throttles: 'key',
};

/** A request of the permission tests. */
export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
}

/** An error answer of `status` with the contract's body: a message, and nothing else. */
export function expectErrorBody(res: LightMyRequestResponse, status: 401 | 403): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<Record<string, unknown>>();
  expect(Object.keys(body)).toEqual(['message']);
  if (status === 401) expect(body.message).toBe('Unauthenticated.');
  else expect(body.message).toMatch(/^(This action is unauthorized\.|.+\.)$/);
}

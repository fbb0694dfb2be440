/**
 * Test harness for the API: a fresh app per call on a fresh database (SQLite in memory,
 * or a throwaway PostgreSQL database when TEST_DATABASE_URL is set), a clock the tests
 * move by hand, and small helpers for the calls every test makes.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import Database from 'better-sqlite3';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import {
  AuthResponseSchema,
  EntryEnvelopeSchema,
  UserEnvelopeSchema,
  type Entry,
  type Role,
  type User,
} from '../../core/schemas.js';
import { testDatabase } from '../../scripts/support/scratch-database.js';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-password-1';
export const DEFAULT_PASSWORD = 'correct-horse-1';
/** A Wednesday: ISO week 12 of 2026 runs from Monday 2026-03-16 to Sunday 2026-03-22. */
export const DEFAULT_NOW = '2026-03-18T12:00:00.000Z';
export const UNAUTHENTICATED = { message: 'Unauthenticated.' };
export const UNAUTHORIZED = { message: 'This action is unauthorized.' };
export const NOT_FOUND = { message: 'Not found.' };
export const BAD_CREDENTIALS = 'These credentials do not match our records.';

const DAY_MS = 86_400_000;

/** The app's clock: tests set or advance it; the app reads it through `config.now`. */
export class TestClock {
  private ms: number;

  constructor(iso: string = DEFAULT_NOW) {
    this.ms = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.ms);
  }

  set(iso: string): void {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) throw new Error(`Bad instant: ${iso}`);
    this.ms = ms;
  }

  advance({
    days = 0,
    hours = 0,
    minutes = 0,
    seconds = 0,
  }: {
    days?: number;
    hours?: number;
    minutes?: number;
    seconds?: number;
  }): void {
    this.ms += days * DAY_MS + hours * 3_600_000 + minutes * 60_000 + seconds * 1000;
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  /** Closes the app and removes its database. */
  close(): Promise<void>;
  /** Every row of every table of the app's own database, as JSON text (null for SQLite in memory). */
  dumpDatabase(): Promise<string | null>;
  /** With `cuttable` on PostgreSQL: the link to the database server, which a test can cut and restore. */
  databaseLink: Link | null;
}

/** A TCP link between the app and PostgreSQL that a test can cut (an outage) and restore. */
export interface Link {
  cut(): Promise<void>;
  restore(): Promise<void>;
}

export interface TestAppOptions {
  /** The instant the clock starts at. */
  now?: string;
  /** Put the SQLite database in a temporary file (so a test can read it) instead of in memory. */
  sqliteFile?: boolean;
  /** PostgreSQL only: connect the app through a TCP link the test can cut. */
  cuttable?: boolean;
  /** What buildApp is given besides the configuration (an answer cache of other bounds, or none). */
  build?: BuildOptions;
}

/** A TCP forwarder from a local port to PostgreSQL; cutting it drops every connection and refuses new ones. */
async function openLink(
  targetHost: string,
  targetPort: number,
): Promise<Link & { port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        sockets.add(client);
        sockets.add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as net.AddressInfo).port;
        server = listening;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return { port, cut, restore: listen, close: cut };
}

interface TestDatabase {
  url: string;
  link: Link | null;
  dump(): Promise<string | null>;
  drop(): Promise<void>;
}

async function createTestDatabase(sqliteFile: boolean, cuttable: boolean): Promise<TestDatabase> {
  const scratch = await testDatabase('test', { sqlite: sqliteFile ? 'file' : 'memory' });
  if (scratch.dialect === 'postgres') {
    const appUrl = new URL(scratch.url);
    const link = cuttable ? await openLink(appUrl.hostname, Number(appUrl.port || 5432)) : null;
    if (link) {
      appUrl.hostname = '127.0.0.1';
      appUrl.port = String(link.port);
    }
    return {
      url: appUrl.toString(),
      link,
      async dump() {
        const client = new pg.Client({ connectionString: scratch.url });
        await client.connect();
        try {
          const tables = await client.query<{ table_name: string }>(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
          );
          const out: Record<string, unknown[]> = {};
          for (const { table_name } of tables.rows) {
            out[table_name] = (await client.query(`SELECT * FROM "${table_name}"`)).rows;
          }
          return JSON.stringify(out);
        } finally {
          await client.end();
        }
      },
      async drop() {
        await link?.close();
        await scratch.drop();
      },
    };
  }
  const file = scratch.file;
  return {
    url: scratch.url,
    link: null,
    async dump() {
      if (!file) return null;
      const db = new Database(file, { readonly: true });
      try {
        const tables = db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
          .all() as { name: string }[];
        const out: Record<string, unknown[]> = {};
        for (const { name } of tables) out[name] = db.prepare(`SELECT * FROM "${name}"`).all();
        return JSON.stringify(out);
      } finally {
        db.close();
      }
    },
    drop: () => scratch.drop(),
  };
}

/** Builds the app on a fresh database with the seeded admin and a controllable clock. */
export async function createTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const clock = new TestClock(options.now);
  const database = await createTestDatabase(options.sqliteFile ?? false, options.cuttable ?? false);
  const config: Config = {
    ...loadConfig({ DATABASE_URL: database.url }),
    databaseUrl: database.url,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    demoMode: false,
    logLevel: 'silent',
    webRoot: null,
    trustProxy: false,
    dbPoolSize: 4,
    verifyResponses: true,
    now: () => clock.now(),
    ...overrides,
  };
  let app: FastifyInstance;
  try {
    app = await buildApp(config, options.build);
    await app.ready();
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    app,
    clock,
    config,
    async close() {
      try {
        await app.close();
      } finally {
        await database.drop();
      }
    },
    dumpDatabase: () => database.dump(),
    databaseLink: database.link,
  };
}

let ipCounter = 0;
/** A client address never used before, so per-address throttles never couple two tests. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export function authed(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface CallOptions {
  token?: string;
  /** A JSON body. */
  body?: unknown;
  /** An `application/x-www-form-urlencoded` body. */
  form?: Record<string, string>;
  query?: Record<string, string | number>;
  ip?: string;
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** One request through `inject`, the way the web app makes it. */
export function call(
  app: FastifyInstance,
  method: Method,
  url: string,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.token !== undefined) Object.assign(headers, authed(options.token));
  const request: InjectOptions = { method, url, headers };
  if (options.query) {
    request.query = Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)]));
  }
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    request.payload = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    request.payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  if (options.ip) request.remoteAddress = options.ip;
  return app.inject(request);
}

/** Asserts an error response: status, the exact contract body shape, and optionally the message. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  message?: string,
): { message: string; errors?: Record<string, string[]> } {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<{ message: string; errors?: Record<string, string[]> }>();
  expect(typeof body.message).toBe('string');
  for (const key of Object.keys(body)) expect(['message', 'errors']).toContain(key);
  if (message !== undefined) expect(body.message).toBe(message);
  return body;
}

/** Asserts a 422 whose `errors[field]` holds `message`, and whose `message` is the first error. */
export function expectValidation(
  res: LightMyRequestResponse,
  field: string,
  message?: string,
): Record<string, string[]> {
  const body = expectError(res, 422);
  expect(body.errors, res.body).toBeDefined();
  const errors = body.errors ?? {};
  expect(Object.keys(errors), res.body).toContain(field);
  const messages = errors[field] ?? [];
  expect(messages.length).toBeGreaterThan(0);
  for (const m of messages) expect(typeof m).toBe('string');
  if (message !== undefined) expect(messages).toContain(message);
  expect(body.message).toBe(Object.values(errors)[0]?.[0]);
  return errors;
}

let userCounter = 0;

export interface NewUser {
  name?: string;
  email?: string;
  password?: string;
  timezone?: string;
}

export interface Account {
  token: string;
  user: User;
  password: string;
}

/** Registers a user (from an address of its own) and returns the token and the user. */
export async function registerUser(app: FastifyInstance, input: NewUser = {}): Promise<Account> {
  userCounter += 1;
  const tag = `${userCounter}-${randomBytes(3).toString('hex')}`;
  const password = input.password ?? DEFAULT_PASSWORD;
  const body: Record<string, string> = {
    name: input.name ?? `Runner ${tag}`,
    email: input.email ?? `runner-${tag}@example.com`,
    password,
    password_confirmation: password,
  };
  if (input.timezone !== undefined) body.timezone = input.timezone;
  const res = await call(app, 'POST', '/api/v1/auth/register', { body, ip: nextIp() });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const parsed = AuthResponseSchema.parse(res.json());
  return { token: parsed.access_token, user: parsed.user, password };
}

/** Logs in (from an address of its own) and returns a fresh token. */
export async function login(app: FastifyInstance, email: string, password: string): Promise<Account> {
  const res = await call(app, 'POST', '/api/v1/auth/login', { body: { email, password }, ip: nextIp() });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const parsed = AuthResponseSchema.parse(res.json());
  return { token: parsed.access_token, user: parsed.user, password };
}

/** GET /api/v1/insights/{path} as the holder of `token`: a 200, and its body. */
export async function insightOf<T>(app: FastifyInstance, token: string, path: string): Promise<T> {
  const res = await call(app, 'GET', `/api/v1/insights/${path}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

/** Whether a login with these credentials succeeds (a refusal is the contract's 401). */
export async function canLogin(app: FastifyInstance, email: string, password: string): Promise<boolean> {
  const res = await call(app, 'POST', '/api/v1/auth/login', { body: { email, password }, ip: nextIp() });
  if (res.statusCode === 401) expect(res.json().message).toBe(BAD_CREDENTIALS);
  return res.statusCode === 200;
}

export function loginAdmin(app: FastifyInstance): Promise<Account> {
  return login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
}

/** Reads a user as the seeded admin sees it. */
export async function getUser(app: FastifyInstance, adminToken: string, id: number): Promise<User> {
  const res = await call(app, 'GET', `/api/v1/user/${id}`, { token: adminToken });
  if (res.statusCode !== 200) throw new Error(`get user failed: ${res.statusCode} ${res.body}`);
  return UserEnvelopeSchema.parse(res.json()).user;
}

/** Sets a user's role as the seeded admin. */
export async function setRole(
  app: FastifyInstance,
  user: { id: number },
  role: Role,
  adminToken?: string,
): Promise<User> {
  const token = adminToken ?? (await loginAdmin(app)).token;
  const current = await getUser(app, token, user.id);
  const res = await call(app, 'PUT', `/api/v1/user/${user.id}`, {
    token,
    body: { name: current.name, email: current.email, role },
  });
  if (res.statusCode !== 200) throw new Error(`set role failed: ${res.statusCode} ${res.body}`);
  return UserEnvelopeSchema.parse(res.json()).user;
}

export function makeAdmin(app: FastifyInstance, user: { id: number }, adminToken?: string): Promise<User> {
  return setRole(app, user, 'admin', adminToken);
}

export function makeManager(app: FastifyInstance, user: { id: number }, adminToken?: string): Promise<User> {
  return setRole(app, user, 'manager', adminToken);
}

export interface EntryInput {
  date: string;
  distance: number | string;
  time: string;
  title?: string | null;
  notes?: string | null;
  kind?: string | null;
  effort?: number | null;
  shoe_id?: number | null;
}

export async function createEntry(app: FastifyInstance, token: string, body: EntryInput): Promise<Entry> {
  const res = await call(app, 'POST', '/api/v1/entry', { token, body });
  if (res.statusCode !== 201) throw new Error(`create entry failed: ${res.statusCode} ${res.body}`);
  return EntryEnvelopeSchema.parse(res.json()).entry;
}

/** A shoe of the runner of `token` (POST /shoes must answer 201): its id. */
export async function createShoe(app: FastifyInstance, token: string, body: Record<string, unknown>): Promise<number> {
  const res = await call(app, 'POST', '/api/v1/shoes', { token, body });
  if (res.statusCode !== 201) throw new Error(`create shoe failed: ${res.statusCode} ${res.body}`);
  return res.json<{ shoe: { id: number } }>().shoe.id;
}

/** A goal of the runner of `token` (POST /goals must answer 201): its id. */
export async function createGoal(app: FastifyInstance, token: string, body: Record<string, unknown>): Promise<number> {
  const res = await call(app, 'POST', '/api/v1/goals', { token, body });
  if (res.statusCode !== 201) throw new Error(`create goal failed: ${res.statusCode} ${res.body}`);
  return res.json<{ goal: { id: number } }>().goal.id;
}

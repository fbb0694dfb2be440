/**
 * The permission matrix: every endpoint × {guest, user, manager, admin} × {own, another
 * user's, another manager's, an admin's} resource, generated from one table that
 * mirrors CONTRACT.md §5 word for word. Each cell asserts the exact status, the error
 * body, and what happened to the database: a denied request (and any read) changes
 * nothing; an allowed write changes something.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../core/schemas.js';
import { call, createTestApp, nextIp, type TestApp } from '../helpers.js';
import { createWorld, expectErrorBody, snapshot, type Member, type Request, type World } from './world.js';

type Who = 'guest' | Role;

/** CONTRACT.md §5, row for row and cell for cell. */
const SECTION_5 = {
  'register, login': { guest: 'yes', user: '-', manager: '-', admin: '-' },
  'me; read and update own profile': { guest: '401', user: 'yes', manager: 'yes', admin: 'yes' },
  'delete own account': { guest: '401', user: 'yes', manager: 'yes', admin: 'yes, unless the last admin' },
  'list users, show any user': { guest: '401', user: '403 (own: yes)', manager: 'yes', admin: 'yes' },
  'update or delete another user': {
    guest: '401',
    user: '403',
    manager: 'only users whose role is `user`',
    admin: 'yes',
  },
  "change a role (own or another's)": {
    guest: '401',
    user: '403',
    manager: '403',
    admin: "another's only; never leaves zero admins",
  },
  'own entries CRUD, own dashboard, own weekly report': { guest: '401', user: 'yes', manager: 'yes', admin: 'yes' },
  "read, update, delete another user's entry; /entry/all": {
    guest: '401',
    user: '403',
    manager: '403',
    admin: 'yes',
  },
  'admin dashboard': { guest: '401', user: '403', manager: 'yes', admin: 'yes' },
} as const satisfies Record<string, Record<Who, string>>;

type Action = keyof typeof SECTION_5;

/**
 * Whose resource a request reaches for: the caller's own, another account of a role, or
 * none (the call is not about one user or one entry, such as a list).
 */
type Owner = 'own' | Role | 'none';
const OWNERS: Owner[] = ['own', 'user', 'manager', 'admin'];
const NO_OWNER: Owner[] = ['none'];
const WHO: Who[] = ['guest', 'user', 'manager', 'admin'];

type Outcome = 'allowed' | 401 | 403 | 'not applicable';

/** Reads one cell of the table for a resource of `owner`. */
function decide(action: Action, who: Who, owner: Owner): Outcome {
  const cell: string = SECTION_5[action][who];
  switch (cell) {
    case '-':
      return 'not applicable';
    case 'yes':
      return 'allowed';
    // The matrix world always has several admins; the last admin is tested below.
    case 'yes, unless the last admin':
      return 'allowed';
    case '401':
      return 401;
    case '403':
      return 403;
    case '403 (own: yes)':
      return owner === 'own' ? 'allowed' : 403;
    case 'only users whose role is `user`':
      return owner === 'user' ? 'allowed' : 403;
    case "another's only; never leaves zero admins":
      return owner === 'own' ? 403 : 'allowed';
    default:
      throw new Error(`No reading for the §5 cell "${cell}"`);
  }
}

interface Endpoint {
  name: string;
  /** True when the path names a user or an entry, so the owner matters. */
  owned: boolean;
  action: (owner: Owner) => Action;
  success: number;
  writes: boolean;
  request: (target: Member, world: World) => Request;
}

const rename = (target: Member) => ({ name: `${target.user.name} renamed`, email: target.user.email });
const newRole = (target: Member): Role => (target.user.role === 'user' ? 'manager' : 'user');
const run = { date: '2026-03-11', distance: 12.5, time: '01:05:00' };
const profile = (owner: Owner): Action =>
  owner === 'own' ? 'me; read and update own profile' : 'update or delete another user';
const removal = (owner: Owner): Action => (owner === 'own' ? 'delete own account' : 'update or delete another user');
const entryAction = (owner: Owner): Action =>
  owner === 'own'
    ? 'own entries CRUD, own dashboard, own weekly report'
    : "read, update, delete another user's entry; /entry/all";
const ownEntries = (): Action => 'own entries CRUD, own dashboard, own weekly report';
const ownProfile = (): Action => 'me; read and update own profile';

const ENDPOINTS: Endpoint[] = [
  // Not about one resource: the owner does not matter.
  {
    name: 'POST /auth/logout',
    owned: false,
    action: ownProfile,
    success: 200,
    writes: true,
    request: () => ({ method: 'POST', url: '/api/v1/auth/logout' }),
  },
  {
    name: 'GET /user/me',
    owned: false,
    action: ownProfile,
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/user/me' }),
  },
  {
    name: 'GET /user',
    owned: false,
    action: () => 'list users, show any user',
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/user' }),
  },
  {
    name: 'GET /entry',
    owned: false,
    action: ownEntries,
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/entry' }),
  },
  {
    name: 'POST /entry',
    owned: false,
    action: ownEntries,
    success: 201,
    writes: true,
    request: () => ({ method: 'POST', url: '/api/v1/entry', body: run }),
  },
  {
    name: 'GET /entry/all',
    owned: false,
    action: () => "read, update, delete another user's entry; /entry/all",
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/entry/all' }),
  },
  {
    name: 'GET /dashboard/data',
    owned: false,
    action: ownEntries,
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/dashboard/data' }),
  },
  {
    name: 'GET /dashboard/admin-data',
    owned: false,
    action: () => 'admin dashboard',
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/dashboard/admin-data' }),
  },
  {
    name: 'GET /report/weekly',
    owned: false,
    action: ownEntries,
    success: 200,
    writes: false,
    request: () => ({ method: 'GET', url: '/api/v1/report/weekly?year=2026' }),
  },

  // Users.
  {
    name: 'GET /user/{id}',
    owned: true,
    action: () => 'list users, show any user',
    success: 200,
    writes: false,
    request: (t) => ({ method: 'GET', url: `/api/v1/user/${t.user.id}` }),
  },
  {
    name: 'PUT /user/{id}',
    owned: true,
    action: profile,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'PUT', url: `/api/v1/user/${t.user.id}`, body: rename(t) }),
  },
  {
    name: 'PATCH /user/{id}',
    owned: true,
    action: profile,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'PATCH', url: `/api/v1/user/${t.user.id}`, body: rename(t) }),
  },
  {
    name: 'POST /user/{id} _method=PUT',
    owned: true,
    action: profile,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'POST', url: `/api/v1/user/${t.user.id}`, body: { ...rename(t), _method: 'put' } }),
  },
  {
    name: 'PUT /user/{id} with a new role',
    owned: true,
    action: () => "change a role (own or another's)",
    success: 200,
    writes: true,
    request: (t) => ({
      method: 'PUT',
      url: `/api/v1/user/${t.user.id}`,
      body: { name: t.user.name, email: t.user.email, role: newRole(t) },
    }),
  },
  {
    name: 'PUT /user/{id} with a new password',
    owned: true,
    action: profile,
    success: 200,
    writes: true,
    request: (t) => ({
      method: 'PUT',
      url: `/api/v1/user/${t.user.id}`,
      body: {
        name: t.user.name,
        email: t.user.email,
        password: 'a-new-password-1',
        password_confirmation: 'a-new-password-1',
      },
    }),
  },
  {
    name: 'DELETE /user/{id}',
    owned: true,
    action: removal,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'DELETE', url: `/api/v1/user/${t.user.id}` }),
  },
  {
    name: 'POST /user/{id} _method=DELETE',
    owned: true,
    action: removal,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'POST', url: `/api/v1/user/${t.user.id}`, body: { _method: 'DELETE' } }),
  },

  // Entries.
  {
    name: 'GET /entry/{id}',
    owned: true,
    action: entryAction,
    success: 200,
    writes: false,
    request: (t) => ({ method: 'GET', url: `/api/v1/entry/${t.entry.id}` }),
  },
  {
    name: 'PUT /entry/{id}',
    owned: true,
    action: entryAction,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'PUT', url: `/api/v1/entry/${t.entry.id}`, body: run }),
  },
  {
    name: 'PATCH /entry/{id}',
    owned: true,
    action: entryAction,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'PATCH', url: `/api/v1/entry/${t.entry.id}`, body: run }),
  },
  {
    name: 'POST /entry/{id} _method=PUT',
    owned: true,
    action: entryAction,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'POST', url: `/api/v1/entry/${t.entry.id}`, body: { ...run, _method: 'PUT' } }),
  },
  {
    name: 'DELETE /entry/{id}',
    owned: true,
    action: entryAction,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'DELETE', url: `/api/v1/entry/${t.entry.id}` }),
  },
  {
    name: 'POST /entry/{id} _method=DELETE',
    owned: true,
    action: entryAction,
    success: 200,
    writes: true,
    request: (t) => ({ method: 'POST', url: `/api/v1/entry/${t.entry.id}`, body: { _method: 'delete' } }),
  },
];

interface Cell {
  endpoint: Endpoint;
  who: Who;
  owner: Owner;
  outcome: Exclude<Outcome, 'not applicable'>;
}

function cells(): Cell[] {
  const out: Cell[] = [];
  for (const endpoint of ENDPOINTS) {
    for (const who of WHO) {
      // A guest owns nothing; endpoints about no resource have one cell per caller.
      const owners = !endpoint.owned ? NO_OWNER : who === 'guest' ? OWNERS.slice(1) : OWNERS;
      for (const owner of owners) {
        const outcome = decide(endpoint.action(owner), who, owner);
        if (outcome !== 'not applicable') out.push({ endpoint, who, owner, outcome });
      }
    }
  }
  return out;
}

const OWNER_LABEL: Record<Owner, string> = {
  none: '',
  own: 'own',
  user: "another user's",
  manager: "a manager's",
  admin: "an admin's",
};

let t: TestApp;
/** Shared by every cell that changes nothing; cells that write get a world of their own. */
let shared: World;

beforeAll(async () => {
  t = await createTestApp();
  shared = await createWorld(t.app);
});
afterAll(async () => {
  await t.close();
});

function send(request: Request, token: string | undefined): Promise<LightMyRequestResponse> {
  return call(t.app, request.method, request.url, {
    ...(token !== undefined ? { token } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
    ip: nextIp(),
  });
}

describe('CONTRACT.md §5 permission matrix', () => {
  const all = cells();

  it('covers every endpoint for every caller and every owner', () => {
    // 9 endpoints about no resource × 4 callers, and 14 about one resource × (3 owners
    // for a guest + 4 owners × 3 roles).
    expect(all).toHaveLength(9 * 4 + 14 * (3 + 4 * 3));
  });

  for (const endpoint of ENDPOINTS) {
    describe(endpoint.name, () => {
      for (const cell of all.filter((c) => c.endpoint === endpoint)) {
        const resource = endpoint.owned ? ` → ${OWNER_LABEL[cell.owner]}` : '';
        const expected = cell.outcome === 'allowed' ? endpoint.success : cell.outcome;
        it(`${cell.who}${resource}: ${expected}`, async () => {
          const changes = cell.outcome === 'allowed' && endpoint.writes;
          const world = changes ? await createWorld(t.app) : shared;
          const actor = cell.who === 'guest' ? null : world.actors[cell.who];
          const target = cell.owner === 'own' || cell.owner === 'none' ? actor! : world.others[cell.owner];
          const before = await snapshot(t.app);

          const res = await send(endpoint.request(target, world), actor?.token);

          const after = await snapshot(t.app);
          if (cell.outcome === 'allowed') {
            expect(res.statusCode, res.body).toBe(endpoint.success);
            if (changes) expect(after, 'an allowed write changes the database').not.toBe(before);
            else expect(after, 'a read changes nothing').toBe(before);
          } else {
            expectErrorBody(res, cell.outcome);
            expect(after, 'a denied request changes nothing').toBe(before);
          }
        });
      }
    });
  }

  describe('register, login (guest: yes)', () => {
    it('guest registers: 201', async () => {
      const res = await send(
        {
          method: 'POST',
          url: '/api/v1/auth/register',
          body: {
            name: 'New Runner',
            email: 'matrix-new@example.com',
            password: 'pass-word-1',
            password_confirmation: 'pass-word-1',
          },
        },
        undefined,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().user.role).toBe('user');
    });

    it('guest logs in: 200', async () => {
      const res = await send(
        {
          method: 'POST',
          url: '/api/v1/auth/login',
          body: { email: 'matrix-new@example.com', password: 'pass-word-1' },
        },
        undefined,
      );
      expect(res.statusCode, res.body).toBe(200);
    });

    it('a role sent at registration is ignored: the role is always user', async () => {
      const res = await send(
        {
          method: 'POST',
          url: '/api/v1/auth/register',
          body: {
            name: 'Sneaky',
            email: 'matrix-sneaky@example.com',
            password: 'pass-word-1',
            password_confirmation: 'pass-word-1',
            role: 'admin',
          },
        },
        undefined,
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().user.role).toBe('user');
    });
  });
});

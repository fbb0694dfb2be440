import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppConfigSchema, AuthResponseSchema, ErrorSchema, MessageSchema, UserSchema } from '../../core/schemas.js';
import { makeUser } from '../test/fixtures';
import {
  parseAppConfig,
  parseAuthResponse,
  parseErrorBody,
  parseMessage,
  parseUser,
  ResponseShapeError,
} from './response-guards';

/** The guard's verdict in the shape of zod's `safeParse`, to compare the two. */
function outcome<T>(guard: (value: unknown) => T, value: unknown): { success: true; data: T } | { success: false } {
  try {
    return { success: true, data: guard(value) };
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseShapeError);
    return { success: false };
  }
}

function shapeErrorOf(run: () => unknown): ResponseShapeError {
  try {
    run();
  } catch (error) {
    if (error instanceof ResponseShapeError) return error;
    throw error;
  }
  throw new Error('Expected a ResponseShapeError.');
}

const user = makeUser({ id: 42, role: 'manager' });
const auth = { user, access_token: '1|abc', token_type: 'Bearer' };

describe('parseUser', () => {
  it('returns the user with exactly the fields of the contract', () => {
    expect(parseUser({ ...user, password: 'hash', extra: 1 })).toEqual(user);
    expect(parseUser(user)).toEqual(UserSchema.parse(user));
  });

  it.each(['user', 'manager', 'admin'] as const)('accepts the role %s', (role) => {
    expect(parseUser({ ...user, role }).role).toBe(role);
  });

  it.each([
    ['id', '42', 'user.id must be an integer, got the string "42".'],
    ['id', 4.2, 'user.id must be an integer, got number 4.2.'],
    ['id', 2 ** 53, `user.id must be an integer, got number ${2 ** 53}.`],
    ['name', null, 'user.name must be a string, got null.'],
    ['email', 7, 'user.email must be a string, got number 7.'],
    ['role', 'root', 'user.role must be one of user, manager, admin, got the string "root".'],
    ['role', undefined, 'user.role must be one of user, manager, admin, got undefined.'],
    ['pace_format', 'mm:ss', 'user.pace_format must be one of decimal, clock, got the string "mm:ss".'],
    [
      'date_format',
      undefined,
      'user.date_format must be one of auto, MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD, got undefined.',
    ],
    ['timezone', false, 'user.timezone must be a string, got boolean false.'],
    ['date', {}, 'user.date must be a string, got an object.'],
    ['created_at', [], 'user.created_at must be a string, got an array.'],
    ['updated_at', undefined, 'user.updated_at must be a string, got undefined.'],
  ])('refuses %s = %j with a message naming the field', (field, value, message) => {
    const error = shapeErrorOf(() => parseUser({ ...user, [field]: value }));
    expect(error.message).toBe(message);
    expect(error.path).toBe(`user.${field}`);
    expect(UserSchema.safeParse({ ...user, [field]: value }).success).toBe(false);
  });

  it.each([null, undefined, 'user', 3, [user]])('refuses %j instead of an object', (value) => {
    expect(() => parseUser(value)).toThrow(ResponseShapeError);
    expect(() => parseUser(value)).toThrow(/^user must be an object/);
  });
});

describe('parseAppConfig', () => {
  it('accepts the config with and without demo credentials', () => {
    const accounts = { mail: false, signup: 'open', oidc: null };
    const plain = { demo_mode: false, demo_login: null, map: null, source_url: 'https://example.org/src', ...accounts };
    const demo = {
      demo_mode: true,
      demo_login: { email: 'admin@example.com', password: 'secret-1', more: 1 },
      map: { tile_url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '© Tiles' },
      source_url: null,
      mail: true,
      signup: 'approval',
      oidc: { name: 'Pocket ID', only: true, more: 1 },
    };
    expect(parseAppConfig(plain)).toEqual(plain);
    expect(parseAppConfig(demo)).toEqual({
      demo_mode: true,
      demo_login: { email: 'admin@example.com', password: 'secret-1' },
      map: { tile_url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '© Tiles' },
      source_url: null,
      mail: true,
      signup: 'approval',
      oidc: { name: 'Pocket ID', only: true },
    });
    expect(parseAppConfig(demo)).toEqual(AppConfigSchema.parse(demo));
  });

  it.each([
    [{ demo_login: null, map: null, source_url: null }, 'app config.demo_mode must be a boolean, got undefined.'],
    [
      { demo_mode: 'yes', demo_login: null, map: null, source_url: null },
      'app config.demo_mode must be a boolean, got the string "yes".',
    ],
    [{ demo_mode: true, source_url: null }, 'app config.demo_login must be an object, got undefined.'],
    [{ demo_mode: false, demo_login: null, source_url: null }, 'app config.map must be an object, got undefined.'],
    [
      { demo_mode: false, demo_login: null, map: { tile_url: 3, attribution: '' }, source_url: null },
      'app config.map.tile_url must be a string, got number 3.',
    ],
    [
      { demo_mode: true, demo_login: { email: 'a@b.c' }, map: null, source_url: null },
      'app config.demo_login.password must be a string, got undefined.',
    ],
    [{ demo_mode: false, demo_login: null, map: null }, 'app config.source_url must be a string, got undefined.'],
    [
      { demo_mode: false, demo_login: null, map: null, source_url: 3 },
      'app config.source_url must be a string, got number 3.',
    ],
  ])('refuses %j', (value, message) => {
    expect(() => parseAppConfig(value)).toThrow(message);
    expect(AppConfigSchema.safeParse(value).success).toBe(false);
  });
});

describe('parseAuthResponse', () => {
  it('returns the user and the token', () => {
    expect(parseAuthResponse(auth)).toEqual(auth);
    expect(parseAuthResponse(auth)).toEqual(AuthResponseSchema.parse(auth));
  });

  it('checks the nested user and the token type', () => {
    expect(() => parseAuthResponse({ ...auth, user: { ...user, id: null } })).toThrow(
      'auth response.user.id must be an integer, got null.',
    );
    expect(() => parseAuthResponse({ ...auth, token_type: 'bearer' })).toThrow(
      'auth response.token_type must be one of Bearer, got the string "bearer".',
    );
    expect(() => parseAuthResponse({ ...auth, access_token: 1 })).toThrow(
      'auth response.access_token must be a string, got number 1.',
    );
  });
});

describe('parseMessage and parseErrorBody', () => {
  it('read the message and the per-field errors', () => {
    expect(parseMessage({ message: 'Logged out.' })).toEqual({ message: 'Logged out.' });
    expect(parseErrorBody({ message: 'Invalid.' })).toEqual({ message: 'Invalid.' });
    const body = { message: 'Invalid.', errors: { email: ['Taken.'], name: [] } };
    expect(parseErrorBody(body)).toEqual(body);
    expect(parseErrorBody(body)).toEqual(ErrorSchema.parse(body));
  });

  it('refuse bodies of another shape', () => {
    expect(() => parseMessage('Logged out.')).toThrow('message body must be an object');
    expect(() => parseErrorBody({ message: 'x', errors: { email: 'Taken.' } })).toThrow(
      'error body.errors.email must be an array, got the string "Taken.".',
    );
    expect(() => parseErrorBody({ message: 'x', errors: { email: ['ok', 3] } })).toThrow(
      'error body.errors.email[1] must be a string, got number 3.',
    );
    expect(() => parseErrorBody({ errors: {} })).toThrow('error body.message must be a string, got undefined.');
  });
});

const TRICKY_VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  '',
  'user',
  'manager',
  'admin',
  'Bearer',
  [],
  ['text'],
  [1],
  {},
  { email: 'a@b.c', password: 'secret-1' },
];

/** Every copy of `valid` with one field (at any depth) replaced by a tricky value or removed. */
function variants(valid: unknown): unknown[] {
  const result: unknown[] = [...TRICKY_VALUES];
  if (typeof valid !== 'object' || valid === null) return result;
  const entries: [string, unknown][] = Array.isArray(valid)
    ? valid.map((item, index) => [String(index), item])
    : [...Object.entries(valid), ['extra', undefined]];
  for (const [key, child] of entries) {
    for (const replacement of variants(child)) {
      const copy: Record<string, unknown> = Array.isArray(valid)
        ? ({ ...valid } as Record<string, unknown>)
        : { ...valid };
      if (replacement === undefined) delete copy[key];
      else copy[key] = replacement;
      result.push(Array.isArray(valid) ? Object.values(copy) : copy);
    }
  }
  return result;
}

describe('the guards agree with the zod schemas of core/schemas.ts', () => {
  const cases = [
    ['UserSchema', UserSchema, parseUser, user],
    [
      'AppConfigSchema',
      AppConfigSchema,
      parseAppConfig,
      { demo_mode: true, demo_login: { email: 'a', password: 'b' }, source_url: 'https://example.org' },
    ],
    ['AuthResponseSchema', AuthResponseSchema, parseAuthResponse, auth],
    ['MessageSchema', MessageSchema, parseMessage, { message: 'Done.' }],
    ['ErrorSchema', ErrorSchema, parseErrorBody, { message: 'Invalid.', errors: { email: ['Taken.', 'Too long.'] } }],
  ] as const;

  const agree = (
    schema: { safeParse(value: unknown): { success: boolean; data?: unknown } },
    guard: (value: unknown) => unknown,
    value: unknown,
  ) => {
    const expected = schema.safeParse(value);
    const actual = outcome(guard, value);
    expect(actual.success, JSON.stringify(value)).toBe(expected.success);
    if (expected.success && actual.success) expect(actual.data).toEqual(expected.data);
  };

  it.each(cases)('%s: same verdict and value for every one-field change', (_name, schema, guard, valid) => {
    const all = variants(valid);
    expect(all.length).toBeGreaterThan(TRICKY_VALUES.length * 2);
    for (const value of all) agree(schema, guard, value);
  });

  it.each(cases)('%s: same verdict and value for arbitrary JSON', (_name, schema, guard, valid) => {
    const field = fc.constantFrom(...Object.keys(valid));
    const json = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(field, fc.jsonValue()),
      fc.tuple(field, fc.jsonValue()).map(([key, value]) => ({ ...valid, [key]: value })),
    );
    fc.assert(
      fc.property(json, (value) => agree(schema, guard, value)),
      { numRuns: 300 },
    );
  });
});

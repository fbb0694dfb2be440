/**
 * Hand-written checks for the answers the app needs before its first screen
 * (the session check, the app config, login and registration) and for error
 * bodies. They do what the zod schemas of `core/schemas.ts` do for these
 * shapes — check every field's type and keep only the known fields — without
 * shipping zod in the first download. The types still come from the schemas:
 * each guard builds a value typed with the schema's type, so a field added to
 * a schema fails to compile here until the guard checks it too.
 */
import { DATE_FORMATS, LOCALES, PACE_FORMATS, THEMES, UNITS } from '../../core/preferences.js';
import type { AppConfig, AuthResponse, ErrorBody, Role, User } from '../../core/schemas.js';

/** An answer whose shape does not match the API contract; `path` names the first field that is wrong. */
export class ResponseShapeError extends TypeError {
  readonly path: string;
  constructor(path: string, expected: string, value: unknown) {
    super(`${path} must be ${expected}, got ${describeValue(value)}.`);
    this.name = 'ResponseShapeError';
    this.path = path;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

type Fields = Readonly<Record<string, unknown>>;

function objectAt(value: unknown, path: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ResponseShapeError(path, 'an object', value);
  }
  return value as Fields;
}

function stringAt(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new ResponseShapeError(path, 'a string', value);
  return value;
}

function booleanAt(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new ResponseShapeError(path, 'a boolean', value);
  return value;
}

/** A safe integer, as zod's `.int()` requires. */
function integerAt(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new ResponseShapeError(path, 'an integer', value);
  return value;
}

function oneOfAt<const T extends string>(value: unknown, path: string, options: readonly T[]): T {
  const match = options.find((option) => option === value);
  if (match === undefined) throw new ResponseShapeError(path, `one of ${options.join(', ')}`, value);
  return match;
}

/** The roles of `RoleSchema`: a `Record<Role, Role>` makes the compiler refuse a missing or unknown role. */
const ROLES = Object.values<Role>({ user: 'user', manager: 'manager', admin: 'admin' } satisfies Record<Role, Role>);

/** The statuses of `UserSchema` and the policies of `AppConfigSchema` (CONTRACT.md §21). */
const USER_STATUSES = Object.values<User['status']>({
  active: 'active',
  unverified: 'unverified',
  pending: 'pending',
} satisfies Record<User['status'], User['status']>);
const SIGNUP_POLICIES = Object.values<AppConfig['signup']>({
  open: 'open',
  verify: 'verify',
  approval: 'approval',
  closed: 'closed',
} satisfies Record<AppConfig['signup'], AppConfig['signup']>);

/** `UserSchema`. */
export function parseUser(value: unknown, path = 'user'): User {
  const user = objectAt(value, path);
  return {
    id: integerAt(user.id, `${path}.id`),
    name: stringAt(user.name, `${path}.name`),
    email: stringAt(user.email, `${path}.email`),
    role: oneOfAt(user.role, `${path}.role`, ROLES),
    timezone: stringAt(user.timezone, `${path}.timezone`),
    units: oneOfAt(user.units, `${path}.units`, UNITS),
    theme: oneOfAt(user.theme, `${path}.theme`, THEMES),
    max_heart_rate: user.max_heart_rate === null ? null : integerAt(user.max_heart_rate, `${path}.max_heart_rate`),
    resting_heart_rate:
      user.resting_heart_rate === null ? null : integerAt(user.resting_heart_rate, `${path}.resting_heart_rate`),
    pace_format: oneOfAt(user.pace_format, `${path}.pace_format`, PACE_FORMATS),
    date_format: oneOfAt(user.date_format, `${path}.date_format`, DATE_FORMATS),
    locale: oneOfAt(user.locale, `${path}.locale`, LOCALES),
    status: oneOfAt(user.status, `${path}.status`, USER_STATUSES),
    two_factor: booleanAt(user.two_factor, `${path}.two_factor`),
    date: stringAt(user.date, `${path}.date`),
    created_at: stringAt(user.created_at, `${path}.created_at`),
    updated_at: stringAt(user.updated_at, `${path}.updated_at`),
  };
}

/** `AppConfigSchema`. */
export function parseAppConfig(value: unknown, path = 'app config'): AppConfig {
  const config = objectAt(value, path);
  const demoLogin = config.demo_login === null ? null : objectAt(config.demo_login, `${path}.demo_login`);
  const map = config.map === null ? null : objectAt(config.map, `${path}.map`);
  return {
    map:
      map === null
        ? null
        : {
            tile_url: stringAt(map.tile_url, `${path}.map.tile_url`),
            attribution: stringAt(map.attribution, `${path}.map.attribution`),
          },
    demo_mode: booleanAt(config.demo_mode, `${path}.demo_mode`),
    demo_login:
      demoLogin === null
        ? null
        : {
            email: stringAt(demoLogin.email, `${path}.demo_login.email`),
            password: stringAt(demoLogin.password, `${path}.demo_login.password`),
          },
    source_url: config.source_url === null ? null : stringAt(config.source_url, `${path}.source_url`),
    mail: booleanAt(config.mail, `${path}.mail`),
    signup: oneOfAt(config.signup, `${path}.signup`, SIGNUP_POLICIES),
    oidc: config.oidc === null ? null : parseOidc(objectAt(config.oidc, `${path}.oidc`), `${path}.oidc`),
  };
}

/** Single sign-on's button (§21); `only` (OIDC_ONLY) is there only when true. */
const parseOidc = (oidc: Record<string, unknown>, path: string) => ({
  name: stringAt(oidc.name, `${path}.name`),
  ...(oidc.only === true ? { only: true as const } : {}),
});

/** `AuthResponseSchema`: the answer of login and registration. */
export function parseAuthResponse(value: unknown, path = 'auth response'): AuthResponse {
  const auth = objectAt(value, path);
  return {
    user: parseUser(auth.user, `${path}.user`),
    access_token: stringAt(auth.access_token, `${path}.access_token`),
    token_type: oneOfAt(auth.token_type, `${path}.token_type`, ['Bearer']),
  };
}

/** What a login answers (core/two-factor.ts `LoginAnswerSchema`): signed in, or a code is needed first (§21). */
export const parseLoginAnswer = (value: unknown): AuthResponse | { two_factor_required: true; challenge: string } =>
  objectAt(value, 'login answer').two_factor_required === true
    ? { two_factor_required: true, challenge: stringAt((value as Fields).challenge, 'challenge') }
    : parseAuthResponse(value);

/** `MessageSchema`. */
export function parseMessage(value: unknown, path = 'message body'): { message: string } {
  return { message: stringAt(objectAt(value, path).message, `${path}.message`) };
}

/** `ErrorSchema`: `{message, errors?: {field: [messages]}}`. */
export function parseErrorBody(value: unknown, path = 'error body'): ErrorBody {
  const body = objectAt(value, path);
  const message = stringAt(body.message, `${path}.message`);
  if (body.errors === undefined) return { message };
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(objectAt(body.errors, `${path}.errors`))) {
    if (!Array.isArray(messages)) throw new ResponseShapeError(`${path}.errors.${field}`, 'an array', messages);
    errors[field] = messages.map((text: unknown, index) => stringAt(text, `${path}.errors.${field}[${index}]`));
  }
  return { message, errors };
}

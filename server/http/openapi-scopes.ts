/**
 * Which bearer tokens may call each route, in the OpenAPI document (CONTRACT.md §11): every
 * operation that needs a token gets `x-token-scopes`, the kinds of token it accepts. A sign-in
 * token (login, registration) may call everything its user may; a `read` personal token only
 * GET routes (not those tagged `webhooks`, §20); a `write` personal token everything but the routes
 * tagged `tokens`, `calendar` (the calendar feed's key, §20), `inbox` (§20) or `two-factor` (§21), and it never
 * changes an e-mail address or a password nor deletes its own account (those requests get 403).
 */
export const SIGN_IN_ONLY_TAGS: readonly string[] = ['tokens', 'calendar', 'two-factor', 'inbox'];
/** Tags whose every operation, GET too, wants a sign-in or a `write` token (webhooks, §20: a `read` token gets 403). */
export const NOT_READ_TAGS: readonly string[] = ['webhooks'];

export const TOKEN_SCOPES_DESCRIPTION = [
  'Authenticate with `Authorization: Bearer <token>`: the access_token of a login or a registration',
  '(a sign-in token, forgotten after 30 days without use), or a personal API token created under',
  'My Profile or with POST /api/v1/tokens.',
  'A personal token has a scope. `read`: GET requests only (403 on any other method and on /tokens).',
  '`write`: whatever its owner may do, except managing tokens, changing an e-mail address or a password,',
  'and deleting the account (403). Each operation lists the tokens it accepts in `x-token-scopes`',
  "(`sign-in`, `read`, `write`). Distances are always kilometres, whatever the user's units.",
].join(' ');

type Operation = { security?: unknown[]; tags?: string[]; [key: string]: unknown };
type Document = { paths?: Record<string, Record<string, Operation>> };

/** The scopes that may call one operation. */
export function tokenScopesOf(method: string, operation: Operation): string[] {
  if (operation.tags?.some((tag) => SIGN_IN_ONLY_TAGS.includes(tag))) return ['sign-in'];
  if (operation.tags?.some((tag) => NOT_READ_TAGS.includes(tag))) return ['sign-in', 'write'];
  return method.toLowerCase() === 'get' || method.toLowerCase() === 'head'
    ? ['sign-in', 'read', 'write']
    : ['sign-in', 'write'];
}

/** Adds `x-token-scopes` to every operation that declares the bearer scheme. */
export function withTokenScopes<T extends object>(document: T): T {
  for (const operations of Object.values((document as Document).paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!Array.isArray(operation.security) || operation.security.length === 0) continue;
      operation['x-token-scopes'] = tokenScopesOf(method, operation);
    }
  }
  return document;
}

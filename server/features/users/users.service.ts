/**
 * Accounts and their sign-in tokens (CONTRACT.md §3-§6): creating, reading, changing and
 * deleting users, the first admin, and the tokens a session is made of. The auth feature
 * builds registration, login and logout on these.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Language } from '../../../core/i18n/languages.js';
import type { Actor } from '../../../core/permissions.js';
import type { Locale } from '../../../core/preferences.js';
import {
  EmailSchema,
  type AuthResponse,
  type Role,
  type User,
  type UserListQuery,
  type UserStatus,
  type UserUpdateBody,
} from '../../../core/schemas.js';
import { ConfigError } from '../../config.js';
import type { PersonalToken, TokenCreateBody } from '../../../core/tokens.js';
import {
  inTransaction,
  nowIso,
  type AppContext,
  type AppMemory,
  type PageWindow,
  type Session,
} from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/schema.js';
import { lockRunner } from '../../db/locks.js';
import { RunTally, clearEveryonesDays, countSignUp, moveAnswerRevision } from '../../db/tallies.js';
import { forbidden, invalid, notFound, requirePermission } from '../../errors.js';
import * as mail from '../mail/mail.service.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import * as tokens from './tokens.repository.js';
import * as users from './users.repository.js';

export type { UserRecord } from './users.repository.js';
export { toUser } from './users.repository.js';
export { hashPassword } from './passwords.js';

export const EMAIL_TAKEN = 'The email has already been taken.';
const DEMO_LOCKED = "Demo accounts' e-mail and password cannot be changed.";
const DEMO_ROLE_LOCKED = "Demo accounts' role cannot be changed.";
const DEMO_UNDELETABLE = 'Demo accounts cannot be deleted.';
const PERSONAL_CREDENTIALS = 'A personal API token cannot change an e-mail address or a password.';
const PERSONAL_DELETE = 'A personal API token cannot delete the account.';

export const TOKEN_IDLE_DAYS = 30;
const TOKEN_IDLE_MS = TOKEN_IDLE_DAYS * 86_400_000;
/** last_used_at is refreshed at most this often, so reads need no write. */
const TOKEN_TOUCH_MS = 60_000;

async function findOr404(ctx: AppContext, id: number): Promise<users.UserRecord> {
  const user = await users.findUserById(ctx.db, id);
  if (!user) throw notFound();
  return user;
}

export function findUserById(ctx: AppContext, id: number): Promise<users.UserRecord | null> {
  return users.findUserById(ctx.db, id);
}

export interface NewAccount {
  name: string;
  email: string;
  role: Role;
  timezone: string;
  locale?: Locale | undefined;
  isDemo?: boolean;
  /** CONTRACT.md §21's sign-up policy: absent = active. */
  status?: UserStatus | undefined;
}

/** Inserts an account, on `db` (the caller's transaction), and counts it on its day. */
export async function insertAccount(
  db: Executor,
  account: NewAccount & { passwordHash: string; createdAt: string },
): Promise<users.UserRecord> {
  const record = await users.insertUser(db, account);
  await countSignUp(db, account.createdAt, 1);
  return record;
}

/** A new account with a password; a taken e-mail is a 422 on `email`. */
export async function createAccount(
  ctx: AppContext,
  account: NewAccount & { password: string },
  /** More of the same transaction, given the new account (a mail to it, a used invitation). */
  alsoInTransaction?: (trx: Executor, record: users.UserRecord) => Promise<void>,
): Promise<users.UserRecord> {
  if (await users.emailTakenByOther(ctx.db, account.email, null)) throw invalid('email', EMAIL_TAKEN);
  const passwordHash = await hashPassword(account.password);
  try {
    return await inTransaction(ctx, async (trx) => {
      const record = await insertAccount(trx, { ...account, passwordHash, createdAt: nowIso(ctx) });
      await alsoInTransaction?.(trx, record);
      return record;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid('email', EMAIL_TAKEN);
    throw error;
  }
}

/** The account of an e-mail and password, or null; an unknown e-mail costs as much time as a wrong password. */
export async function verifyCredentials(
  ctx: AppContext,
  email: string,
  password: string,
): Promise<users.UserRecord | null> {
  const user = await users.findUserByEmail(ctx.db, email);
  const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
  return user && valid ? user : null;
}

export interface FirstAdmin {
  email: string;
  /** Set only when the password was generated and must be shown to the operator. */
  generatedPassword: string | null;
}

/** First start: an admin account from ADMIN_EMAIL / ADMIN_PASSWORD, or a generated one printed once. */
export async function ensureFirstAdmin(ctx: AppContext): Promise<FirstAdmin | null> {
  if (await users.hasUsers(ctx.db)) return null;
  const parsedEmail = EmailSchema.safeParse(ctx.config.adminEmail ?? 'admin@example.com');
  if (!parsedEmail.success) throw new ConfigError('ADMIN_EMAIL must be a valid e-mail address.');
  const given = ctx.config.adminPassword;
  if (given !== undefined && (given.length < 8 || given.length > 128)) {
    throw new ConfigError('ADMIN_PASSWORD must be 8 to 128 characters long.');
  }
  const password = given ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  try {
    await inTransaction(ctx, (trx) =>
      insertAccount(trx, {
        name: 'Admin',
        email: parsedEmail.data,
        passwordHash,
        role: 'admin',
        timezone: 'UTC',
        createdAt: nowIso(ctx),
      }),
    );
  } catch (error) {
    // Another instance starting on the same database created it first.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  return { email: parsedEmail.data, generatedPassword: given === undefined ? password : null };
}

export async function listUsers(
  ctx: AppContext,
  actor: Actor,
  query: UserListQuery,
  page: PageWindow,
): Promise<{ users: User[]; total: number }> {
  requirePermission(actor, { type: 'user.list' });
  const result = await users.listUsers(ctx.db, { query: query.query, limit: page.limit, offset: page.offset });
  return result;
}

export async function showUser(ctx: AppContext, actor: Actor, id: number): Promise<User> {
  const target = await findOr404(ctx, id);
  requirePermission(actor, { type: 'user.view', target });
  return users.toUser(target);
}

export async function updateUser(
  ctx: AppContext,
  actor: Actor,
  session: Pick<Session, 'tokenId' | 'scope'>,
  id: number,
  body: UserUpdateBody,
  /** The request's language: a confirmation mail's, when the user's locale is `auto`. */
  lang: Language = 'en',
): Promise<User> {
  const target = await findOr404(ctx, id);
  requirePermission(actor, { type: 'user.update', target });
  if (session.scope !== 'full' && (body.email !== target.email || body.password !== undefined)) {
    throw forbidden(PERSONAL_CREDENTIALS);
  }
  const roleChanges = body.role !== undefined && body.role !== target.role;
  if (roleChanges) requirePermission(actor, { type: 'user.changeRole', target });
  if (ctx.config.demoMode && target.isDemo) {
    if (body.email !== target.email || body.password !== undefined) throw forbidden(DEMO_LOCKED);
    if (roleChanges) throw forbidden(DEMO_ROLE_LOCKED);
  }
  if (body.email !== target.email && (await users.emailTakenByOther(ctx.db, body.email, target.id))) {
    throw invalid('email', EMAIL_TAKEN);
  }
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  // With mail on, one's own new e-mail waits for its link (CONTRACT.md §21); the answer keeps the old one.
  const confirmEmail = mail.mailIsOn(ctx) && actor.id === target.id && body.email !== target.email;
  try {
    const updated = await inTransaction(ctx, async (trx) => {
      if (roleChanges && target.role === 'admin') {
        // Counted under lock before the change: racing demotions never leave zero admins.
        const adminCount = await users.lockAdmins(trx);
        requirePermission(actor, { type: 'user.changeRole', target, newRole: body.role, adminCount });
      }
      const row = await users.updateUser(trx, target.id, {
        name: body.name,
        ...(confirmEmail ? { pendingEmail: body.email } : { email: body.email }),
        ...(passwordHash ? { passwordHash } : {}),
        ...(roleChanges ? { role: body.role } : {}),
        ...(body.timezone ? { timezone: body.timezone } : {}),
        ...(body.units ? { units: body.units } : {}),
        ...(body.theme ? { theme: body.theme } : {}),
        ...(body.max_heart_rate !== undefined ? { maxHeartRate: body.max_heart_rate } : {}),
        ...(body.resting_heart_rate !== undefined ? { restingHeartRate: body.resting_heart_rate } : {}),
        ...(body.pace_format ? { paceFormat: body.pace_format } : {}),
        ...(body.date_format ? { dateFormat: body.date_format } : {}),
        ...(body.locale ? { locale: body.locale } : {}),
        updatedAt: nowIso(ctx),
      });
      if (!row) throw notFound();
      if (confirmEmail) await mailEmailConfirmation(ctx, trx, row, body.email, lang);
      // The zones, and the efforts estimated from heart rate, follow the maximum heart rate (§14, §15).
      // No other field of the profile shows in a kept answer: the time zone reaches them through
      // today, which is in every key of the answer cache (decision 034).
      if (body.max_heart_rate !== undefined && body.max_heart_rate !== target.max_heart_rate) {
        await moveAnswerRevision(trx, [target.id]);
      }
      // A new password signs the user out everywhere else.
      if (passwordHash) {
        await tokens.deleteUserTokens(trx, target.id, actor.id === target.id ? session.tokenId : undefined);
      }
      return row;
    });
    if (confirmEmail) ctx.memory.mailer?.kick();
    return users.toUser(updated);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid('email', EMAIL_TAKEN);
    throw error;
  }
}

/** The link that makes a pending e-mail the user's, mailed to that address; an older one stops working. */
async function mailEmailConfirmation(
  ctx: AppContext,
  trx: Executor,
  user: users.UserRecord,
  email: string,
  lang: Language,
): Promise<void> {
  await mail.retireLinks(ctx, trx, user.id, 'email');
  const token = await mail.issueLink(ctx, trx, { purpose: 'email', userId: user.id, email });
  await mail.queueMail(ctx, trx, {
    kind: 'email',
    to: email,
    name: user.name,
    lang: mail.mailLanguage(user.locale, lang),
    url: mail.publicLink(ctx, `/confirm-email#token=${token}`),
  });
}

export async function deleteUser(ctx: AppContext, actor: Actor, scope: Session['scope'], id: number): Promise<void> {
  const target = await findOr404(ctx, id);
  requirePermission(actor, { type: 'user.delete', target, adminCount: await users.countAdmins(ctx.db) });
  if (scope !== 'full' && target.id === actor.id) throw forbidden(PERSONAL_DELETE);
  if (ctx.config.demoMode && target.isDemo) throw forbidden(DEMO_UNDELETABLE);
  await inTransaction(ctx, async (trx) => {
    // The rule again, under lock: racing deletions and demotions never leave zero admins.
    if (target.role === 'admin') {
      requirePermission(actor, { type: 'user.delete', target, adminCount: await users.lockAdmins(trx) });
    }
    // The runner's row first: no run of theirs is written between the count below and the deletion.
    await lockRunner(trx, target.id);
    const tally = new RunTally(trx);
    await tally.forgetRunner(target.id);
    if (await users.deleteUser(trx, target.id)) {
      await tally.finish();
      await countSignUp(trx, target.created_at, -1);
    }
  });
}

/** Every account and its runs and tokens, with the tallies back to zero (the demo reset). */
export async function deleteAllAccounts(db: Executor): Promise<void> {
  await users.deleteAllUsers(db);
  await clearEveryonesDays(db);
}

/** The account of an e-mail (lower-cased), or null. */
export function findUserByEmail(ctx: AppContext, email: string): Promise<users.UserRecord | null> {
  return users.findUserByEmail(ctx.db, email.toLowerCase());
}

/**
 * A new password set through a mailed link (CONTRACT.md §21), on `db` (the caller's transaction):
 * every token of the user, sign-in and personal, stops working, as §11's password change does.
 */
export async function resetPassword(
  ctx: AppContext,
  db: Executor,
  userId: number,
  passwordHash: string,
): Promise<users.UserRecord | null> {
  const row = await users.updateUser(db, userId, { passwordHash, updatedAt: nowIso(ctx) });
  if (row) await tokens.deleteUserTokens(db, userId);
  return row;
}

/** Sets an account's status (verified, approved) on `db`; null when the user is gone. */
export async function setStatus(
  ctx: AppContext,
  db: Executor,
  userId: number,
  status: UserStatus,
): Promise<users.UserRecord | null> {
  return users.updateUser(db, userId, { status, updatedAt: nowIso(ctx) });
}

/** Stores a new e-mail until its link is followed (CONTRACT.md §21), on `db`. */
export async function setPendingEmail(ctx: AppContext, db: Executor, userId: number, email: string | null) {
  await users.updateUser(db, userId, { pendingEmail: email, updatedAt: nowIso(ctx) });
}

/**
 * Makes a confirmed pending e-mail the user's e-mail, on `db`; a 422 on `email` when another
 * account took it meanwhile, null when the user is gone or asked for another address since.
 */
export async function confirmPendingEmail(
  ctx: AppContext,
  db: Executor,
  userId: number,
  email: string,
): Promise<users.UserRecord | null> {
  const user = await users.findUserById(db, userId);
  if (!user || user.pendingEmail !== email) return null;
  if (await users.emailTakenByOther(db, email, userId)) throw invalid('email', EMAIL_TAKEN);
  return users.updateUser(db, userId, { email, pendingEmail: null, updatedAt: nowIso(ctx) });
}

/** Accounts waiting for approval, oldest first (the admin panel's list; at most 500). */
export function listPendingUsers(ctx: AppContext): Promise<User[]> {
  return users.listPendingUsers(ctx.db, 500);
}

/** Sets the user's `two_factor` flag, on `db` (the caller's transaction, which writes the secret with it). */
export function setTwoFactorFlag(db: Executor, userId: number, on: boolean): Promise<void> {
  return users.setTwoFactorFlag(db, userId, on);
}

export async function accountExists(ctx: AppContext, email: string): Promise<boolean> {
  return (await users.findUserByEmail(ctx.db, email)) !== null;
}

/** The app's batched lookup of tokens' owners (PostgreSQL), kept on AppContext.memory. */
export function tokenOwnerLookup(db: Executor): AppMemory['tokenOwners'] {
  return tokens.batchedTokenOwners(db);
}

/** The number of users, and of those created at or after an instant (the admin dashboard). */
export async function countUsers(ctx: AppContext, since: string[]): Promise<{ users: number; since: number[] }> {
  return {
    users: await users.countUsers(ctx.db),
    since: await Promise.all(since.map((instant) => users.countUsersSince(ctx.db, instant))),
  };
}

/** The users search index built again from every user (the repair command, the seed). */
export function rebuildSearchIndex(db: Executor): Promise<void> {
  return users.rebuildSearchIndex(db);
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** A random token: 32 bytes, base64url; personal ones start with `rt_` so that secret scanners can spot them. */
function newToken(prefix = ''): { token: string; hash: string } {
  const token = prefix + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** A new sign-in token for a user: random, stored only as its hash. */
export async function issueToken(ctx: AppContext, user: users.UserRecord): Promise<AuthResponse> {
  const { token, hash } = newToken();
  await tokens.insertToken(ctx.db, user.id, hash, nowIso(ctx));
  return { user: users.toUser(user), access_token: token, token_type: 'Bearer' };
}

/** A new personal API token (CONTRACT.md §11): returned in plain text this once, stored as its hash. */
export async function issuePersonalToken(
  ctx: AppContext,
  userId: number,
  body: TokenCreateBody,
): Promise<{ token: PersonalToken; plainText: string }> {
  const { token, hash } = newToken('rt_');
  const nowMs = ctx.config.now().getTime();
  const expiresAt = body.expires_in_days ? new Date(nowMs + body.expires_in_days * 86_400_000).toISOString() : null;
  const row = await tokens.insertPersonalToken(ctx.db, {
    userId,
    tokenHash: hash,
    name: body.name,
    scope: body.scope,
    createdAt: nowIso(ctx),
    expiresAt,
  });
  return { token: row, plainText: token };
}

export function listPersonalTokens(ctx: AppContext, userId: number): Promise<PersonalToken[]> {
  return tokens.listPersonalTokens(ctx.db, userId);
}

/** Revokes one of the user's personal tokens; anyone else's (or a sign-in token) is a 404. */
export async function revokePersonalToken(ctx: AppContext, userId: number, tokenId: number): Promise<void> {
  if (!(await tokens.deletePersonalToken(ctx.db, userId, tokenId))) throw notFound();
}

/**
 * The session behind a bearer token, or null when it is unknown, revoked, idle too long (a
 * sign-in token) or expired (a personal token). One query; a write at most once a minute.
 */
export async function sessionOfToken(ctx: AppContext, token: string): Promise<Session | null> {
  if (token.length < 20 || token.length > 200) return null;
  const found = await tokens.findTokenOwner(ctx.db, hashToken(token), ctx.memory.tokenOwners);
  if (!found) return null;
  const nowMs = ctx.config.now().getTime();
  const lastUsedMs = found.lastUsedAt === null ? null : Date.parse(found.lastUsedAt);
  if (found.kind === 'personal') {
    if (found.expiresAt !== null && Date.parse(found.expiresAt) <= nowMs) return null;
  } else if (lastUsedMs === null || nowMs - lastUsedMs > TOKEN_IDLE_MS) {
    await tokens.deleteToken(ctx.db, found.tokenId);
    return null;
  }
  if (lastUsedMs === null || nowMs - lastUsedMs > TOKEN_TOUCH_MS) {
    await tokens.touchToken(ctx.db, found.tokenId, nowIso(ctx));
  }
  const scope = found.kind === 'personal' ? (found.scope ?? 'read') : 'full';
  return { tokenId: found.tokenId, scope, user: found.user, revision: found.revision };
}

/** Logout: revokes the request's sign-in token; a personal token is revoked only from the token list. */
export async function revokeToken(ctx: AppContext, session: Pick<Session, 'tokenId' | 'scope'>): Promise<void> {
  if (session.scope === 'full') await tokens.deleteToken(ctx.db, session.tokenId);
}

/** Housekeeping: forget sign-in tokens idle for longer than they live, and expired personal tokens. */
export async function purgeIdleTokens(ctx: AppContext): Promise<void> {
  const nowMs = ctx.config.now().getTime();
  await tokens.deleteIdleTokens(ctx.db, new Date(nowMs - TOKEN_IDLE_MS).toISOString());
  await tokens.deleteExpiredTokens(ctx.db, nowIso(ctx));
}

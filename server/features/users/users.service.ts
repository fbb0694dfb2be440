/** Rules for reading, changing and deleting users (CONTRACT.md §3-§5). */
import type { Actor } from '../../../core/permissions.js';
import type { User, UserListQuery, UserUpdateBody } from '../../../core/schemas.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { AppError, forbidden, invalid, notFound } from '../../http/errors.js';
import type { PageRequest } from '../../http/pagination.js';
import { requirePermission } from '../../http/policy.js';
import { EMAIL_TAKEN, isUniqueViolation } from '../auth/auth.service.js';
import { hashPassword } from '../auth/passwords.js';
import { deleteUserTokens } from '../auth/tokens.repository.js';
import * as users from './users.repository.js';

async function findOr404(ctx: AppContext, id: number): Promise<users.UserRecord> {
  const user = await users.findUserById(ctx.db, id);
  if (!user) throw notFound();
  return user;
}

export async function listUsers(
  ctx: AppContext,
  actor: Actor,
  query: UserListQuery,
  page: PageRequest,
): Promise<{ users: User[]; total: number }> {
  requirePermission(actor, { type: 'user.list' });
  const result = await users.listUsers(ctx.db, { query: query.query, limit: page.limit, offset: page.offset });
  return { users: result.users.map(users.toUser), total: result.total };
}

export async function showUser(ctx: AppContext, actor: Actor, id: number): Promise<User> {
  const target = await findOr404(ctx, id);
  requirePermission(actor, { type: 'user.view', target });
  return users.toUser(target);
}

const DEMO_LOCKED = "Demo accounts' e-mail and password cannot be changed.";

export async function updateUser(
  ctx: AppContext,
  actor: Actor,
  currentTokenId: number,
  id: number,
  body: UserUpdateBody,
): Promise<User> {
  const target = await findOr404(ctx, id);
  requirePermission(actor, { type: 'user.update', target });
  const roleChanges = body.role !== undefined && body.role !== target.role;
  if (roleChanges) requirePermission(actor, { type: 'user.changeRole', target });
  if (ctx.config.demoMode && target.isDemo && (body.email !== target.email || body.password !== undefined)) {
    throw forbidden(DEMO_LOCKED);
  }
  if (body.email !== target.email && (await users.emailTakenByOther(ctx.db, body.email, target.id))) {
    throw invalid('email', EMAIL_TAKEN);
  }
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  try {
    const updated = await inTransaction(ctx, async (trx) => {
      const row = await users.updateUser(trx, target.id, {
        name: body.name,
        email: body.email,
        ...(passwordHash ? { passwordHash } : {}),
        ...(roleChanges ? { role: body.role } : {}),
        ...(body.timezone ? { timezone: body.timezone } : {}),
        updatedAt: nowIso(ctx),
      });
      if (!row) throw notFound();
      if (roleChanges && target.role === 'admin' && (await users.countAdmins(trx)) === 0) {
        throw forbidden('The last admin cannot lose the admin role.');
      }
      // A new password signs the user out everywhere else.
      if (passwordHash) await deleteUserTokens(trx, target.id, actor.id === target.id ? currentTokenId : undefined);
      return row;
    });
    return users.toUser(updated);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid('email', EMAIL_TAKEN);
    throw error;
  }
}

export async function deleteUser(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const target = await findOr404(ctx, id);
  requirePermission(actor, { type: 'user.delete', target, adminCount: await users.countAdmins(ctx.db) });
  await inTransaction(ctx, async (trx) => {
    await users.deleteUser(trx, target);
    if (target.role === 'admin' && (await users.countAdmins(trx)) === 0) {
      throw new AppError(403, 'The last admin account cannot be deleted.');
    }
  });
}

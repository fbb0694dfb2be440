/** First start: an admin account from ADMIN_EMAIL / ADMIN_PASSWORD, or a generated one printed once. */
import { randomBytes } from 'node:crypto';
import { EmailSchema } from '../core/schemas.js';
import { ConfigError } from './config.js';
import { inTransaction, nowIso, type AppContext } from './context.js';
import { hashPassword } from './features/auth/passwords.js';
import { isUniqueViolation } from './features/auth/auth.service.js';
import { countUsers, insertUser } from './features/users/users.repository.js';

export interface FirstAdmin {
  email: string;
  /** Set only when the password was generated and must be shown to the operator. */
  generatedPassword: string | null;
}

export async function ensureFirstAdmin(ctx: AppContext): Promise<FirstAdmin | null> {
  if ((await countUsers(ctx.db)) > 0) return null;
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
      insertUser(trx, {
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

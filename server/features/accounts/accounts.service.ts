/**
 * The mailed links of CONTRACT.md §21 (decision 048): password reset, address verification,
 * approval, invitations and e-mail change. Each link's token is used once, in the transaction
 * that does what it allows; each mail is written to the outbox in the transaction that causes it
 * and leaves after the answer (routes kick the mailer).
 */
import type { Language } from '../../../core/i18n/languages.js';
import type { Actor } from '../../../core/permissions.js';
import type {
  AcceptInvitationBody,
  AuthResponse,
  InvitationBody,
  ResetBody,
  Role,
  User,
} from '../../../core/schemas.js';
import { inTransaction, type AppContext } from '../../context.js';
import { AppError, forbidden, invalid, notFound, requirePermission } from '../../errors.js';
import { limitAttempts } from '../auth/auth.service.js';
import * as mail from '../mail/mail.service.js';
import * as accounts from '../users/users.service.js';

export const NO_MAIL_RESET = 'Ask an admin to reset your password.';
export const RESET_REQUESTED = 'If an account uses this e-mail address, a link to reset its password is on its way.';
export const PASSWORD_RESET = 'Your password was reset: sign in with your new password.';
export const BAD_LINK = 'This link is invalid or has expired.';
export const DEMO_NO_RESET = "Demo accounts' password cannot be reset.";
export const VERIFY_RESENT =
  'If an account waits for this e-mail address to be confirmed, a new link to confirm it is on its way.';
export const NO_MAIL_INVITATION = 'Invitations are sent by mail: set SMTP_URL, MAIL_FROM and PUBLIC_URL to send them.';
export const ADMINS_INVITE = 'Only an admin can invite someone.';

/** At most this many requests for links per client address a minute (429 beyond). */
const PER_ADDRESS_LIMIT = 5;
const MINUTE_MS = 60_000;
/** At most this many mails of one kind to one account an hour; later requests send nothing. */
const PER_ACCOUNT_LIMIT = 3;
const HOUR_MS = 3_600_000;

const kick = (ctx: AppContext) => ctx.memory.mailer?.kick();

// ---- Password reset ----

/**
 * The part of `POST /auth/forgot` before the answer: the same for every e-mail, known or not
 * (mail on, the per-address limit), so neither the answer nor its time tells whether an account exists.
 */
export async function acceptResetRequest(ctx: AppContext, email: string, ip: string): Promise<{ message: string }> {
  if (!mail.mailIsOn(ctx)) throw new AppError(409, NO_MAIL_RESET);
  await limitAttempts(ctx, `forgot:${ip}`, PER_ADDRESS_LIMIT, MINUTE_MS);
  // The demo's accounts are public (the login page offers one): saying so tells nothing.
  if (ctx.config.demoMode && (await accounts.findUserByEmail(ctx, email.trim()))?.isDemo) {
    throw forbidden(DEMO_NO_RESET);
  }
  return { message: RESET_REQUESTED };
}

/** After the answer of `POST /auth/forgot`: the mail, when the account exists and had fewer than 3 this hour. */
export async function sendResetLink(ctx: AppContext, email: string, lang: Language): Promise<void> {
  const user = await accounts.findUserByEmail(ctx, email.trim());
  if (!user || (ctx.config.demoMode && user.isDemo)) return;
  const sent = await mail.countLinksSince(ctx, user.id, 'reset', ctx.config.now().getTime() - HOUR_MS);
  if (sent >= PER_ACCOUNT_LIMIT) return;
  await inTransaction(ctx, async (trx) => {
    const token = await mail.issueLink(ctx, trx, { purpose: 'reset', userId: user.id, email: user.email });
    await mail.queueMail(ctx, trx, {
      kind: 'reset',
      to: user.email,
      name: user.name,
      lang: mail.mailLanguage(user.locale, lang),
      url: mail.publicLink(ctx, `/reset-password#token=${token}`),
    });
  });
  kick(ctx);
}

/** `POST /auth/reset`: a new password through a reset link; every token of the user stops working. */
export async function resetPassword(ctx: AppContext, body: ResetBody): Promise<{ message: string }> {
  // Hashed before the transaction: the write lock is never held through scrypt.
  const passwordHash = await accounts.hashPassword(body.password);
  await inTransaction(ctx, async (trx) => {
    const link = await mail.useLink(ctx, trx, body.token, 'reset');
    if (!link || link.userId === null) throw invalid('token', BAD_LINK);
    const user = await accounts.resetPassword(ctx, trx, link.userId, passwordHash);
    if (!user) throw invalid('token', BAD_LINK);
    // Thrown inside the transaction: the demo account's password and tokens stay as they were.
    if (ctx.config.demoMode && user.isDemo) throw forbidden(DEMO_NO_RESET);
  });
  return { message: PASSWORD_RESET };
}

// ---- Verification (SIGNUP=verify) ----

/** `POST /auth/verify`: the account becomes active and is signed in, like a login. */
export async function verifyEmail(ctx: AppContext, token: string): Promise<AuthResponse> {
  const user = await inTransaction(ctx, async (trx) => {
    const link = await mail.useLink(ctx, trx, token, 'verify');
    if (!link || link.userId === null) throw invalid('token', BAD_LINK);
    const record = await accounts.setStatus(ctx, trx, link.userId, 'active');
    if (!record) throw invalid('token', BAD_LINK);
    return record;
  });
  return accounts.issueToken(ctx, user);
}

/** Before the answer of `POST /auth/verify/resend`: the per-address limit alone, whatever the e-mail. */
export async function acceptResendRequest(ctx: AppContext, ip: string): Promise<{ message: string }> {
  await limitAttempts(ctx, `verify-resend:${ip}`, PER_ADDRESS_LIMIT, MINUTE_MS);
  return { message: VERIFY_RESENT };
}

/** After the answer: a new link when the account exists, is unverified, and had fewer than 3 this hour. */
export async function resendVerification(ctx: AppContext, email: string, lang: Language): Promise<void> {
  if (!mail.mailIsOn(ctx)) return;
  const user = await accounts.findUserByEmail(ctx, email.trim());
  if (!user || user.status !== 'unverified') return;
  const sent = await mail.countLinksSince(ctx, user.id, 'verify', ctx.config.now().getTime() - HOUR_MS);
  if (sent >= PER_ACCOUNT_LIMIT) return;
  await inTransaction(ctx, async (trx) => {
    const token = await mail.issueLink(ctx, trx, { purpose: 'verify', userId: user.id, email: user.email });
    await mail.queueMail(ctx, trx, {
      kind: 'verify',
      to: user.email,
      name: user.name,
      lang: mail.mailLanguage(user.locale, lang),
      url: mail.publicLink(ctx, `/verify-email#token=${token}`),
    });
  });
  kick(ctx);
}

// ---- Approval (SIGNUP=approval) ----

/** `GET /user/pending`: the accounts waiting for approval (admins and managers). */
export function listPending(ctx: AppContext, actor: Actor): Promise<User[]> {
  requirePermission(actor, { type: 'user.list' });
  return accounts.listPendingUsers(ctx);
}

/** `POST /user/{id}/approve`: the account becomes active; with mail, its owner is told. */
export async function approve(ctx: AppContext, actor: Actor, id: number, lang: Language): Promise<User> {
  const target = await accounts.findUserById(ctx, id);
  if (!target) throw notFound();
  requirePermission(actor, { type: 'user.list' });
  requirePermission(actor, { type: 'user.update', target });
  if (target.status === 'active') return accounts.toUser(target);
  const approved = await inTransaction(ctx, async (trx) => {
    const record = await accounts.setStatus(ctx, trx, id, 'active');
    if (!record) throw notFound();
    if (mail.mailIsOn(ctx)) {
      await mail.queueMail(ctx, trx, {
        kind: 'approved',
        to: record.email,
        name: record.name,
        lang: mail.mailLanguage(record.locale, lang),
        url: mail.publicLink(ctx, '/login'),
      });
    }
    return record;
  });
  kick(ctx);
  return accounts.toUser(approved);
}

// ---- Invitations (any policy; the way in under SIGNUP=closed) ----

/** `POST /invitations`: an admin mails a link valid 7 days to make an account of that e-mail. */
export async function invite(
  ctx: AppContext,
  actor: Actor,
  body: InvitationBody,
  lang: Language,
): Promise<{ invitation: { email: string; role: Role; expires_at: string } }> {
  if (actor.role !== 'admin') throw forbidden(ADMINS_INVITE);
  if (!mail.mailIsOn(ctx)) throw new AppError(409, NO_MAIL_INVITATION);
  if (await accounts.accountExists(ctx, body.email)) throw invalid('email', accounts.EMAIL_TAKEN);
  const role = body.role ?? 'user';
  await inTransaction(ctx, async (trx) => {
    const token = await mail.issueLink(ctx, trx, { purpose: 'invite', userId: null, email: body.email, role });
    await mail.queueMail(ctx, trx, {
      kind: 'invite',
      to: body.email,
      name: null,
      lang,
      url: mail.publicLink(ctx, `/accept-invitation#token=${token}`),
    });
  });
  kick(ctx);
  const expiresAt = new Date(ctx.config.now().getTime() + mail.LINK_LIFETIME_MS.invite).toISOString();
  return { invitation: { email: body.email, role, expires_at: expiresAt } };
}

/** `POST /auth/accept-invitation`: the invitee's account, active, signed in like a registration. */
export async function acceptInvitation(ctx: AppContext, body: AcceptInvitationBody): Promise<AuthResponse> {
  const link = await mail.peekLink(ctx, body.token, 'invite');
  if (!link) throw invalid('token', BAD_LINK);
  const user = await accounts.createAccount(
    ctx,
    {
      name: body.name,
      email: link.email,
      password: body.password,
      role: link.role ?? 'user',
      timezone: body.timezone ?? 'UTC',
      locale: body.locale,
    },
    // Used in the account's own transaction: two requests with one invitation make one account.
    async (trx) => {
      if (!(await mail.useLink(ctx, trx, body.token, 'invite'))) throw invalid('token', BAD_LINK);
    },
  );
  return accounts.issueToken(ctx, user);
}

// ---- E-mail change ----

/** `POST /auth/confirm-email`: the pending e-mail of the link becomes the account's e-mail. */
export async function confirmEmail(ctx: AppContext, token: string): Promise<{ user: User }> {
  const user = await inTransaction(ctx, async (trx) => {
    const link = await mail.useLink(ctx, trx, token, 'email');
    if (!link || link.userId === null) throw invalid('token', BAD_LINK);
    const record = await accounts.confirmPendingEmail(ctx, trx, link.userId, link.email);
    if (!record) throw invalid('token', BAD_LINK);
    return record;
  });
  return { user: accounts.toUser(user) };
}

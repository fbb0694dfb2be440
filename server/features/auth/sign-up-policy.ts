/**
 * The sign-up policy (SIGNUP, CONTRACT.md §21) as registration and login meet it: what a new
 * account's status is, what registration answers under each policy, and the login of an account
 * that is not active yet. The mails themselves are written by features/mail.
 */
import type { Language } from '../../../core/i18n/languages.js';
import type { RegisterBody, RegisterResponse, UserStatus } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import * as mail from '../mail/mail.service.js';
import * as accounts from '../users/users.service.js';

export const REGISTRATION_CLOSED = 'Registration is closed: ask an admin for an invitation.';
export const CHECK_YOUR_MAILBOX = 'Check your mailbox: follow the link we sent you to confirm your e-mail address.';
export const WAIT_FOR_APPROVAL = 'Your account was created and is waiting for an admin to approve it.';
export const LOGIN_UNVERIFIED = 'Please confirm your e-mail address first.';
export const LOGIN_PENDING = 'Your account is waiting for approval.';

/** Login of an account that is not active yet, after its password was found right: a 403 that says why. */
export function refuseInactive(status: UserStatus): void {
  if (status === 'unverified') throw forbidden(LOGIN_UNVERIFIED);
  if (status === 'pending') throw forbidden(LOGIN_PENDING);
}

/** Registration under `verify` or `approval` (`open` is auth.service's own; `closed` refuses). */
export async function registerUnderPolicy(
  ctx: AppContext,
  body: RegisterBody,
  lang: Language,
): Promise<RegisterResponse> {
  const policy = ctx.config.signup;
  if (policy === 'closed') throw forbidden(REGISTRATION_CLOSED);
  const status: UserStatus = policy === 'verify' ? 'unverified' : 'pending';
  const user = await accounts.createAccount(
    ctx,
    {
      name: body.name,
      email: body.email,
      password: body.password,
      role: 'user',
      timezone: body.timezone ?? 'UTC',
      locale: body.locale,
      status,
    },
    async (trx, record) => {
      if (status !== 'unverified') return;
      const token = await mail.issueLink(ctx, trx, { purpose: 'verify', userId: record.id, email: record.email });
      await mail.queueMail(ctx, trx, {
        kind: 'verify',
        to: record.email,
        name: record.name,
        lang: mail.mailLanguage(record.locale, lang),
        url: mail.publicLink(ctx, `/verify-email#token=${token}`),
      });
    },
  );
  return { user: accounts.toUser(user), message: status === 'unverified' ? CHECK_YOUR_MAILBOX : WAIT_FOR_APPROVAL };
}

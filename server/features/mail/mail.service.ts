/**
 * Outgoing mail (CONTRACT.md §21, decision 048). A service that causes a mail writes it to the
 * outbox (`queueMail`) in its own transaction, so the mail exists exactly when what it tells of
 * was committed, and survives a restart. The app's `Mailer` sends the outbox after the answer
 * (`kick`, called by routes once they answered) and every few seconds, retrying a refused mail with
 * a growing pause; several processes on one database never send a mail twice (a claim per mail).
 * Each mail is plain text and HTML, in the recipient's language, from the server's catalogs.
 */
import { createHash, randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Language } from '../../../core/i18n/languages.js';
import { render } from '../../../core/i18n/server/translate.js';
import type { ServerMessageKey } from '../../../core/i18n/server/en.js';
import type { Locale } from '../../../core/preferences.js';
import type { Role } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import type { AccountLinkPurpose, Executor } from '../../db/schema.js';
import * as links from './links.repository.js';
import * as outbox from './mail.repository.js';

/** The mails the product sends, each with its catalog keys (subject, what happened, the link's text). */
export const MAILS = {
  reset: { subject: 'mail_reset_subject', body: 'mail_reset_body', action: 'mail_reset_action' },
  verify: { subject: 'mail_verify_subject', body: 'mail_verify_body', action: 'mail_verify_action' },
  invite: { subject: 'mail_invite_subject', body: 'mail_invite_body', action: 'mail_invite_action' },
  email: { subject: 'mail_email_subject', body: 'mail_email_body', action: 'mail_email_action' },
  approved: { subject: 'mail_approved_subject', body: 'mail_approved_body', action: 'mail_approved_action' },
} as const satisfies Record<string, { subject: ServerMessageKey; body: ServerMessageKey; action: ServerMessageKey }>;
export type MailKind = keyof typeof MAILS;

export interface MailRequest {
  kind: MailKind;
  to: string;
  /** The recipient's name, when there is an account. */
  name: string | null;
  lang: Language;
  /** The absolute link the mail leads to (built from PUBLIC_URL). */
  url: string;
}

/** The recipient's language: their `locale` unless `auto`, else the language of the request that caused the mail (§19). */
export function mailLanguage(locale: Locale | null | undefined, requestLanguage: Language): Language {
  return locale && locale !== 'auto' ? locale : requestLanguage;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The subject, plain text and HTML of a mail. */
export function composeMail(request: MailRequest): outbox.OutgoingMail {
  const keys = MAILS[request.kind];
  const { lang } = request;
  const greeting = request.name
    ? render(lang, 'mail_greeting_name', { name: request.name })
    : render(lang, 'mail_greeting');
  const body = render(lang, keys.body);
  const action = render(lang, keys.action);
  const ignore = request.kind === 'approved' ? null : render(lang, 'mail_ignore');
  const signature = render(lang, 'mail_signature');
  const text = [
    greeting,
    '',
    body,
    '',
    `${action}: ${request.url}`,
    ...(ignore ? ['', ignore] : []),
    '',
    signature,
    '',
  ].join('\n');
  const url = escapeHtml(request.url);
  const html = [
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(render(lang, keys.subject))}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(body)}</p>`,
    `<p><a href="${url}">${escapeHtml(action)}</a></p>`,
    `<p style="font-size: 0.9em">${url}</p>`,
    ...(ignore ? [`<p>${escapeHtml(ignore)}</p>`] : []),
    `<p>${escapeHtml(signature)}</p>`,
    '</body></html>',
  ].join('\n');
  return { recipient: request.to, subject: render(lang, keys.subject), text, html };
}

/** Writes a mail to the outbox on `db` (the caller's transaction): it is sent once that commits. */
export async function queueMail(ctx: AppContext, db: Executor, request: MailRequest): Promise<void> {
  await outbox.insertMail(db, composeMail(request), ctx.config.now().toISOString());
}

/** Whether mail is on (SMTP_URL, MAIL_FROM and PUBLIC_URL). */
export const mailIsOn = (ctx: AppContext) => ctx.config.mail !== null;

/** An absolute link of the web app: always PUBLIC_URL, never a request's Host. */
export function publicLink(ctx: AppContext, pathAndFragment: string): string {
  return `${ctx.config.publicUrl ?? ''}${pathAndFragment}`;
}

/** How long one sender holds a mail it is sending before another may try it. */
const LEASE_MS = 120_000;
/** Pauses before the next attempt of a refused mail: 30 s, 1 min, 2 min, ... at most 1 hour. */
const retryPauseMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
/** A mail refused this many times is dropped (and logged): its link would have expired anyway. */
export const MAX_ATTEMPTS = 12;
const BATCH = 20;

export interface MailerOptions {
  /** How often the outbox is looked at besides the kicks (retries, other processes' mails). */
  pollMs?: number;
  log?: { warn(object: object, message: string): void; error(object: object, message: string): void };
}

/** Sends the outbox: after each kick, and every `pollMs`. */
export class Mailer {
  private readonly transport: Transporter;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: MailerOptions = {},
  ) {
    const mail = ctx.config.mail;
    if (!mail) throw new Error('Mailer without SMTP_URL');
    this.transport = nodemailer.createTransport(mail.smtpUrl, { from: mail.from });
  }

  start(): void {
    const pollMs = this.options.pollMs ?? 10_000;
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  /**
   * Sends what is due, soon and never in the caller's way (from the next turn of the event loop,
   * after the caller's answer is written); a kick during a round makes another round.
   */
  kick(): void {
    setImmediate(() => this.send());
  }

  private send(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.round().catch((error: unknown) =>
          this.options.log?.error({ err: error }, 'mail outbox round failed'),
        );
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Waits for the round under way (tests; the app's close). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
    this.transport.close();
  }

  private async round(): Promise<void> {
    const { db } = this.ctx;
    for (;;) {
      const nowMs = this.ctx.config.now().getTime();
      const due = await outbox.dueMails(db, new Date(nowMs).toISOString(), BATCH);
      if (due.length === 0) return;
      let claimedAny = false;
      for (const { id, due: dueAt } of due) {
        if (this.stopped) return;
        const mail = await outbox.claimMail(db, id, dueAt, new Date(nowMs + LEASE_MS).toISOString());
        if (!mail) continue;
        claimedAny = true;
        try {
          await this.transport.sendMail({
            to: mail.recipient,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
          });
          await outbox.deleteMail(db, mail.id);
        } catch (error) {
          if (mail.attempts >= MAX_ATTEMPTS) {
            this.options.log?.error({ err: error, mail: mail.id }, 'mail dropped after its last attempt');
            await outbox.deleteMail(db, mail.id);
          } else {
            this.options.log?.warn(
              { err: error, mail: mail.id, attempts: mail.attempts },
              'mail refused, retried later',
            );
            const next = this.ctx.config.now().getTime() + retryPauseMs(mail.attempts);
            await outbox.postponeMail(db, mail.id, new Date(next).toISOString());
          }
        }
      }
      if (!claimedAny) return;
    }
  }
}

// ---- Mailed links: a random token in the link, only its SHA-256 hash stored ----

export type { UsedLink } from './links.repository.js';

/** How long each kind of link stays valid (CONTRACT.md §21). */
export const LINK_LIFETIME_MS: Record<AccountLinkPurpose, number> = {
  reset: 3_600_000,
  verify: 7 * 86_400_000,
  invite: 7 * 86_400_000,
  email: 86_400_000,
};

export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new link's token (32 random bytes, base64url), its hash written on `db`; returns the token. */
export async function issueLink(
  ctx: AppContext,
  db: Executor,
  link: { purpose: AccountLinkPurpose; userId: number | null; email: string; role?: Role | null },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const nowMs = ctx.config.now().getTime();
  await links.insertLink(db, {
    tokenHash: hashLinkToken(token),
    purpose: link.purpose,
    userId: link.userId,
    email: link.email,
    role: link.role ?? null,
    createdAt: new Date(nowMs).toISOString(),
    expiresAt: new Date(nowMs + LINK_LIFETIME_MS[link.purpose]).toISOString(),
  });
  return token;
}

/** Uses a link's token on `db` (once); null when it is unknown, used, expired or of another purpose. */
export function useLink(
  ctx: AppContext,
  db: Executor,
  token: string,
  purpose: AccountLinkPurpose,
): Promise<links.UsedLink | null> {
  return links.useLink(db, hashLinkToken(token), purpose, ctx.config.now().toISOString());
}

/** The link a token would use now, without using it (null: it would be refused). */
export function peekLink(ctx: AppContext, token: string, purpose: AccountLinkPurpose): Promise<links.UsedLink | null> {
  return links.peekLink(ctx.db, hashLinkToken(token), purpose, ctx.config.now().toISOString());
}

export function countLinksSince(ctx: AppContext, userId: number, purpose: AccountLinkPurpose, sinceMs: number) {
  return links.countLinksSince(ctx.db, userId, purpose, new Date(sinceMs).toISOString());
}

export function retireLinks(ctx: AppContext, db: Executor, userId: number, purpose: AccountLinkPurpose) {
  return links.retireLinks(db, userId, purpose, ctx.config.now().toISOString());
}

/** Housekeeping: forget links expired a day ago. */
export function purgeExpiredLinks(ctx: AppContext): Promise<void> {
  return links.deleteExpiredLinks(ctx.db, new Date(ctx.config.now().getTime() - 86_400_000).toISOString());
}

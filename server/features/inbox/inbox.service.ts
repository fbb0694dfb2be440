/**
 * The inbox folder (CONTRACT.md §20, decision 045): a runner's private key names their folder
 * under INBOX_DIR, managed by a sign-in session alone; the files dropped in it are imported by
 * the watcher (inbox.watcher.ts) through the same import as an upload, and each row they gave is
 * kept for `GET /inbox`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InboxRow, InboxStatus } from '../../../core/inbox.js';
import { isLanguage, type Language } from '../../../core/i18n/languages.js';
import { reasonCode, translate } from '../../../core/i18n/server/translate.js';
import { nowIso, type AppContext, type Session } from '../../context.js';
import { AppError, forbidden } from '../../errors.js';
import { newFeedKey as newKey } from '../calendar/calendar.service.js';
import { findUserById } from '../users/users.service.js';
import * as folders from './inbox.repository.js';

export const INBOX_NEEDS_SIGN_IN = 'Personal API tokens cannot manage the inbox: sign in to do so.';
export const INBOX_NOT_FOR_DEMO = 'Demo accounts have no inbox.';
export const INBOX_OFF = 'The inbox folder is off on this server (INBOX_DIR is not set).';

/** The folders made inside each inbox: where its files go once read. */
export const DONE = 'done';
export const FAILED = 'failed';

export interface InboxView {
  enabled: boolean;
  folder: string | null;
  recent: InboxRow[];
}

async function requireOwnSignIn(ctx: AppContext, session: Session): Promise<void> {
  if (session.scope !== 'full') throw forbidden(INBOX_NEEDS_SIGN_IN);
  if (ctx.config.demoMode && (await findUserById(ctx, session.user.id))?.isDemo) throw forbidden(INBOX_NOT_FOR_DEMO);
}

function rowOf(row: folders.StoredInboxRow, lang: Language): InboxRow {
  return {
    file: row.file,
    source: row.source,
    status: row.status as InboxStatus,
    reason: row.reason === null ? null : translate(row.reason, lang),
    reason_code: row.reason === null ? null : reasonCode(row.reason),
    entry_id: row.entryId,
    at: row.at,
  };
}

async function viewOf(ctx: AppContext, userId: number, key: string | null, lang: string): Promise<InboxView> {
  const language = isLanguage(lang) ? lang : 'en';
  const recent = (await folders.recentRows(ctx.db, userId)).map((row) => rowOf(row, language));
  return { enabled: ctx.config.inboxDir !== null, folder: key, recent };
}

export async function showInbox(ctx: AppContext, session: Session, lang: string): Promise<InboxView> {
  await requireOwnSignIn(ctx, session);
  return viewOf(ctx, session.user.id, await folders.findKey(ctx.db, session.user.id), lang);
}

/**
 * A new key and its folder (with done/ and failed/ inside), replacing the user's old key, whose
 * folder is read no more (its files stay). Without INBOX_DIR, a 409.
 */
export async function replaceInbox(ctx: AppContext, session: Session, lang: string): Promise<InboxView> {
  await requireOwnSignIn(ctx, session);
  const root = ctx.config.inboxDir;
  if (root === null) throw new AppError(409, INBOX_OFF);
  const key = newKey();
  const folder = path.join(root, key);
  await fs.promises.mkdir(folder, { mode: 0o770 });
  await fs.promises.mkdir(path.join(folder, DONE), { mode: 0o770 });
  await fs.promises.mkdir(path.join(folder, FAILED), { mode: 0o770 });
  await folders.putKey(ctx.db, session.user.id, key, nowIso(ctx));
  ctx.memory.inboxKeysMoved?.();
  return viewOf(ctx, session.user.id, key, lang);
}

/** Stops reading the user's folder; its files are left where they are. */
export async function removeInbox(ctx: AppContext, session: Session, lang: string): Promise<InboxView> {
  await requireOwnSignIn(ctx, session);
  await folders.deleteKey(ctx.db, session.user.id);
  ctx.memory.inboxKeysMoved?.();
  return viewOf(ctx, session.user.id, null, lang);
}

/**
 * The calendar feed (CONTRACT.md §20, decision 042): a runner's private key of
 * `<PUBLIC_URL>/ical/<key>.ics`, managed by a sign-in session alone, and the feed itself: one
 * all-day event per shown run, written in the owner's units and language, a page of runs at a
 * time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isLanguage, type Language } from '../../../core/i18n/languages.js';
import { render } from '../../../core/i18n/server/translate.js';
import type { PaceFormat, Units } from '../../../core/preferences.js';
import type { Entry } from '../../../core/schemas.js';
import { parseDuration } from '../../../core/time.js';
import { distanceIn, paceIn, unitLabels } from '../../../core/units.js';
import { linkBaseOf } from '../../config.js';
import { nowIso, type AppContext, type Session } from '../../context.js';
import { forbidden } from '../../errors.js';
import { ownRunsAfter } from '../entries/entries.service.js';
import { findUserById } from '../users/users.service.js';
import * as feeds from './calendar.repository.js';
import { calendarHead, calendarTail, eventText } from './ical.js';

export const FEED_NEEDS_SIGN_IN = 'Personal API tokens cannot manage the calendar feed: sign in to do so.';
export const FEED_NOT_FOR_DEMO = 'Demo accounts have no calendar feed.';

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_LENGTH = 24;
/** Runs read a page at a time: the feed of thousands of runs is written in bounded memory. */
export const FEED_PAGE = 500;

/** 24 characters of [a-z0-9] from crypto randomness; bytes of 252 and above are drawn again (no modulo bias). */
export function newFeedKey(): string {
  let key = '';
  while (key.length < KEY_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte >= 252) continue; // 252 = 7 × 36: the bytes below fall evenly on the alphabet
      key += KEY_ALPHABET[byte % 36];
      if (key.length === KEY_LENGTH) break;
    }
  }
  return key;
}

/** The base of the feed's address: PUBLIC_URL, else the address the server listens on; never the request's Host. */
const baseOf = (ctx: AppContext) => linkBaseOf(ctx.config);

export const feedUrlOf = (ctx: AppContext, key: string | null): string | null =>
  key === null ? null : `${baseOf(ctx)}/ical/${key}.ics`;

async function requireOwnSignIn(ctx: AppContext, session: Session): Promise<void> {
  if (session.scope !== 'full') throw forbidden(FEED_NEEDS_SIGN_IN);
  if (ctx.config.demoMode && (await findUserById(ctx, session.user.id))?.isDemo) throw forbidden(FEED_NOT_FOR_DEMO);
}

export async function showFeed(ctx: AppContext, session: Session): Promise<{ url: string | null }> {
  await requireOwnSignIn(ctx, session);
  return { url: feedUrlOf(ctx, await feeds.findKey(ctx.db, session.user.id)) };
}

/** A new key, replacing the user's old one, which stops working at once. */
export async function replaceFeed(ctx: AppContext, session: Session): Promise<{ url: string | null }> {
  await requireOwnSignIn(ctx, session);
  const key = newFeedKey();
  await feeds.putKey(ctx.db, session.user.id, key, nowIso(ctx));
  return { url: feedUrlOf(ctx, key) };
}

export async function removeFeed(ctx: AppContext, session: Session): Promise<{ url: null }> {
  await requireOwnSignIn(ctx, session);
  await feeds.deleteKey(ctx.db, session.user.id);
  return { url: null };
}

/** A feed found by its key: what to write it with, and its strong ETag. */
export interface OpenFeed {
  owner: feeds.FeedOwner;
  etag: string;
}

/**
 * The feed of a key, or null for a key nobody has. The ETag is a hash of all the body depends on:
 * the owner's answer revision (moved by every write of their runs), the preferences it is written
 * in, the address and the writer's version; so it is known before the body is written.
 */
export async function openFeed(ctx: AppContext, key: string): Promise<OpenFeed | null> {
  const owner = await feeds.findOwnerOfKey(ctx.db, key);
  if (!owner) return null;
  const hash = createHash('sha256')
    .update(['ical-1', key, owner.revision, owner.units, owner.locale, owner.paceFormat, baseOf(ctx)].join('\n'))
    .digest('base64url')
    .slice(0, 32);
  return { owner, etag: `"${hash}"` };
}

const twoDecimals = (value: number, lang: Language) => {
  const text = value.toFixed(2);
  return lang === 'en' ? text : text.replace('.', ',');
};

/** H:MM:SS */
function clock(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(whole / 3600)}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

function paceText(minPerKm: number, units: Units, format: PaceFormat, lang: Language): string {
  const label = unitLabels(units).pace;
  if (!(minPerKm > 0) || !Number.isFinite(minPerKm)) return '—';
  const pace = paceIn(minPerKm, units);
  if (format === 'clock') {
    const total = Math.round(pace * 60);
    return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')} ${label.replace(/^min/, '')}`;
  }
  return `${twoDecimals(pace, lang)} ${label}`;
}

interface Writer {
  lang: Language;
  units: Units;
  paceFormat: PaceFormat;
  base: string;
  host: string;
}

function eventOf(run: Entry, w: Writer): string {
  const seconds = parseDuration(run.time) ?? 0;
  const title = run.title?.trim() ? run.title.trim() : render(w.lang, 'calendar_run');
  const distance = `${twoDecimals(distanceIn(run.distance, w.units), w.lang)} ${unitLabels(w.units).distance}`;
  const page = `${w.base}/entry/${run.id}`;
  return eventText({
    uid: `run-${run.id}@${w.host}`,
    date: run.date,
    stamp: run.updated_at,
    summary: `${title} · ${distance} · ${clock(seconds)}`,
    description: [
      render(w.lang, 'calendar_pace', { pace: paceText(run.pace, w.units, w.paceFormat, w.lang) }),
      render(w.lang, 'calendar_run_page', { url: page }),
    ].join('\n'),
    url: page,
  });
}

/** The feed's text, a page of runs (FEED_PAGE) to a chunk, oldest first. */
export async function* writeFeed(ctx: AppContext, owner: feeds.FeedOwner): AsyncGenerator<string> {
  const base = baseOf(ctx);
  const writer: Writer = {
    lang: isLanguage(owner.locale) ? owner.locale : 'en',
    units: owner.units,
    paceFormat: owner.paceFormat,
    base,
    host: new URL(base).host,
  };
  yield calendarHead('Running Times');
  let after: { date: string; id: number } | null = null;
  for (;;) {
    const runs = await ownRunsAfter(ctx, owner.userId, after, FEED_PAGE);
    if (runs.length > 0) yield runs.map((run) => eventOf(run, writer)).join('');
    if (runs.length < FEED_PAGE) break;
    const last = runs[runs.length - 1]!;
    after = { date: last.date, id: last.id };
  }
  yield calendarTail();
}

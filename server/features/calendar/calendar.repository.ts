/** SQL for calendar feeds: each user's key (migration 024), and the feed's owner found by it. */
import type { Locale, PaceFormat, Units } from '../../../core/preferences.js';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';

/** What the feed is written with: its owner's preferences, and what its ETag is made of. */
export interface FeedOwner {
  userId: number;
  units: Units;
  locale: Locale;
  paceFormat: PaceFormat;
  /** The owner's answer revision: moves with every write of their runs (decision 034). */
  revision: number;
}

export async function findKey(db: Executor, userId: number): Promise<string | null> {
  const row = await db.selectFrom('calendar_feeds').select('feed_key').where('user_id', '=', userId).executeTakeFirst();
  return row?.feed_key ?? null;
}

/** Sets the user's key, replacing the one they had: the old key finds nobody from this statement on. */
export async function putKey(db: Executor, userId: number, key: string, createdAt: string): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({ user_id: userId, feed_key: key, created_at: createdAt })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet((eb) => ({
        feed_key: eb.ref('excluded.feed_key'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

export async function deleteKey(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
}

// The feed's one lookup: the key's owner, their preferences and their revision, in one statement.
const ownerOfKey = compiled<{ key: string }>()((db, param) =>
  db
    .selectFrom('calendar_feeds as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('insight_revisions as r', 'r.user_id', 'c.user_id')
    .select(['u.id', 'u.units', 'u.locale', 'u.pace_format', 'r.revision'])
    .where('c.feed_key', '=', param('key')),
);

export async function findOwnerOfKey(db: Executor, key: string): Promise<FeedOwner | null> {
  const [row] = await ownerOfKey(db, { key });
  if (!row) return null;
  return {
    userId: Number(row.id),
    units: row.units,
    locale: row.locale,
    paceFormat: row.pace_format,
    revision: Number(row.revision ?? 0),
  };
}

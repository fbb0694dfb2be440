/** SQL of the inbox folder: each user's key (migration 026), its owner found by it, and its recent rows. */
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';

/** Whom a folder's files are imported for: what the import needs of them. */
export interface FolderOwner {
  userId: number;
  timezone: string;
  units: 'km' | 'mi';
}

export interface StoredInboxRow {
  file: string;
  source: string;
  status: string;
  reason: string | null;
  entryId: number | null;
  at: string;
}

/** How many rows a user keeps: `GET /inbox` lists the 50 newest. */
export const KEPT_ROWS = 50;

export async function findKey(db: Executor, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('inbox_folders')
    .select('folder_key')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.folder_key ?? null;
}

/** Sets the user's key, replacing the one they had: the old folder is read no more from this statement on. */
export async function putKey(db: Executor, userId: number, key: string, createdAt: string): Promise<void> {
  await db
    .insertInto('inbox_folders')
    .values({ user_id: userId, folder_key: key, created_at: createdAt })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet((eb) => ({
        folder_key: eb.ref('excluded.folder_key'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

export async function deleteKey(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('inbox_folders').where('user_id', '=', userId).execute();
}

/** Every folder's key: the folders a scan looks at. */
export async function allKeys(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('inbox_folders').select('folder_key').execute();
  return rows.map((row) => row.folder_key);
}

const ownerOfKey = compiled<{ key: string }>()((db, param) =>
  db
    .selectFrom('inbox_folders as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['u.id', 'u.timezone', 'u.units'])
    .where('f.folder_key', '=', param('key')),
);

/** The owner of a key now, or null when nobody has it (removed or replaced). */
export async function findOwnerOfKey(db: Executor, key: string): Promise<FolderOwner | null> {
  const [row] = await ownerOfKey(db, { key });
  return row ? { userId: Number(row.id), timezone: row.timezone, units: row.units } : null;
}

/** Adds a file's rows, and lets go of the user's rows beyond the newest KEPT_ROWS. */
export async function addRows(db: Executor, userId: number, rows: StoredInboxRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 200) {
    await db
      .insertInto('inbox_rows')
      .values(
        rows.slice(at, at + 200).map((row) => ({
          user_id: userId,
          file: row.file,
          source: row.source,
          status: row.status,
          reason: row.reason,
          entry_id: row.entryId,
          at: row.at,
        })),
      )
      .execute();
  }
  const oldestKept = await db
    .selectFrom('inbox_rows')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .offset(KEPT_ROWS - 1)
    .limit(1)
    .executeTakeFirst();
  if (oldestKept) {
    await db.deleteFrom('inbox_rows').where('user_id', '=', userId).where('id', '<', oldestKept.id).execute();
  }
}

export async function recentRows(db: Executor, userId: number): Promise<StoredInboxRow[]> {
  const rows = await db
    .selectFrom('inbox_rows')
    .select(['file', 'source', 'status', 'reason', 'entry_id', 'at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(KEPT_ROWS)
    .execute();
  return rows.map((row) => ({
    file: row.file,
    source: row.source,
    status: row.status,
    reason: row.reason,
    entryId: row.entry_id === null ? null : Number(row.entry_id),
    at: row.at,
  }));
}

/** SQL for shoes. A shoe's distance and runs are kept by triggers as its runs are written (migrations.ts). */
import type { Executor } from '../../db/schema.js';

export interface ShoeRef {
  id: number;
  userId: number;
  retired: boolean;
}

export async function findShoeRef(db: Executor, id: number): Promise<ShoeRef | null> {
  const row = await db.selectFrom('shoes').select(['id', 'user_id', 'retired']).where('id', '=', id).executeTakeFirst();
  return row ? { id: Number(row.id), userId: Number(row.user_id), retired: Number(row.retired) === 1 } : null;
}

/** The runner's default shoe, if any (at most one: a unique index). */
export async function findDefaultShoeId(db: Executor, userId: number): Promise<number | null> {
  const row = await db
    .selectFrom('shoes')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

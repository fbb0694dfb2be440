/** SQL for shoes. A shoe's distance and runs are summed from the runs that name it when it is read. */
import { sql, type Selectable } from 'kysely';
import type { Shoe } from '../../../core/shoes.js';
import { compiled } from '../../db/compiled.js';
import type { Executor, ShoesTable } from '../../db/schema.js';
import { shown } from '../../db/staged.js';

type ShoeRow = Selectable<ShoesTable> & { distance_m: number | string | null; runs: number | string | null };

export interface ShoeRef {
  id: number;
  userId: number;
  retired: boolean;
}

/** What a write sets: undefined leaves a stored value unchanged. */
export interface ShoeValues {
  name?: string | undefined;
  brand?: string | null | undefined;
  limitKm?: number | undefined;
  startKm?: number | undefined;
  retired?: boolean | undefined;
  isDefault?: boolean | undefined;
}

function toShoe(row: ShoeRow): Shoe {
  const startKm = Number(row.start_km);
  // In metres, both exact to the metre: the sum has no float noise.
  const distance = (Math.round(startKm * 1000) + Number(row.distance_m)) / 1000;
  const limitKm = Number(row.limit_km);
  return {
    id: Number(row.id),
    name: row.name,
    brand: row.brand ?? null,
    limit_km: limitKm,
    start_km: startKm,
    retired: Number(row.retired) === 1,
    is_default: Number(row.is_default) === 1,
    distance,
    runs: Number(row.runs),
    over_limit: distance > limitKm,
    created_at: row.created_at,
  };
}

function columns(values: ShoeValues) {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const set = {
    name: values.name,
    brand: values.brand,
    limit_km: values.limitKm,
    start_km: values.startKm,
    retired: flag(values.retired),
    is_default: flag(values.isDefault),
  };
  return Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined)) as Partial<typeof set>;
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

/** Shoes with their runs and distance, from the runs that name them (the entries_shoe_idx index). */
const withWear = (db: Executor) =>
  db
    .selectFrom('shoes')
    .selectAll('shoes')
    .select([
      sql<number>`(select count(*) from entries e where e.shoe_id = shoes.id and ${shown('e.staged')})`.as('runs'),
      sql<number>`(select coalesce(sum(e.distance_m), 0) from entries e where e.shoe_id = shoes.id and ${shown('e.staged')})`.as(
        'distance_m',
      ),
    ]);

const ownShoes = compiled<{ userId: number }>()((db, param) =>
  withWear(db).where('shoes.user_id', '=', param('userId')).orderBy('shoes.id'),
);

/** One of `userId`'s shoes; null when it is not theirs (or gone). */
export async function findShoe(db: Executor, userId: number, id: number): Promise<Shoe | null> {
  const row = await withWear(db).where('shoes.id', '=', id).where('shoes.user_id', '=', userId).executeTakeFirst();
  return row ? toShoe(row) : null;
}

/** A runner's shoes, oldest first. */
export async function listShoes(db: Executor, userId: number): Promise<Shoe[]> {
  return (await ownShoes(db, { userId })).map(toShoe);
}

export async function countShoes(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('shoes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertShoe(db: Executor, userId: number, values: ShoeValues, nowIso: string): Promise<Shoe> {
  const row = await db
    .insertInto('shoes')
    .values({ user_id: userId, name: values.name ?? '', ...columns(values), created_at: nowIso, updated_at: nowIso })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findShoe(db, userId, Number(row.id)))!;
}

/** Changes the given fields of one of `userId`'s shoes; null when it is not theirs (or gone). */
export async function updateShoe(
  db: Executor,
  userId: number,
  id: number,
  values: ShoeValues,
  nowIso: string,
): Promise<Shoe | null> {
  const row = await db
    .updateTable('shoes')
    .set({ ...columns(values), updated_at: nowIso })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  return row ? findShoe(db, userId, Number(row.id)) : null;
}

/** The runner's shoes other than `exceptId` stop being the default. */
export async function unsetDefault(db: Executor, userId: number, exceptId?: number): Promise<void> {
  let query = db.updateTable('shoes').set({ is_default: 0 }).where('user_id', '=', userId).where('is_default', '=', 1);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  await query.execute();
}

/** Deletes one of `userId`'s shoes (its runs keep going, without a shoe: the foreign key); false when not theirs. */
export async function deleteShoe(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('shoes').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

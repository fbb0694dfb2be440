/** SQL of imports: the runner's stored runs an import is compared with (the duplicate test). */
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';

export interface StoredRun {
  date: string;
  distanceM: number;
  seconds: number;
}

const runsBetween = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entries')
    .select(['date', 'distance_m', 'seconds'])
    .where('user_id', '=', param('userId'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .orderBy('date')
    .orderBy('id'),
);

/** The runner's runs dated from `from` to `to` (inclusive), oldest first. */
export async function storedRunsBetween(db: Executor, userId: number, from: string, to: string): Promise<StoredRun[]> {
  const rows = await runsBetween(db, { userId, from, to });
  return rows.map((row) => ({ date: row.date, distanceM: Number(row.distance_m), seconds: Number(row.seconds) }));
}

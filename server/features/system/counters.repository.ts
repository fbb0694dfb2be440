/** Totals kept in step with their tables inside the same transaction, so no statistic counts a whole table. */
import type { Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';

export type CounterName = 'users' | 'entries';

export async function adjustCounter(db: Kysely<Database>, name: CounterName, delta: number): Promise<void> {
  await db
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', delta) }))
    .where('name', '=', name)
    .execute();
}

const allCounters = prepared([], (db) => db.selectFrom('counters').select(['name', 'value']));

export async function readCounters(db: Kysely<Database>): Promise<Record<CounterName, number>> {
  const rows = await allCounters(db);
  const totals: Record<CounterName, number> = { users: 0, entries: 0 };
  for (const row of rows) totals[row.name as CounterName] = Number(row.value);
  return totals;
}

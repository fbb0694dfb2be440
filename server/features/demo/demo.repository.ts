/** The jobs table: which day's demo reset has been done, claimed so that exactly one instance does each. */
import type { Executor } from '../../db/schema.js';

/** Records `day` as done unless a row exists; true when this call created it. */
export async function claimFirstRun(db: Executor, job: string, day: string): Promise<boolean> {
  const result = await db
    .insertInto('jobs')
    .values({ name: job, last_run: day })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function lastRun(db: Executor, job: string): Promise<string | null> {
  const row = await db.selectFrom('jobs').select('last_run').where('name', '=', job).executeTakeFirst();
  return row?.last_run ?? null;
}

/** Moves the job to `day` if it was last run before it; true when this call did. */
export async function claimRun(db: Executor, job: string, day: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ last_run: day })
    .where('name', '=', job)
    .where('last_run', '<', day)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

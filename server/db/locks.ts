/**
 * Per-runner write locks, for rules that read before they write (at most N of a thing,
 * at most one default). On SQLite every transaction already runs alone on the one
 * connection; on PostgreSQL the runner's row is locked until the transaction ends, so
 * two racing requests of one runner take their turns and the second sees the first's write.
 */
import { isSqlite, type Executor } from './schema.js';

/** Call first inside the transaction (inTransaction) whose rule must hold under races. */
export async function lockRunner(trx: Executor, userId: number): Promise<void> {
  if (isSqlite(trx)) return;
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

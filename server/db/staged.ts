/**
 * Runs an import stored but has not landed yet (decision 037): on SQLite an import stores its runs
 * in short transactions, each run marked with the import's id in `staged`, and lands them all in
 * one statement by deleting the import's row from `staged_imports`. Every read of runs and of
 * runner_efforts keeps to `shown` rows, so that until then nobody sees any of them, and from then
 * everybody sees all of them.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The rows of `staged` (a column, `entries.staged` or `e.staged`...) that are shown: not stored
 * by an import still staged. `staged_imports` is empty but during imports (a row each), so the
 * test costs a null check for nearly every row.
 */
export const shown = (staged: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref(staged)} is null or ${sql.ref(staged)} not in (select id from staged_imports))`;

/**
 * A fast path for reading many small rows of one runner (a whole history of days, a year of runs):
 * the database joins them into one text (`a,b,c;a,b,c;...`, in the given order) and the app splits
 * it. One row instead of thousands: the drivers' per-row cost (an object per row in better-sqlite3,
 * a message per row in pg) was most of the time of such reads. Only for columns of integers and
 * of text without `,` or `;` (dates). The order of the rows is not asked of the database (sorting
 * inside the aggregate costs more than the read): `unpack` callers sort when they need an order.
 */
import { SqliteAdapter, sql, type RawBuilder } from 'kysely';
import type { Executor } from './schema.js';

/** The aggregate that packs `columns` of the selected rows; null without rows. */
export function packedColumns(db: Executor, columns: readonly string[]): RawBuilder<string | null> {
  const join = db.getExecutor().adapter instanceof SqliteAdapter ? 'group_concat' : 'string_agg';
  const row = columns.join(` || ',' || `);
  return sql<string | null>`${sql.raw(`${join}(${row}, ';')`)}`;
}

/** The rows of a packed text, each as its fields. */
export function unpack(text: string | null | undefined): string[][] {
  if (!text) return [];
  return text.split(';').map((row) => row.split(','));
}

/** Sorts rows in place unless they already are in order (they usually come in index order). */
export function inOrder<T>(rows: T[], compare: (a: T, b: T) => number): T[] {
  for (let i = 1; i < rows.length; i++) {
    if (compare(rows[i - 1]!, rows[i]!) > 0) return rows.sort(compare);
  }
  return rows;
}

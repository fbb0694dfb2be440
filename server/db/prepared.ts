/**
 * Queries built and compiled once. Building a query with Kysely's builder and compiling
 * it to SQL costs more than running most of our queries, so the hot ones are built once
 * per dialect with placeholder values, and each call only swaps in its parameters.
 */
import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import { directRunners } from './database.js';
import type { Database } from './schema.js';

type Executor = Kysely<Database>;
type Slot = { arg: number } | { value: unknown };

/**
 * `prepared([p1, p2], (db, a, b) => query)` returns `(db, a, b) => rows`. Each placeholder
 * must be a value no real argument is (a sentinel) and must reach the SQL as a parameter;
 * other parameters of the query keep the value they were built with.
 */
export function prepared<A extends unknown[], Row>(
  placeholders: A,
  build: (db: Executor, ...args: A) => Compilable<Row>,
) {
  const compiledBy = new Map<unknown, { query: CompiledQuery<Row>; slots: Slot[] }>();
  const compile = (db: Executor) => {
    const query = build(db, ...placeholders).compile();
    const slots: Slot[] = query.parameters.map((value) => {
      const arg = placeholders.indexOf(value);
      return arg >= 0 ? { arg } : { value };
    });
    for (let i = 0; i < placeholders.length; i++) {
      if (!slots.some((slot) => 'arg' in slot && slot.arg === i)) {
        throw new Error(`prepared(): placeholder ${i} is not a parameter of: ${query.sql}`);
      }
    }
    return { query, slots };
  };
  return async (db: Executor, ...args: A): Promise<Row[]> => {
    // One compiled form per dialect (the adapter is shared by a database and its transactions).
    const key = db.getExecutor().adapter.constructor;
    let entry = compiledBy.get(key);
    if (!entry) {
      entry = compile(db);
      compiledBy.set(key, entry);
    }
    const parameters = entry.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    // A transaction is a different object from its database, so its queries never take this path.
    const direct = directRunners.get(db)?.(entry.query.sql, parameters);
    if (direct) return direct as Row[];
    const result = await db.executeQuery<Row>({ ...entry.query, parameters });
    return result.rows;
  };
}

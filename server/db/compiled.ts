/**
 * Queries built and compiled once. Building a query with Kysely's builder and compiling it
 * to SQL costs more than running most of our queries, so the hot ones are built once per
 * dialect, with a named parameter (`param('userId')`, typed by the arguments) wherever a
 * call's value goes, and each call only binds its values:
 *
 *   const ownPage = compiled<{ userId: number; limit: number }>()((db, param) =>
 *     db.selectFrom('entries').selectAll().where('user_id', '=', param('userId')).limit(param('limit')));
 *   const rows = await ownPage(db, { userId: 7, limit: 15 });
 *
 * Values written into the builder directly stay constants of the statement.
 */
import { sql, type CompiledQuery, type Compilable, type RawBuilder } from 'kysely';
import type { Executor } from './schema.js';
import { directRunners } from './sqlite.js';

/** Marks where a named parameter goes; found again by identity in the compiled parameters. */
class Param {
  constructor(readonly name: string) {}
}

/** A named parameter of a compiled query, typed as the argument it stands for. */
export type ParamOf<Args> = <K extends keyof Args & string>(name: K) => RawBuilder<Args[K]>;

function param<T>(name: string): RawBuilder<T> {
  return sql<T>`${new Param(name)}`;
}

type Slot = { name: string } | { value: unknown };

export function compiled<Args extends Record<string, unknown> = Record<never, never>>() {
  return <Row>(build: (db: Executor, param: ParamOf<Args>) => Compilable<Row>) => {
    const compiledBy = new Map<unknown, { query: CompiledQuery<Row>; slots: Slot[] }>();
    const compile = (db: Executor) => {
      const query = build(db, param as ParamOf<Args>).compile();
      const slots: Slot[] = query.parameters.map((value) =>
        value instanceof Param ? { name: value.name } : { value },
      );
      return { query, slots };
    };
    return async (db: Executor, args: Args = {} as Args): Promise<Row[]> => {
      // One compiled form per dialect (the adapter is shared by a database and its transactions).
      const key = db.getExecutor().adapter.constructor;
      let entry = compiledBy.get(key);
      if (!entry) {
        entry = compile(db);
        compiledBy.set(key, entry);
      }
      const parameters = entry.slots.map((slot) => {
        if ('value' in slot) return slot.value;
        const value = args[slot.name];
        if (value === undefined) throw new Error(`compiled(): no value for parameter "${slot.name}"`);
        return value;
      });
      // A transaction is a different object from its database, so its queries never take this path.
      const direct = directRunners.get(db)?.(entry.query.sql, parameters);
      if (direct) return direct as Row[];
      const result = await db.executeQuery<Row>({ ...entry.query, parameters });
      return result.rows;
    };
  };
}

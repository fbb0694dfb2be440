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
import {
  OperationNodeTransformer,
  ValueNode,
  sql,
  type CompiledQuery,
  type Compilable,
  type KyselyPlugin,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  type RawBuilder,
} from 'kysely';
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

/**
 * A LIMIT or OFFSET of a constant (`.limit(1)`) written in the statement instead of bound.
 * PostgreSQL plans a prepared statement once for all values (after five runs) only when that
 * plan looks no worse than planning each run; with the LIMIT bound it guesses a tenth of the
 * table, and a plan fit for that many rows (hashing every runner, 8 ms) made it plan every
 * request anew (about 1 ms for the admin dashboard, more than running it).
 */
class ConstantLimits extends OperationNodeTransformer {
  private written(node: OperationNode): OperationNode {
    return ValueNode.is(node) && typeof node.value === 'number' ? ValueNode.createImmediate(node.value) : node;
  }

  protected override transformLimit(node: LimitNode): LimitNode {
    return { ...node, limit: this.written(node.limit) };
  }

  protected override transformOffset(node: OffsetNode): OffsetNode {
    return { ...node, offset: this.written(node.offset) };
  }
}

export const constantLimits: KyselyPlugin = {
  transformQuery: (args) => new ConstantLimits().transformNode(args.node),
  transformResult: async (args) => args.result,
};

export function compiled<Args extends Record<string, unknown> = Record<never, never>>() {
  return <Row>(build: (db: Executor, param: ParamOf<Args>) => Compilable<Row>) => {
    const compiledBy = new Map<unknown, { query: CompiledQuery<Row>; slots: Slot[] }>();
    const compile = (db: Executor) => {
      const query = build(db.withPlugin(constantLimits), param as ParamOf<Args>).compile();
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

/** A page size to write in a statement: a positive whole number, or an error (never SQL). */
export function checkedPageSize(size: number): number {
  if (!Number.isSafeInteger(size) || size < 1)
    throw new Error(`A page size must be a positive whole number, got ${size}.`);
  return size;
}

/** Statements made once per shape (a page size, a reach...), each on first use. */
export function compiledPer<Shape, Statement>(
  keyOf: (shape: Shape) => string,
  make: (shape: Shape) => Statement,
): (shape: Shape) => Statement {
  const made = new Map<string, Statement>();
  return (shape) => {
    const key = keyOf(shape);
    let statement = made.get(key);
    if (!statement) made.set(key, (statement = make(shape)));
    return statement;
  };
}

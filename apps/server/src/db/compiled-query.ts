import type { CompiledQuery, Compilable } from 'kysely';
import { dialectOf, type Db } from './database.js';

/** Stands where a parameter goes while the query is compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query whose SQL is built and compiled once per shape; each run binds its arguments where
 * the slots were. Building and compiling a query with Kysely cost more than running the small
 * list and send queries on SQLite. `shape` chooses the query's form (a string, or a small
 * object, the cache key); the arguments are only values, never arrays (`in` lists are
 * expanded into one parameter per item).
 */
export function compiledQuery<S, A extends unknown[], R>(
  build: (db: Db, shape: S, ...args: A) => Compilable<R>,
) {
  const cache = new Map<string, CompiledQuery<R>>();
  return {
    async run(db: Db, shape: S, ...args: A): Promise<R[]> {
      const key = `${dialectOf(db)}:${typeof shape === 'string' ? shape : JSON.stringify(shape)}`;
      let compiled = cache.get(key);
      if (!compiled) {
        const slots = args.map((_, i) => new Slot(i)) as unknown as A;
        compiled = build(db, shape, ...slots).compile();
        cache.set(key, compiled);
      }
      const parameters = compiled.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
      const result = await db.executeQuery<R>({ ...compiled, parameters });
      return result.rows;
    },
  };
}

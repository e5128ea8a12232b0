import type { Db } from '../db/database.js';

// Work to run once a transaction started by inTransaction has committed (e.g. push its events).
const afterCommitQueues = new WeakMap<Db, (() => void)[]>();

/** Runs `fn` in a transaction, or in the caller's when `db` already is one. */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  const queue: (() => void)[] = [];
  const result = await db.transaction().execute((trx) => {
    afterCommitQueues.set(trx, queue);
    return fn(trx);
  });
  for (const task of queue) task();
  return result;
}

/**
 * Runs `task` once `db`'s transaction commits (never when it rolls back), or at once when `db`
 * is not a transaction. A transaction not started by inTransaction runs it on the next turn.
 */
export function afterCommit(db: Db, task: () => void): void {
  if (!db.isTransaction) return task();
  const queue = afterCommitQueues.get(db);
  if (queue) queue.push(task);
  else setImmediate(task);
}

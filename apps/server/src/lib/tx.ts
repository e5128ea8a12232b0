import type { Db } from '../db/database.js';
import { isStalePlan } from '../db/prepared.js';

// Work to run once a transaction started by inTransaction has committed (e.g. push its events).
const afterCommitQueues = new WeakMap<Db, (() => void)[]>();

const ATTEMPTS = 5;

/**
 * Runs `fn` in a transaction, or in the caller's when `db` already is one. On PostgreSQL a
 * transaction that lost a race has been rolled back whole, so it runs again (a few times,
 * after a short random pause) on a fresh snapshot: a deadlock's victim (40P01; the kept
 * counts' triggers lock chats and groups in an order no caller controls), a serialization
 * refusal (40001), or a row it read deleted by another that committed first (23503: under
 * READ COMMITTED, e.g. a customer's message for a chat the operator just removed — the re-run
 * opens a new chat, or answers the caller's "not found" from its own checks), or a row it
 * inserted that another inserted and committed first (23505: a new customer's first two
 * messages at once both open the chat — the re-run finds it; a true duplicate fails again and
 * is thrown after the last attempt, as before), or a prepared statement whose columns a
 * newer instance's migration changed (db/prepared.ts: the re-run prepares it afresh).
 */
export async function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  for (let attempt = 1; ; attempt++) {
    const queue: (() => void)[] = [];
    try {
      const result = await db.transaction().execute((trx) => {
        afterCommitQueues.set(trx, queue);
        return fn(trx);
      });
      for (const task of queue) task();
      return result;
    } catch (err) {
      if (attempt >= ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

function isRetryable(err: unknown): boolean {
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return (
    code === '40P01' || code === '40001' || code === '23503' || code === '23505' || isStalePlan(err)
  );
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

import type { Db } from '../db/database.js';

/** Runs `fn` in a transaction, or in the caller's when `db` already is one. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

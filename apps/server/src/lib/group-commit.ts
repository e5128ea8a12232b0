import { AsyncResource } from 'node:async_hooks';
import { sql } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import { inTransaction } from './tx.js';

type Work<T> = (trx: Db) => Promise<T>;
interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** The most units of work one transaction takes. */
const MAX_BATCH = 64;
const FLUSH_DELAY_MS = 1;

/**
 * Group commit on SQLite: units of work handed in while the database was busy run together in
 * one transaction, each in a savepoint of its own (a unit that fails is rolled back alone and
 * rejects alone), and every unit is answered only once that transaction has committed and its
 * log is on disk. SQLite writes one transaction at a time and its commit (with the sync) is
 * most of a small write's cost, so sends arriving together share one commit instead of
 * queueing for one each. PostgreSQL runs transactions side by side and syncs its log at each
 * commit itself (grouping concurrent commits): there each unit is its own transaction.
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private scheduled = false;
  private readonly grouped: boolean;

  constructor(private readonly db: Db) {
    this.grouped = dialectOf(db) === 'sqlite';
  }

  run<T>(work: Work<T>): Promise<T> {
    if (!this.grouped) return inTransaction(this.db, work);
    return new Promise<T>((resolve, reject) => {
      // Each unit runs in its caller's async context (its request id), not the batch's.
      this.queue.push({
        work: AsyncResource.bind(work),
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        // A request's body is read over several turns of the event loop: waiting a timer's
        // turn (about a millisecond) lets the sends that arrived together reach the queue.
        setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const outcomes: Outcome[] = [];
      try {
        // This commit also syncs the log to disk (synchronous FULL; the server's other writes
        // keep NORMAL: they survive a crash of the process, not always a power cut). One sync
        // per batch, not per send. SQLite takes the level only outside a transaction.
        await sql`pragma synchronous = full`.execute(this.db);
        try {
          await inTransaction(this.db, async (trx) => {
            for (const item of batch) outcomes.push(await runInSavepoint(trx, item.work));
          });
        } finally {
          await sql`pragma synchronous = normal`.execute(this.db);
        }
      } catch (err) {
        // The commit itself failed: nothing of the batch is stored.
        for (const item of batch) item.reject(err);
        continue;
      }
      batch.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.err);
      });
    }
    this.scheduled = false;
  }
}

async function runInSavepoint(trx: Db, work: Work<unknown>): Promise<Outcome> {
  await sql`savepoint group_commit_unit`.execute(trx);
  try {
    const value = await work(trx);
    await sql`release group_commit_unit`.execute(trx);
    return { ok: true, value };
  } catch (err) {
    await sql`rollback to group_commit_unit`.execute(trx);
    await sql`release group_commit_unit`.execute(trx);
    return { ok: false, err };
  }
}

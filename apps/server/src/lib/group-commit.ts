import { AsyncResource } from 'node:async_hooks';
import { sql } from 'kysely';
import { dialectOf, type Db } from '../db/database.js';
import { inTransaction } from './tx.js';

type Work<T> = (trx: Db) => Promise<T>;
/** The batch's own work in its transaction, before and after its units (`run`). */
export type AroundUnits = <T>(trx: Db, run: () => Promise<T>) => Promise<T>;

/**
 * `fn`, to be run later in its caller's async context (its request id). AsyncResource.bind
 * does the same but defines deprecated accessors on each function it binds: a cost per send.
 */
function inCallerContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const resource = new AsyncResource('parley.commit');
  return (...args) => resource.runInAsyncScope(fn, undefined, ...args);
}
interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** The most units of work one transaction takes. */
const MAX_BATCH = 64;
const FLUSH_DELAY_MS = 1;
/** PostgreSQL: the units that must wait before a second batch starts beside one in flight. */
export const SECOND_BATCH_MIN = 16;
/** PostgreSQL: a batch in flight this long no longer holds a small one back. */
export const STALL_MS = 50;

/**
 * Group commit on SQLite: units of work handed in while the database was busy run together in
 * one transaction, and every unit is answered only once that transaction has committed and its
 * log is on disk. The units run one after the other without savepoints (a savepoint and its
 * release per unit cost about a third of a send's database time); when one fails, the whole
 * transaction is rolled back and the batch runs again with a savepoint per unit, so the
 * failing unit is rolled back alone and rejects alone. SQLite writes one transaction at a time
 * and its commit (with the sync) is most of a small write's cost, so sends arriving together
 * share one commit instead of queueing for one each. PostgreSQL runs transactions side by side
 * and syncs its log at each commit itself (grouping concurrent commits): there each unit is
 * its own transaction. `around` is the batch's own work in its transaction, before and after
 * its units (the messages' search entries, written in one statement).
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private scheduled = false;
  private readonly grouped: boolean;

  constructor(
    private readonly db: Db,
    private readonly around: AroundUnits = (_trx, run) => run(),
  ) {
    this.grouped = dialectOf(db) === 'sqlite';
  }

  run<T>(work: Work<T>): Promise<T> {
    if (!this.grouped) return inTransaction(this.db, work);
    return new Promise<T>((resolve, reject) => {
      // Each unit runs in its caller's async context (its request id), not the batch's.
      this.queue.push({
        work: inCallerContext(work),
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
      let outcomes: Outcome[] = [];
      try {
        // This commit also syncs the log to disk (synchronous FULL; the server's other writes
        // keep NORMAL: they survive a crash of the process, not always a power cut). One sync
        // per batch, not per send. SQLite takes the level only outside a transaction.
        await sql`pragma synchronous = full`.execute(this.db);
        try {
          outcomes = await this.write(batch, false).catch(() => this.write(batch, true));
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

  /** The batch in one transaction; without savepoints the first failure rolls back it all. */
  private write(batch: Pending[], savepoints: boolean): Promise<Outcome[]> {
    return inTransaction(this.db, (trx) =>
      this.around(trx, async () => {
        const outcomes: Outcome[] = [];
        for (const item of batch) {
          outcomes.push(
            savepoints
              ? await runInSavepoint(trx, item.work)
              : { ok: true, value: await item.work(trx) },
          );
        }
        return outcomes;
      }),
    );
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

interface Queued<I, O> {
  item: I;
  key: string | number;
  /** The unit alone, in its caller's async context (its request id). */
  alone: () => Promise<O>;
  resolve(value: O): void;
  reject(err: unknown): void;
}

/**
 * Group commit on PostgreSQL: the units handed in while a batch was being written are written
 * together by `many` in one transaction of its own (it is given the pool: one statement is a
 * transaction by itself), a few statements for the whole batch (one insert of all the
 * messages, one update of all their chats, …) instead of several round trips each.
 * Every unit is answered only once that transaction has committed. When the batch fails, each
 * of its units runs again alone (`alone`), so one unit's error (a chat deleted meanwhile, an
 * id sent twice) fails that unit only. Units with the same key (a chat) are never written at
 * the same time, in one batch or two: they go in the order they came, and two batches never
 * lock the same chat. Up to `inFlight` batches run at once. A batch beyond the first starts
 * only when SECOND_BATCH_MIN units wait, or when every batch in flight has taken STALL_MS
 * (waiting on a lock, say): a batch costs the database a fixed part whatever its size, so
 * while one is written the next gathers instead of going out small (bench/sends.mjs: a send's
 * PostgreSQL CPU 0.167 → 0.135 ms, 44 → 48 % of the raw loop, median of 3 rounds).
 */
export class BatchCommit<I, O> {
  private readonly queue: Queued<I, O>[] = [];
  private readonly busy = new Set<string | number>();
  private running = 0;
  /** Batches in flight for longer than STALL_MS. */
  private stalled = 0;

  constructor(
    private readonly db: Db,
    private readonly many: (db: Db, items: I[]) => Promise<O[]>,
    private readonly inFlight = 2,
  ) {}

  run(item: I, key: string | number, alone: () => Promise<O>): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, key, alone: inCallerContext(alone), resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.inFlight) {
      if (this.running > this.stalled && this.queue.length < SECOND_BATCH_MIN) return;
      const batch = this.take();
      if (batch.length === 0) return;
      this.running += 1;
      void this.write(batch);
    }
  }

  /** The batch's keys are free again: the next batch can start. */
  private release(batch: Queued<I, O>[]): void {
    this.running -= 1;
    for (const q of batch) this.busy.delete(q.key);
    this.pump();
  }

  private async write(batch: Queued<I, O>[]): Promise<void> {
    let stalled = false;
    const timer = setTimeout(() => {
      stalled = true;
      this.stalled += 1;
      this.pump();
    }, STALL_MS);
    const done = () => {
      clearTimeout(timer);
      if (stalled) this.stalled -= 1;
      this.release(batch);
    };
    let values: O[];
    try {
      values = await this.many(
        this.db,
        batch.map((q) => q.item),
      );
    } catch (err) {
      if (batch.length === 1) batch[0]!.reject(err);
      else await Promise.all(batch.map((q) => q.alone().then(q.resolve, q.reject)));
      return done();
    }
    // The next batch goes to the database before this one's answers are sent: answering (a
    // response each) takes a while, and the database would wait for it.
    done();
    batch.forEach((q, i) => q.resolve(values[i]!));
  }

  /** Up to MAX_BATCH queued units of keys not being written, in order; the others wait. */
  private take(): Queued<I, O>[] {
    const batch: Queued<I, O>[] = [];
    for (let i = 0; i < this.queue.length && batch.length < MAX_BATCH;) {
      const q = this.queue[i]!;
      if (this.busy.has(q.key)) {
        i += 1;
        continue;
      }
      this.busy.add(q.key);
      batch.push(q);
      this.queue.splice(i, 1);
    }
    return batch;
  }
}

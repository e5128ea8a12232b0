import { sql } from 'kysely';
import type { Db, DialectName } from '../../db/database.js';
import type { OutboxRow } from '../../db/schema.js';

export const outboxRepository = {
  /** Several rows in one statement (a group commit of sends). */
  async insertMany(
    db: Db,
    rows: { seat_id: number; msg_id: number; kind: OutboxRow['kind']; request_id: string | null }[],
  ) {
    const now = Date.now();
    await db
      .insertInto('outbox')
      .values(
        rows.map((row) => ({
          ...row,
          status: 'pending' as const,
          next_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  },
  async insert(
    db: Db,
    row: { seat_id: number; msg_id: number; kind: OutboxRow['kind']; request_id: string | null },
  ) {
    const now = Date.now();
    await db
      .insertInto('outbox')
      .values({ ...row, status: 'pending', next_at: now, created_at: now, updated_at: now })
      .execute();
  },

  /**
   * Claims up to `limit` due rows until `leaseUntil`: one statement, so two workers never
   * claim the same row (PostgreSQL skips the rows another worker holds; SQLite runs one
   * writer at a time). A claim counts as an attempt.
   */
  async claimDue(
    db: Db,
    dialect: DialectName,
    now: number,
    leaseUntil: number,
    limit: number,
  ): Promise<OutboxRow[]> {
    const due = db
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_at', '<=', now)
      .orderBy('status')
      .orderBy('next_at')
      .limit(limit);
    const rows = await db
      .updateTable('outbox')
      .set((eb) => ({ next_at: leaseUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
      .where('id', 'in', dialect === 'pg' ? due.forUpdate().skipLocked() : due)
      .where('status', '=', 'pending')
      .returningAll()
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  },

  async finish(db: Db, id: number, status: 'done' | 'failed', error: string | null) {
    await db
      .updateTable('outbox')
      .set({ status, last_error: error, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  },

  /** Due again at `nextAt`; `uncounted`: the attempt the claim counted is given back (a rate limit). */
  async retryAt(db: Db, id: number, nextAt: number, error: string, uncounted = false) {
    await db
      .updateTable('outbox')
      .set((eb) => ({
        next_at: nextAt,
        last_error: error,
        updated_at: Date.now(),
        ...(uncounted ? { attempts: eb('attempts', '-', 1) } : {}),
      }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  },

  /** Gives claimed rows back (due at `now`): a stopping worker's deliveries in flight. */
  async release(db: Db, ids: number[], now: number) {
    await db
      .updateTable('outbox')
      .set({ next_at: now, updated_at: now })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .execute();
  },

  /** The soonest due time of a pending row (the worker sleeps until then). */
  async nextDue(db: Db): Promise<number | null> {
    const row = await db
      .selectFrom('outbox')
      .select(sql<number>`min(next_at)`.as('at'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.at == null ? null : Number(row.at);
  },

  /**
   * A failed row due again now (the admin's retry), with its message back to pending: one
   * statement each, conditioned on `failed`, so two retries at once make one. Answers whether
   * this call made it.
   */
  async retryFailed(db: Db, id: number, now: number): Promise<boolean> {
    const result = await db
      .updateTable('outbox')
      .set({ status: 'pending', next_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async messageBackToPending(db: Db, msgId: number) {
    return db
      .updateTable('messages')
      .set({ status: 'pending' })
      .where('id', '=', msgId)
      .where('status', '=', 'failed')
      .returning(['id', 'seat_id', 'session_id', 'status'])
      .executeTakeFirst();
  },
};

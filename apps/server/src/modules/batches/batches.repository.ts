import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { BatchItemRow, BatchRow, NewBatchItem } from '../../db/schema.js';

/** Ids per IN list / rows per insert: far below both engines' parameter limits. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

export interface TargetRow {
  id: number;
  send_phone: string;
  receiver_phone: string;
}

export const batchesRepository = {
  findByClientId(db: Db, seatId: number, batchId: string): Promise<BatchRow | undefined> {
    return db
      .selectFrom('batches')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
  },

  findById(db: Db, id: number): Promise<BatchRow | undefined> {
    return db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The seat's chats among `ids` (another seat's are simply not returned). */
  async sessionsByIds(db: Db, seatId: number, ids: readonly number[]): Promise<TargetRow[]> {
    const out: TargetRow[] = [];
    for (const part of chunks(ids)) {
      out.push(
        ...(await db
          .selectFrom('sessions')
          .select(['id', 'send_phone', 'receiver_phone'])
          .where('seat_id', '=', seatId)
          .where('id', 'in', part)
          .execute()),
      );
    }
    return out;
  },

  /** How many of `ids` are groups of this seat. */
  async countGroups(db: Db, seatId: number, ids: readonly number[]): Promise<number> {
    const row = await db
      .selectFrom('seat_groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('seat_id', '=', seatId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The chats of the seat's groups `groupIds`, at most `limit` (index sessions_list_idx). */
  sessionsOfGroups(
    db: Db,
    seatId: number,
    groupIds: readonly number[],
    limit: number,
  ): Promise<TargetRow[]> {
    return db
      .selectFrom('sessions')
      .select(['id', 'send_phone', 'receiver_phone'])
      .where('seat_id', '=', seatId)
      .where('group_id', 'in', groupIds)
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  insertBatch(db: Db, row: Omit<BatchRow, 'id' | 'done'>): Promise<BatchRow> {
    return db
      .insertInto('batches')
      .values({ ...row, done: 0 })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async insertItems(db: Db, rows: NewBatchItem[]): Promise<void> {
    for (const part of chunks(rows)) await db.insertInto('batch_items').values(part).execute();
  },

  /** A seat's pace row exists once it has batched (its first message may go at once). */
  async ensurePace(db: Db, seatId: number, now: number): Promise<void> {
    await db
      .insertInto('batch_pace')
      .values({ seat_id: seatId, next_at: now })
      .onConflict((oc) => oc.column('seat_id').doNothing())
      .execute();
  },

  itemsOf(db: Db, batchRowId: number): Promise<BatchItemRow[]> {
    return db
      .selectFrom('batch_items')
      .selectAll()
      .where('batch_row_id', '=', batchRowId)
      .orderBy('id')
      .execute();
  },

  // --- the background sender ---

  /** The seat with unfinished batches whose next message is due first. */
  nextDueSeat(db: Db): Promise<{ seat_id: number; next_at: number } | undefined> {
    // From the unfinished batches (index batches_done_idx) to their seats' pace rows.
    return db
      .selectFrom('batches as b')
      .innerJoin('batch_pace as p', 'p.seat_id', 'b.seat_id')
      .select(['p.seat_id', 'p.next_at'])
      .where('b.done', '=', 0)
      .orderBy('p.next_at')
      .limit(1)
      .executeTakeFirst();
  },

  /**
   * Takes the seat's turn: succeeds for one caller only (compare-and-set on `next_at`), which
   * then holds the turn until `holdUntil` or until it sets the next time.
   */
  async takeTurn(db: Db, seatId: number, seenNextAt: number, holdUntil: number) {
    const result = await db
      .updateTable('batch_pace')
      .set({ next_at: holdUntil })
      .where('seat_id', '=', seatId)
      .where('next_at', '=', seenNextAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async setNextAt(db: Db, seatId: number, nextAt: number): Promise<void> {
    await db
      .updateTable('batch_pace')
      .set({ next_at: nextAt })
      .where('seat_id', '=', seatId)
      .execute();
  },

  /**
   * Claims the seat's oldest pending item that nobody holds, in one statement: of two
   * instances racing for the same item, one updates it and the other updates nothing.
   */
  claimNext(db: Db, seatId: number, now: number, leaseUntil: number) {
    return db
      .updateTable('batch_items')
      .set((eb) => ({ claim_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', (eb) =>
        eb
          .selectFrom('batch_items')
          .select('id')
          .where('seat_id', '=', seatId)
          .where('status', '=', 'pending')
          .where('claim_until', '<', now)
          .orderBy('id')
          .limit(1),
      )
      .where('status', '=', 'pending')
      .where('claim_until', '<', now)
      .returningAll()
      .executeTakeFirst();
  },

  async finishItem(
    db: Db,
    itemId: number,
    result: { status: 'sent' | 'failed'; msg_id: number | null; code: string },
    now: number,
  ): Promise<void> {
    await db
      .updateTable('batch_items')
      .set({ ...result, claim_until: 0, updated_at: now })
      .where('id', '=', itemId)
      .where('status', '=', 'pending')
      .execute();
  },

  /** Hands a claimed item back (it will be tried again after `retryAt`). */
  async releaseItem(db: Db, itemId: number, retryAt: number): Promise<void> {
    await db
      .updateTable('batch_items')
      .set({ claim_until: retryAt })
      .where('id', '=', itemId)
      .where('status', '=', 'pending')
      .execute();
  },

  /** Whether the seat still has items nobody has finished (claimed or not). */
  async hasPending(db: Db, seatId: number): Promise<boolean> {
    const row = await db
      .selectFrom('batch_items')
      .select('id')
      .where('seat_id', '=', seatId)
      .where('status', '=', 'pending')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Flags the seat's batches whose every item has been tried. */
  async markFinishedBatches(db: Db, seatId: number): Promise<void> {
    await db
      .updateTable('batches')
      .set({ done: 1 })
      .where('seat_id', '=', seatId)
      .where('done', '=', 0)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('batch_items as i')
              .select(sql.lit(1).as('one'))
              .whereRef('i.batch_row_id', '=', 'batches.id')
              .where('i.status', '=', 'pending'),
          ),
        ),
      )
      .execute();
  },
};

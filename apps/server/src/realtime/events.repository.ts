import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export const eventsRepository = {
  /**
   * The seat's next event number. The counter row's lock is held until the transaction ends,
   * so a seat's events commit in the order of their numbers (a resume never skips one).
   */
  async nextSeq(db: Db, seatId: number): Promise<number> {
    const row = await db
      .insertInto('event_counters')
      .values({ seat_id: seatId, last_seq: 1 })
      .onConflict((oc) =>
        oc.column('seat_id').doUpdateSet({ last_seq: sql`event_counters.last_seq + 1` }),
      )
      .returning('last_seq')
      .executeTakeFirstOrThrow();
    return Number(row.last_seq);
  },

  async insert(
    db: Db,
    row: {
      seat_id: number;
      seq: number;
      type: string;
      data: string;
      at: number;
      request_id: string | null;
    },
  ) {
    await db.insertInto('events').values(row).execute();
  },

  /** The newest event number of each of these seats (seats without events are left out). */
  lastSeqs(db: Db, seatIds: number[]) {
    if (seatIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('event_counters')
      .select(['seat_id', 'last_seq'])
      .where('seat_id', 'in', seatIds)
      .execute();
  },

  /** The seat's events after `afterSeq`, oldest first. */
  after(db: Db, seatId: number, afterSeq: number, limit: number) {
    return db
      .selectFrom('events')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('seq', '>', afterSeq)
      .orderBy('seat_id')
      .orderBy('seq')
      .limit(limit)
      .execute();
  },

  async pruneBefore(db: Db, time: number): Promise<number> {
    const result = await db.deleteFrom('events').where('at', '<', time).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

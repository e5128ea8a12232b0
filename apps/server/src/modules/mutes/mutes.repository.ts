import type { Db } from '../../db/database.js';

/** `chat_mutes`: the chats each seat muted (migration 040). */
export const mutesRepository = {
  /** True when the chat was not muted by this seat before. */
  async add(db: Db, seatId: number, sessionId: number, now: number): Promise<boolean> {
    const row = await db
      .insertInto('chat_mutes')
      .values({ session_id: sessionId, seat_id: seatId, created_at: now })
      .onConflict((oc) => oc.columns(['session_id', 'seat_id']).doNothing())
      .returning('session_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** True when the chat was muted by this seat. */
  async remove(db: Db, seatId: number, sessionId: number): Promise<boolean> {
    const r = await db
      .deleteFrom('chat_mutes')
      .where('session_id', '=', sessionId)
      .where('seat_id', '=', seatId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  },

  /** The seat's muted chats that are its chats now (one it lost to another seat is left out). */
  async listForSeat(db: Db, seatId: number): Promise<number[]> {
    const rows = await db
      .selectFrom('chat_mutes as m')
      .innerJoin('sessions as s', 's.id', 'm.session_id')
      .select('m.session_id')
      .where('m.seat_id', '=', seatId)
      .where('s.seat_id', '=', seatId)
      .orderBy('m.session_id')
      .execute();
    return rows.map((r) => r.session_id);
  },

  /** Which of these chats the seat muted (the notifier's filter: one statement per batch). */
  async mutedAmong(db: Db, seatId: number, sessionIds: readonly number[]): Promise<Set<number>> {
    if (sessionIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('chat_mutes')
      .select('session_id')
      .where('seat_id', '=', seatId)
      .where('session_id', 'in', [...sessionIds])
      .execute();
    return new Set(rows.map((r) => r.session_id));
  },
};

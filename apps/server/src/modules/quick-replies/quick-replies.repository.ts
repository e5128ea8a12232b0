import type { Db } from '../../db/database.js';
import type { QuickReplyRow } from '../../db/schema.js';

type Fields = Pick<QuickReplyRow, 'kind' | 'name' | 'content' | 'media_id'>;

export const quickRepliesRepository = {
  /** Most recently updated first. */
  listBySeat(db: Db, seatId: number): Promise<QuickReplyRow[]> {
    return db
      .selectFrom('quick_replies')
      .selectAll()
      .where('seat_id', '=', seatId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },
  /** Scoped by seat: another seat's quick reply is as absent as a missing one. */
  findForSeat(db: Db, seatId: number, id: number) {
    return db
      .selectFrom('quick_replies')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('id', '=', id)
      .executeTakeFirst();
  },
  insert(db: Db, seatId: number, fields: Fields, now: number): Promise<QuickReplyRow> {
    return db
      .insertInto('quick_replies')
      .values({ seat_id: seatId, ...fields, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  update(db: Db, seatId: number, id: number, fields: Fields, now: number) {
    return db
      .updateTable('quick_replies')
      .set({ ...fields, updated_at: now })
      .where('seat_id', '=', seatId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  },
  async delete(db: Db, seatId: number, id: number): Promise<number> {
    const result = await db
      .deleteFrom('quick_replies')
      .where('seat_id', '=', seatId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

import type { Db } from '../../db/database.js';
import type { MediaRow } from '../../db/schema.js';

export const mediaRepository = {
  insert(db: Db, row: MediaRow): Promise<MediaRow> {
    return db.insertInto('media').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** Scoped by seat: another seat's media is as absent as a missing one. */
  findForSeat(db: Db, seatId: number, mediaId: string) {
    return db
      .selectFrom('media')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('media_id', '=', mediaId)
      .executeTakeFirst();
  },

  /** One query for a list's media (quick replies), scoped by seat. */
  findManyForSeat(db: Db, seatId: number, mediaIds: string[]): Promise<MediaRow[]> {
    if (mediaIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('media')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('media_id', 'in', mediaIds)
      .execute();
  },

  /**
   * A media another seat uploaded but that a message of this seat's chats shows (the chat
   * came over with its phone account): the seat may open it too.
   */
  async findShownToSeat(db: Db, seatId: number, mediaId: string) {
    const shown = await db
      .selectFrom('messages')
      .select('id')
      .where('media_id', '=', mediaId)
      .where('seat_id', '=', seatId)
      .where('deleted_for_all', '=', 0)
      .limit(1)
      .executeTakeFirst();
    if (!shown) return undefined;
    return db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
  },

  /** Any seat's media by its (random) id: for a holder of a channel page's signed URL (MediaUrls.signFor). */
  findById(db: Db, mediaId: string) {
    return db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
  },
};

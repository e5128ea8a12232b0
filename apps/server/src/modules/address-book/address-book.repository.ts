import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { containsPattern } from '../../lib/like.js';

export interface BookFilter {
  seatId: number;
  /** Substring of the customer number, the remark or the channel's name (case-insensitive). */
  keyword?: string;
  /** Only this chat (still only if it is the seat's). */
  sessionId?: number;
}

/** Position in the book's order: customer number, then chat id. */
export interface BookKey {
  receiverPhone: string;
  id: number;
}

function applyFilter(eb: ExpressionBuilder<Database, 'sessions'>, f: BookFilter) {
  const conditions = [eb('sessions.seat_id', '=', f.seatId)];
  if (f.sessionId !== undefined) conditions.push(eb('sessions.id', '=', f.sessionId));
  if (f.keyword) {
    const pattern = containsPattern(f.keyword.toLowerCase());
    conditions.push(
      eb.or([
        // Numbers are digits and '+': nothing to fold.
        sql<boolean>`${sql.ref('sessions.receiver_phone')} like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('sessions.remark')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('sessions.customer_name')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return eb.and(conditions);
}

export const addressBookRepository = {
  /** One page in (receiver_phone, id) order, walked on sessions_book_idx. */
  pageQuery(db: Db, f: BookFilter, after: BookKey | null, limit: number) {
    let q = db
      .selectFrom('sessions')
      .innerJoin('seat_groups', 'seat_groups.id', 'sessions.group_id')
      .selectAll('sessions')
      .select(['seat_groups.name as group_name', 'seat_groups.type as group_type'])
      .where((eb) => applyFilter(eb, f));
    if (after) {
      // A row-value comparison keeps the keyset inside the index range on both engines.
      q = q.where((eb) =>
        eb(
          eb.refTuple('sessions.receiver_phone', 'sessions.id'),
          '>',
          eb.tuple(after.receiverPhone, after.id),
        ),
      );
    }
    return q.orderBy('sessions.receiver_phone').orderBy('sessions.id').limit(limit);
  },

  page(db: Db, f: BookFilter, after: BookKey | null, limit: number) {
    return addressBookRepository.pageQuery(db, f, after, limit).execute();
  },

  count(db: Db, f: BookFilter): Promise<number> {
    return db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => applyFilter(eb, f))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },
};

import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';
import { BUILT_IN_GROUPS, BUILT_IN_GROUP_NAMES, type BuiltInGroup } from '@parley/protocol';

export interface UnreadRow {
  group_id: number;
  unread: number;
  recent: number;
}

export const groupsRepository = {
  listBySeat(db: Db, seatId: number): Promise<GroupRow[]> {
    return db.selectFrom('seat_groups').selectAll().where('seat_id', '=', seatId).execute();
  },
  /** Scoped by seat: another seat's group is as absent as a missing one. */
  findForSeat(db: Db, seatId: number, groupId: number) {
    return db
      .selectFrom('seat_groups')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('id', '=', groupId)
      .executeTakeFirst();
  },
  findByType(db: Db, seatId: number, type: BuiltInGroup) {
    return db
      .selectFrom('seat_groups')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('type', '=', type)
      .executeTakeFirst();
  },
  findByName(db: Db, seatId: number, name: string) {
    return db
      .selectFrom('seat_groups')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('name', '=', name)
      .executeTakeFirst();
  },
  insert(db: Db, row: { seat_id: number; name: string; type: GroupRow['type']; now: number }) {
    return db
      .insertInto('seat_groups')
      .values({ seat_id: row.seat_id, name: row.name, type: row.type, created_at: row.now })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async insertBuiltIns(db: Db, seatId: number, now: number) {
    await db
      .insertInto('seat_groups')
      .values(
        BUILT_IN_GROUPS.map((type) => ({
          seat_id: seatId,
          name: BUILT_IN_GROUP_NAMES[type],
          type,
          created_at: now,
        })),
      )
      .execute();
  },
  async rename(db: Db, id: number, name: string) {
    await db.updateTable('seat_groups').set({ name }).where('id', '=', id).execute();
  },
  async delete(db: Db, id: number) {
    await db.deleteFrom('seat_groups').where('id', '=', id).execute();
  },
  /**
   * Unread per group in one aggregate query: all of it, and the part active since `recentSince`
   * (user_time_type 1). With `waitingOnly`, only chats whose last message came from the customer.
   */
  unreadByGroup(
    db: Db,
    seatId: number,
    recentSince: number,
    waitingOnly: boolean,
    groupId?: number,
  ): Promise<UnreadRow[]> {
    let q = db
      .selectFrom('sessions')
      .select((eb) => [
        'group_id',
        eb.fn.coalesce(eb.fn.sum<number>('un_read_count'), sql<number>`0`).as('unread'),
        eb.fn
          .coalesce(
            eb.fn.sum<number>(
              eb
                .case()
                .when('latest_time', '>=', recentSince)
                .then(eb.ref('un_read_count'))
                .else(0)
                .end(),
            ),
            sql<number>`0`,
          )
          .as('recent'),
      ])
      .where('seat_id', '=', seatId)
      // Read chats add nothing; the partial index sessions_unread_idx holds only unread ones,
      // so the poll touches the unread chats, not every chat of the seat.
      // A literal, not a parameter: SQLite uses a partial index only when it can prove the
      // query's condition implies the index's.
      .where('un_read_count', '>', sql.lit(0))
      .groupBy('group_id');
    if (waitingOnly) q = q.where('last_direction', '=', 'in');
    if (groupId !== undefined) q = q.where('group_id', '=', groupId);
    return q.execute().then((rows) =>
      rows.map((r) => ({
        group_id: r.group_id,
        unread: Number(r.unread),
        recent: Number(r.recent),
      })),
    );
  },
};

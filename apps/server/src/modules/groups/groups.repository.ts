import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';
import { COUNT_HOUR_MS } from '../../db/migrations/016-session-counts.js';
import { BUILT_IN_GROUPS, BUILT_IN_GROUP_NAMES, type BuiltInGroup } from '@parley/protocol';

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
   * The seat's unread messages active since `since` (the "last 24 hours" tab), all and of
   * waiting chats: the kept hours after the boundary hour, plus the unread chats of the
   * boundary hour itself (sessions_unread_time_idx). One statement, so one snapshot.
   */
  recentUnread(db: Db, seatId: number, since: number) {
    const boundary = Math.floor(since / COUNT_HOUR_MS);
    return db
      .selectNoFrom((eb) => [
        eb
          .selectFrom('session_hours')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('unread'), sql<number>`0`).as('n'))
          .where('seat_id', '=', seatId)
          .where('hour', '>', boundary)
          .as('hours_unread'),
        eb
          .selectFrom('session_hours')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('waiting_unread'), sql<number>`0`).as('n'))
          .where('seat_id', '=', seatId)
          .where('hour', '>', boundary)
          .as('hours_waiting'),
        eb
          .selectFrom('sessions')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('un_read_count'), sql<number>`0`).as('n'))
          .where('seat_id', '=', seatId)
          // A literal, so SQLite can prove the partial index's condition.
          .where('un_read_count', '>', sql.lit(0))
          .where('latest_time', '>=', since)
          .where('latest_time', '<', (boundary + 1) * COUNT_HOUR_MS)
          .as('edge_unread'),
        eb
          .selectFrom('sessions')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('un_read_count'), sql<number>`0`).as('n'))
          .where('seat_id', '=', seatId)
          .where('un_read_count', '>', sql.lit(0))
          .where('latest_time', '>=', since)
          .where('latest_time', '<', (boundary + 1) * COUNT_HOUR_MS)
          .where('last_direction', '=', 'in')
          .as('edge_waiting'),
      ])
      .executeTakeFirstOrThrow()
      .then((r) => ({
        unread: Number(r.hours_unread) + Number(r.edge_unread),
        waitingUnread: Number(r.hours_waiting) + Number(r.edge_waiting),
      }));
  },
};

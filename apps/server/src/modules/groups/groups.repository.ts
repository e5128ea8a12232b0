import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';
import type { GroupRow, GroupWithCounts } from '../../db/schema.js';
import { COUNT_HOUR_MS } from '../../db/migrations/017-session-counts.js';
import { BUILT_IN_GROUPS, BUILT_IN_GROUP_NAMES, type BuiltInGroup } from '@parley/protocol';

/** seat_groups with their kept counts; a group no chat was ever counted in has none: zero. */
export function withCounts(db: Db) {
  return db
    .selectFrom('seat_groups')
    .leftJoin('group_counts', 'group_counts.group_id', 'seat_groups.id')
    .selectAll('seat_groups')
    .select((eb) => [
      eb.fn.coalesce('group_counts.chats', sql<number>`0`).as('chats'),
      eb.fn.coalesce('group_counts.waiting_chats', sql<number>`0`).as('waiting_chats'),
      eb.fn.coalesce('group_counts.unread', sql<number>`0`).as('unread'),
      eb.fn.coalesce('group_counts.waiting_unread', sql<number>`0`).as('waiting_unread'),
    ]);
}

/**
 * The seats' unread messages active since `since` (the "last 24 hours" tab), all and of
 * waiting chats, as rows to sum per seat: the kept hours after the boundary hour, plus the
 * unread chats of the boundary hour itself (sessions_unread_time_idx).
 */
function recentUnreadRows(
  db: Db,
  seatIds: number[],
  boundary: number,
  since: number,
  edgeEnd: number,
) {
  const hours = db
    .selectFrom('session_hours')
    .select(['seat_id', 'unread as u', 'waiting_unread as w'])
    .where('seat_id', 'in', seatIds)
    .where('hour', '>', boundary);
  const edge = db
    .selectFrom('sessions')
    .select((eb) => [
      'seat_id',
      'un_read_count as u',
      eb
        .case()
        .when('last_direction', '=', 'in')
        .then(eb.ref('un_read_count'))
        .else(0)
        .end()
        .as('w'),
    ])
    .where('seat_id', 'in', seatIds)
    // A literal, so SQLite can prove the partial index's condition.
    .where('un_read_count', '>', sql.lit(0))
    .where('latest_time', '>=', since)
    .where('latest_time', '<', edgeEnd);
  return hours.unionAll(edge);
}

/** One seat's recent unread sums (recentUnreadRows), zero when it has none. */
function recentUnread(db: Db, seatId: number, boundary: number, since: number, edgeEnd: number) {
  return db
    .selectFrom(recentUnreadRows(db, [seatId], boundary, since, edgeEnd).as('recent'))
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('u'), sql<number>`0`).as('recent_unread'),
      eb.fn.coalesce(eb.fn.sum<number>('w'), sql<number>`0`).as('recent_waiting'),
    ]);
}

/** A group with its kept counts and its recent chats' two parts (withTabCounts). */
export type GroupWithTabCounts = GroupWithCounts & {
  hours_chats: number | string | null;
  hours_waiting: number | string | null;
  edge_chats: number | string | null;
  edge_waiting: number | string | null;
};

/**
 * withCounts and each group's recent chats, all and waiting (the user lists' tab totals), as
 * groupWithTotalSelect reads one group's: its kept hours after the boundary hour, and the chats
 * of the boundary hour itself (a seek into sessions_list_idx per value of is_top).
 */
function withTabCounts(db: Db, boundary: number, since: number, edgeEnd: number) {
  return withCounts(db).select((eb) => {
    const hours = (column: 'chats' | 'waiting_chats') =>
      eb
        .selectFrom('session_hours')
        .select((e) => e.fn.sum<number>(column).as('n'))
        .whereRef('session_hours.seat_id', '=', 'seat_groups.seat_id')
        .where('session_hours.hour', '>', boundary)
        .whereRef('session_hours.group_id', '=', 'seat_groups.id');
    const edge = (waiting: boolean) =>
      eb
        .selectFrom('sessions')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('sessions.seat_id', '=', 'seat_groups.seat_id')
        .whereRef('sessions.group_id', '=', 'seat_groups.id')
        .where('sessions.is_top', 'in', [0, 1])
        .where('sessions.latest_time', '>=', since)
        .where('sessions.latest_time', '<', edgeEnd)
        .$if(waiting, (w) => w.where('sessions.last_direction', '=', 'in'));
    return [
      hours('chats').as('hours_chats'),
      hours('waiting_chats').as('hours_waiting'),
      edge(false).as('edge_chats'),
      edge(true).as('edge_waiting'),
    ];
  });
}

/** The groups with their counts, each row also carrying the seat's recent sums: one statement, so one snapshot. */
const listWithRecentQuery = compiledQuery(
  (db, _shape: '', seatId: number, boundary: number, since: number, edgeEnd: number) =>
    withTabCounts(db, boundary, since, edgeEnd)
      .innerJoin(recentUnread(db, seatId, boundary, since, edgeEnd).as('r'), (join) =>
        join.onTrue(),
      )
      .select(['r.recent_unread', 'r.recent_waiting'])
      .where('seat_groups.seat_id', '=', seatId),
);

/**
 * listWithRecentQuery for several seats in one statement (a group commit's seats): each
 * group row carries its seat's recent sums.
 */
function listWithRecentOf(
  db: Db,
  seatIds: number[],
  boundary: number,
  since: number,
  edgeEnd: number,
) {
  const recent = db
    .selectFrom(recentUnreadRows(db, seatIds, boundary, since, edgeEnd).as('recent'))
    .select((eb) => [
      'seat_id',
      eb.fn.sum<number>('u').as('recent_unread'),
      eb.fn.sum<number>('w').as('recent_waiting'),
    ])
    .groupBy('seat_id');
  return withTabCounts(db, boundary, since, edgeEnd)
    .leftJoin(recent.as('r'), 'r.seat_id', 'seat_groups.seat_id')
    .select(['r.recent_unread', 'r.recent_waiting'])
    .where('seat_groups.seat_id', 'in', seatIds);
}

/** listWithRecentOf compiled once per number of seats (a group commit's every batch). */
const listWithRecentOfQuery = compiledQuery(
  (db, _seats: number, boundary: number, since: number, edgeEnd: number, ...seatIds: number[]) =>
    listWithRecentOf(db, seatIds, boundary, since, edgeEnd).orderBy('seat_groups.id'),
);

export const groupsRepository = {
  listBySeat(db: Db, seatId: number): Promise<GroupRow[]> {
    return db.selectFrom('seat_groups').selectAll().where('seat_id', '=', seatId).execute();
  },
  /** The seat's groups with their kept counts (migration 016). */
  /** One group of the seat with its kept counts. */
  findWithCounts(db: Db, seatId: number, groupId: number): Promise<GroupWithCounts | undefined> {
    return withCounts(db)
      .where('seat_groups.seat_id', '=', seatId)
      .where('seat_groups.id', '=', groupId)
      .executeTakeFirst();
  },
  /** A deleted group's counts (zero by then: its chats moved first). */
  async deleteCounts(db: Db, groupId: number) {
    await db.deleteFrom('group_counts').where('group_id', '=', groupId).execute();
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
  /**
   * The group, locked until the transaction ends on PostgreSQL: a chat moved into it meanwhile
   * waits, so its deletion moves every chat out first (SQLite writes one at a time anyway).
   */
  findForSeatLocked(db: Db, seatId: number, groupId: number) {
    const q = db
      .selectFrom('seat_groups')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('id', '=', groupId);
    return (dialectOf(db) === 'pg' ? q.forUpdate() : q).executeTakeFirst();
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
   * The seat's groups with their kept counts, and its unread messages of chats active since
   * `since` (the recent tab), in one round trip.
   */
  async listWithRecentUnread(db: Db, seatId: number, since: number) {
    const boundary = Math.floor(since / COUNT_HOUR_MS);
    const rows = await listWithRecentQuery.run(
      db,
      '',
      seatId,
      boundary,
      since,
      (boundary + 1) * COUNT_HOUR_MS,
    );
    const first = rows[0];
    return {
      groups: rows as GroupWithTabCounts[],
      recent: {
        unread: Number(first?.recent_unread ?? 0),
        waitingUnread: Number(first?.recent_waiting ?? 0),
      },
    };
  },

  /** listWithRecentUnread of several seats in one statement, by seat. */
  async listWithRecentUnreadOf(db: Db, seatIds: number[], since: number) {
    const bySeat = new Map<
      number,
      { groups: GroupWithTabCounts[]; recent: { unread: number; waitingUnread: number } }
    >();
    if (seatIds.length === 0) return bySeat;
    const boundary = Math.floor(since / COUNT_HOUR_MS);
    const rows = await listWithRecentOfQuery.run(
      db,
      seatIds.length,
      boundary,
      since,
      (boundary + 1) * COUNT_HOUR_MS,
      ...seatIds,
    );
    for (const row of rows) {
      let seat = bySeat.get(row.seat_id);
      if (!seat) {
        seat = {
          groups: [],
          recent: {
            unread: Number(row.recent_unread ?? 0),
            waitingUnread: Number(row.recent_waiting ?? 0),
          },
        };
        bySeat.set(row.seat_id, seat);
      }
      seat.groups.push(row as GroupWithTabCounts);
    }
    return bySeat;
  },
};

import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';

const versionQuery = compiledQuery((db, _shape: '', seatId: number) =>
  db.selectFrom('seat_list_versions').select('version').where('seat_id', '=', seatId),
);

/** The oldest chat of the group still in the "last 24 hours" tab: a seek per is_top. */
const groupEdgeQuery = compiledQuery(
  (db, _shape: '', seatId: number, groupId: number, since: number) => {
    const oldest = (isTop: 0 | 1) =>
      db
        .selectFrom('sessions')
        .select('latest_time')
        .where('seat_id', '=', seatId)
        .where('group_id', '=', groupId)
        .where('is_top', '=', sql.lit(isTop))
        .where('latest_time', '>=', since)
        .orderBy('latest_time')
        .limit(1);
    return db
      .selectNoFrom([oldest(0).as('unpinned'), oldest(1).as('pinned')])
      .$castTo<{ unpinned: number | null; pinned: number | null }>();
  },
);

/** The oldest unread chat of the seat still in the last 24 hours (sessions_unread_time_idx). */
const unreadEdgeQuery = compiledQuery((db, _shape: '', seatId: number, since: number) =>
  db
    .selectFrom('sessions')
    .select('latest_time')
    .where('seat_id', '=', seatId)
    // A literal, so SQLite can prove the partial index's condition.
    .where('un_read_count', '>', sql.lit(0))
    .where('latest_time', '>=', since)
    .orderBy('latest_time')
    .limit(1),
);

const least = (...values: (number | string | null | undefined)[]) => {
  const present = values.filter((v) => v !== null && v !== undefined).map(Number);
  return present.length > 0 ? Math.min(...present) : null;
};

export const listVersionsRepository = {
  /** The seat's list version (migration 025); 0 before its first change. */
  async version(db: Db, seatId: number): Promise<number> {
    const [row] = await versionQuery.run(db, '', seatId);
    return row ? Number(row.version) : 0;
  },
  /** latest_time of the group's oldest chat active since `since` (null: none). */
  async groupRecentEdge(db: Db, seatId: number, groupId: number, since: number) {
    const [row] = await groupEdgeQuery.run(db, '', seatId, groupId, since);
    return least(row?.unpinned, row?.pinned);
  },
  /** latest_time of the seat's oldest unread chat active since `since` (null: none). */
  async unreadRecentEdge(db: Db, seatId: number, since: number) {
    const [row] = await unreadEdgeQuery.run(db, '', seatId, since);
    return least(row?.latest_time);
  },
};

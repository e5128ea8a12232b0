import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';
import type { ListVersion } from '../../lib/list-cache.js';
import { LIST_VERSION_CHANNEL } from '../../db/migrations/025-list-versions.js';

/**
 * The seat's list version (migration 025) and, in the same statement, the moment the list's
 * answer stops holding without a write: the latest_time of the oldest chat still in the "last
 * 24 hours" (it changes tab 24 hours after). One round trip per read; when the version is the
 * cached answer's, nothing else is read.
 */
export const versionOf = (db: Db, seatId: number) =>
  db.selectFrom('seat_list_versions').select('version').where('seat_id', '=', seatId);

/** The group's oldest recent chat of one side (is_top): a seek into sessions_list_idx. */
export const oldestRecent = (
  db: Db,
  seatId: number,
  groupId: number,
  since: number,
  isTop: 0 | 1,
) =>
  db
    .selectFrom('sessions')
    .select('latest_time')
    .where('seat_id', '=', seatId)
    .where('group_id', '=', groupId)
    .where('is_top', '=', sql.lit(isTop))
    .where('latest_time', '>=', since)
    .orderBy('latest_time')
    .limit(1);

/** The group's oldest recent chat: a seek into sessions_list_idx per is_top. */
const groupQuery = compiledQuery(
  (db, _shape: '', seatId: number, groupId: number, since: number) => {
    const oldest = (isTop: 0 | 1) => oldestRecent(db, seatId, groupId, since, isTop);
    return db
      .selectNoFrom([
        versionOf(db, seatId).as('version'),
        oldest(0).as('unpinned'),
        oldest(1).as('pinned'),
      ])
      .$castTo<{ version: number | null; unpinned: number | null; pinned: number | null }>();
  },
);

/** The seat's oldest recent unread chat (sessions_unread_time_idx). */
const seatQuery = compiledQuery((db, _shape: '', seatId: number, since: number) =>
  db
    .selectNoFrom([
      versionOf(db, seatId).as('version'),
      db
        .selectFrom('sessions')
        .select('latest_time')
        .where('seat_id', '=', seatId)
        // A literal, so SQLite can prove the partial index's condition.
        .where('un_read_count', '>', sql.lit(0))
        .where('latest_time', '>=', since)
        .orderBy('latest_time')
        .limit(1)
        .as('oldest'),
    ])
    .$castTo<{ version: number | null; oldest: number | null }>(),
);

export const least = (...values: (number | string | null | undefined)[]) => {
  const present = values.filter((v) => v !== null && v !== undefined).map(Number);
  return present.length > 0 ? Math.min(...present) : null;
};

export const listVersionsRepository = {
  /** A notice on the versions' channel (the feed's probe). */
  async announce(db: Db, payload: string): Promise<void> {
    await sql`select pg_notify(${LIST_VERSION_CHANNEL}, ${payload})`.execute(db);
  },
  /** For a page of the group (getGroupInfo): its chats active since `since`. */
  async forGroup(db: Db, seatId: number, groupId: number, since: number): Promise<ListVersion> {
    const [row] = await groupQuery.run(db, '', seatId, groupId, since);
    return { version: Number(row?.version ?? 0), edge: least(row?.unpinned, row?.pinned) };
  },
  /** For the group list (getGroupList): the seat's unread chats active since `since`. */
  async forSeat(db: Db, seatId: number, since: number): Promise<ListVersion> {
    const [row] = await seatQuery.run(db, '', seatId, since);
    return { version: Number(row?.version ?? 0), edge: least(row?.oldest) };
  },
};

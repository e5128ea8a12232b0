import { sql } from 'kysely';
import type { Label } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { SessionRow } from '../../db/schema.js';
import { compiledQuery } from '../../db/compiled-query.js';
import { COUNT_HOUR_MS } from '../../db/migrations/017-session-counts.js';
import type { ListVersion } from '../../lib/list-cache.js';
import { least, oldestRecent, versionOf } from './list-versions.repository.js';
import {
  groupWithTotalSelect,
  pageQuery,
  sideBound,
  tabTotal,
  type SessionFilter,
  type SessionKey,
} from './sessions.repository.js';

/** How a side of the page is read: not at all, from its start, or from a bound. */
type Side = 'none' | 'open' | 'bound';

interface Shape {
  tab: 1 | 2;
  waitingOnly: boolean;
  pinned: Side;
  unpinned: Exclude<Side, 'none'>;
}

/** The header's columns, named apart from the chat's. */
interface Header {
  h_version: number | string | null;
  h_unpinned: number | string | null;
  h_pinned: number | string | null;
  h_chats: number | string;
  h_hours_recent: number | string | null;
  h_edge_recent: number | string | null;
  /** The chat's labels (labelsRepository.ofChats' order), in the same statement. */
  p_labels?: Label[] | null;
}

/**
 * getGroupInfo's page in one statement (PostgreSQL): the seat's list version and the moment the
 * answer stops holding (list-versions.repository), the group's kept total (groupWithTotal) and
 * the page's chats (sessionsRepository.page), all of one snapshot. The chats are read only when
 * the version is not `cached` (a gate PostgreSQL decides once, before reading them); the group
 * missing, there is no row at all. Each side is sessionsRepository's own query, so the answer is
 * the same; the pinned side's rows come first, as there.
 */
const pageInOneQuery = compiledQuery(
  (
    db,
    shape: Shape,
    seatId: number,
    groupId: number,
    recentSince: number,
    boundary: number,
    edgeEnd: number,
    pinnedLatest: number,
    pinnedId: number,
    unpinnedLatest: number,
    unpinnedId: number,
    limit: number,
    cached: number,
  ) => {
    const f: SessionFilter = {
      seatId,
      groupId,
      userTimeType: shape.tab,
      recentSince,
      waitingOnly: shape.waitingOnly,
    };
    const header = groupWithTotalSelect(
      db,
      shape.waitingOnly,
      seatId,
      groupId,
      boundary,
      recentSince,
      edgeEnd,
    ).select([
      versionOf(db, seatId).as('h_version'),
      oldestRecent(db, seatId, groupId, recentSince, 0).as('h_unpinned'),
      oldestRecent(db, seatId, groupId, recentSince, 1).as('h_pinned'),
    ]);
    // Read only when the cached answer's version is not the one of this snapshot.
    const gate = sql<boolean>`coalesce(${sql.ref('h.h_version')}, 0) <> ${cached}`;
    const side = (isTop: 0 | 1, how: Side, latestTime: number, id: number) =>
      db
        .selectFrom(
          pageQuery(db, f, isTop, how === 'bound' ? { latestTime, id } : null, limit)
            .where(gate)
            .as(isTop ? 'pinned' : 'unpinned'),
        )
        .selectAll();
    const unpinned = side(0, shape.unpinned, unpinnedLatest, unpinnedId);
    const sides =
      shape.pinned === 'none'
        ? unpinned
        : side(1, shape.pinned, pinnedLatest, pinnedId).unionAll(unpinned);
    return db
      .selectFrom(header.as('h'))
      .leftJoinLateral(
        db
          .selectFrom(sides.as('s'))
          .selectAll()
          .orderBy('is_top', 'desc')
          .orderBy('latest_time', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .as('p'),
        (join) => join.onTrue(),
      )
      .select([
        sql.ref<number | null>('h.h_version').as('h_version'),
        sql.ref<number | null>('h.h_unpinned').as('h_unpinned'),
        sql.ref<number | null>('h.h_pinned').as('h_pinned'),
        sql.ref<number>(shape.waitingOnly ? 'h.waiting_chats' : 'h.chats').as('h_chats'),
        sql.ref<number | null>('h.hours_recent').as('h_hours_recent'),
        sql.ref<number | null>('h.edge_recent').as('h_edge_recent'),
        // The row's labels here rather than in a read of their own: a miss stays one statement.
        sql<Label[] | null>`(select json_agg(json_build_object('label_id', l.id, 'name', l.name,
          'color', l.color) order by l.name_key, l.id) from chat_labels cl
          join labels l on l.id = cl.label_id where cl.session_id = ${sql.ref('p.id')})`.as(
          'p_labels',
        ),
      ])
      .selectAll('p')
      .$castTo<Header & Partial<SessionRow>>();
  },
);

export interface PageInOne extends ListVersion {
  /** Null when the version was `cached` (the chats were not read). */
  page: { rows: SessionRow[]; total: number; labels: Map<number, Label[]> } | null;
}

const HEADER: readonly (keyof Header)[] = [
  'h_version',
  'h_unpinned',
  'h_pinned',
  'h_chats',
  'h_hours_recent',
  'h_edge_recent',
];

/** The chat's own columns of a row (as sessionsRepository.page answers it). */
function chatOf(row: Header & Partial<SessionRow>): SessionRow {
  const chat: Record<string, unknown> = { ...row };
  for (const key of HEADER) delete chat[key];
  delete chat.p_labels;
  return chat as unknown as SessionRow;
}

function sideOf(bound: unknown, read: boolean): Side {
  if (!read) return 'none';
  return bound ? 'bound' : 'open';
}

export const pageInOneRepository = {
  /**
   * A page of the filter after `after` (up to `limit` chats) with the group's total, the seat's
   * list version and the list's edge, in one statement; null when the group is not the seat's.
   * `cached`: the version of the answer held (-1: none); at that version no chat is read.
   */
  async read(
    db: Db,
    f: Omit<SessionFilter, 'keyword'>,
    after: SessionKey | null,
    limit: number,
    cached: number,
  ): Promise<PageInOne | null> {
    const boundary = Math.floor(f.recentSince / COUNT_HOUR_MS);
    // As sessionsRepository.page: the pinned side only before the cursor leaves it.
    const pinnedBound = after?.isTop === 1 ? sideBound(f, after) : null;
    const unpinnedBound = sideBound(f, after?.isTop === 0 ? after : null);
    const shape: Shape = {
      tab: f.userTimeType,
      waitingOnly: f.waitingOnly,
      pinned: sideOf(pinnedBound, !after || after.isTop === 1),
      unpinned: unpinnedBound ? 'bound' : 'open',
    };
    const rows = await pageInOneQuery.run(
      db,
      shape,
      f.seatId,
      f.groupId,
      f.recentSince,
      boundary,
      (boundary + 1) * COUNT_HOUR_MS,
      pinnedBound?.latestTime ?? 0,
      pinnedBound?.id ?? 0,
      unpinnedBound?.latestTime ?? 0,
      unpinnedBound?.id ?? 0,
      limit,
      cached,
    );
    const head = rows[0];
    if (!head) return null;
    const version = Number(head.h_version ?? 0);
    const edge = least(head.h_unpinned, head.h_pinned);
    if (version === cached) return { version, edge, page: null };
    const total = tabTotal(f.userTimeType, head.h_chats, head.h_hours_recent, head.h_edge_recent);
    const read = rows.filter((r) => r.id !== null && r.id !== undefined);
    const labels = new Map(read.map((r) => [r.id!, r.p_labels ?? []]));
    return { version, edge, page: { rows: read.map((r) => chatOf(r)), total, labels } };
  },
};

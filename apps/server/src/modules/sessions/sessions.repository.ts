import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import type { Database, GroupWithCounts, NewSession, SessionRow } from '../../db/schema.js';
import { withCounts } from '../groups/groups.repository.js';
import { RECEIVE_RULES } from '../messages/receive-rules.js';
import { compiledQuery } from '../../db/compiled-query.js';
import { COUNT_HOUR_MS } from '../../db/migrations/017-session-counts.js';

export interface SessionFilter {
  seatId: number;
  groupId: number;
  /** 1: latest_time >= recentSince; 2: earlier. */
  userTimeType: 1 | 2;
  recentSince: number;
  waitingOnly: boolean;
  keyword?: string;
  /** Only the chats whose customer has this label (issue 35). */
  labelId?: number;
}

/** Position of a row in the list order (is_top desc, latest_time desc, id desc). */
export interface SessionKey {
  isTop: number;
  latestTime: number;
  id: number;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function applyFilter(
  eb: ExpressionBuilder<Database, 'sessions'>,
  f: SessionFilter,
  tabBound = true,
) {
  const conditions = [eb('seat_id', '=', f.seatId), eb('group_id', '=', f.groupId)];
  if (f.userTimeType === 1) conditions.push(eb('latest_time', '>=', f.recentSince));
  else if (tabBound) conditions.push(eb('latest_time', '<', f.recentSince));
  if (f.waitingOnly) conditions.push(eb('last_direction', '=', 'in'));
  if (f.keyword) {
    const pattern = `%${escapeLike(f.keyword.toLowerCase())}%`;
    conditions.push(
      eb.or([
        sql<boolean>`lower(${sql.ref('receiver_phone')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('remark')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('customer_name')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (f.labelId !== undefined) {
    // A probe of chat_labels' key per chat the list index yields: the page stays a seek.
    conditions.push(
      eb.exists(
        eb
          .selectFrom('chat_labels')
          .select(sql<number>`1`.as('one'))
          .whereRef('chat_labels.session_id', '=', 'sessions.id')
          .where('chat_labels.label_id', '=', f.labelId),
      ),
    );
  }
  return eb.and(conditions);
}

/**
 * Chats of the seat matching `where`, for a statement that changes many of them at once. On
 * PostgreSQL their rows are locked in id order first: two such statements (a one-click read and
 * a group's deletion) otherwise lock the same rows in different orders and deadlock.
 */
function manyOf(
  db: Db,
  seatId: number,
  where: (
    q: SelectQueryBuilder<Database, 'sessions', object>,
  ) => SelectQueryBuilder<Database, 'sessions', object>,
) {
  const q = where(db.selectFrom('sessions').where('seat_id', '=', seatId)).select('id');
  return dialectOf(db) === 'pg' ? q.orderBy('id').forUpdate() : q;
}

/**
 * The bound one side of the list is read from: the earlier tab's upper bound and the cursor
 * are one row value (the lower of the two), so the index seeks to it: two upper bounds would
 * leave the engine to pick one.
 */
export function sideBound(f: SessionFilter, after: SessionKey | null) {
  return after && f.userTimeType === 2 && after.latestTime >= f.recentSince
    ? { latestTime: f.recentSince, id: 0 }
    : after;
}

/** One side of the list (pinned or not), from the cursor on, in list order. */
function pageOfPin(
  db: Db,
  f: SessionFilter,
  isTop: 0 | 1,
  after: SessionKey | null,
  limit: number,
): Promise<SessionRow[]> {
  const bound = sideBound(f, after);
  // A keyword's pattern is not a plain value, nor a label's filter: such pages are built each time.
  if (f.keyword || f.labelId !== undefined) return pageQuery(db, f, isTop, bound, limit).execute();
  return pageOfPinQuery.run(
    db,
    { isTop, tab: f.userTimeType, bound: bound !== null, waitingOnly: f.waitingOnly },
    f.seatId,
    f.groupId,
    f.recentSince,
    bound?.latestTime ?? 0,
    bound?.id ?? 0,
    limit,
  );
}

/** One side of a page (pinned or not) from `bound` on: the builder (pageOfPin, page-in-one). */
export function pageQuery(
  db: Db,
  f: SessionFilter,
  isTop: 0 | 1,
  bound: SessionKey | { latestTime: number; id: number } | null,
  limit: number,
) {
  let q = db
    .selectFrom('sessions')
    .selectAll()
    .where((eb) => applyFilter(eb, f, !bound))
    .where('is_top', '=', isTop);
  if (bound) {
    // A row-value comparison, so the index seeks straight to the cursor (an OR chain made
    // each page walk past every chat already shown).
    q = q.where((eb) =>
      eb(eb.refTuple('latest_time', 'id'), '<', eb.tuple(bound.latestTime, bound.id)),
    );
  }
  return q.orderBy('latest_time', 'desc').orderBy('id', 'desc').limit(limit);
}

/** pageQuery compiled once per shape. */
const pageOfPinQuery = compiledQuery(
  (
    db,
    shape: { isTop: 0 | 1; tab: 1 | 2; bound: boolean; waitingOnly: boolean },
    seatId: number,
    groupId: number,
    recentSince: number,
    latestTime: number,
    id: number,
    limit: number,
  ) =>
    pageQuery(
      db,
      { seatId, groupId, recentSince, userTimeType: shape.tab, waitingOnly: shape.waitingOnly },
      shape.isTop,
      shape.bound ? { latestTime, id } : null,
      limit,
    ),
);

/**
 * The seat's group with its kept counts and the two parts of its recent total (groupWithTotal):
 * the kept hours after the boundary hour and the chats of the boundary hour itself.
 */
export function groupWithTotalSelect(
  db: Db,
  waitingOnly: boolean,
  seatId: number,
  groupId: number,
  boundary: number,
  since: number,
  edgeEnd: number,
) {
  return withCounts(db)
    .select((eb) => [
      eb
        .selectFrom('session_hours')
        .select((e) =>
          e.fn
            .coalesce(e.fn.sum<number>(waitingOnly ? 'waiting_chats' : 'chats'), sql<number>`0`)
            .as('n'),
        )
        .where('seat_id', '=', seatId)
        .where('hour', '>', boundary)
        .where('group_id', '=', groupId)
        .as('hours_recent'),
      eb
        .selectFrom('sessions')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('seat_id', '=', seatId)
        .where('group_id', '=', groupId)
        // Both values of is_top: two seeks into sessions_list_idx on latest_time.
        .where('is_top', 'in', [0, 1])
        .where('latest_time', '>=', since)
        .where('latest_time', '<', edgeEnd)
        .$if(waitingOnly, (q) => q.where('last_direction', '=', 'in'))
        .as('edge_recent'),
    ])
    .where('seat_groups.seat_id', '=', seatId)
    .where('seat_groups.id', '=', groupId);
}

const groupWithTotalQuery = compiledQuery(groupWithTotalSelect);

/** A time tab's total: the recent part, or the rest of the group's kept count. */
export function tabTotal(
  userTimeType: 1 | 2,
  groupChats: number | string,
  hoursRecent: number | string | null,
  edgeRecent: number | string | null,
): number {
  const recent = Number(hoursRecent) + Number(edgeRecent);
  return userTimeType === 1 ? recent : Number(groupChats) - recent;
}

/** A chat with its group's type. */
function withGroupType(db: Db) {
  return db
    .selectFrom('sessions')
    .innerJoin('seat_groups', 'seat_groups.id', 'sessions.group_id')
    .selectAll('sessions')
    .select('seat_groups.type as group_type');
}

const findByPhonesQuery = compiledQuery(
  (db, _shape: '', seatId: number, sendPhone: string, receiverPhone: string) =>
    withGroupType(db)
      .where('sessions.seat_id', '=', seatId)
      .where('sessions.send_phone', '=', sendPhone)
      .where('sessions.receiver_phone', '=', receiverPhone),
);

const findForSeatQuery = compiledQuery((db, _shape: '', seatId: number, sessionId: number) =>
  withGroupType(db).where('sessions.seat_id', '=', seatId).where('sessions.id', '=', sessionId),
);

/** An operator's message: latest activity and preview (with `moved`, a new group too). */
const recordOutgoingQuery = compiledQuery(
  (
    db,
    moved: boolean,
    sessionId: number,
    time: number,
    preview: string,
    type: SessionRow['last_type'],
    groupId: number,
  ) =>
    db
      .updateTable('sessions')
      .set({
        latest_time: time,
        last_direction: 'out',
        last_preview: preview,
        last_type: type,
        ...(moved ? { group_id: groupId } : {}),
      })
      .where('id', '=', sessionId)
      .returningAll(),
);

export const sessionsRepository = {
  /**
   * A page in list order. The pinned chats and the others are each a seek into
   * sessions_list_idx (a range on latest_time per is_top), read one after the other: in one
   * ORDER BY over both, the "earlier" tab's page walked past every recent chat of the group.
   */
  async page(
    db: Db,
    f: SessionFilter,
    after: SessionKey | null,
    limit: number,
  ): Promise<SessionRow[]> {
    const rows: SessionRow[] = [];
    if (!after || after.isTop === 1) {
      rows.push(...(await pageOfPin(db, f, 1, after, limit)));
    }
    if (rows.length < limit) {
      rows.push(
        ...(await pageOfPin(db, f, 0, after?.isTop === 0 ? after : null, limit - rows.length)),
      );
    }
    return rows;
  },

  /** Exact count of a filter (a keyword or a label; the other totals are kept: totalOf). */
  count(db: Db, f: SessionFilter): Promise<number> {
    return db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => applyFilter(eb, f))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  /**
   * The seat's group (null when it is not one) with the number of its chats in a time tab,
   * from the kept counts (migration 016): the tab of the last 24 hours is the hours after the
   * boundary hour plus the chats of the boundary hour itself; the earlier tab is the rest of
   * the group. One statement, so the group's total and its recent part are of one moment.
   */
  async groupWithTotal(
    db: Db,
    f: Omit<SessionFilter, 'keyword'>,
  ): Promise<{ group: GroupWithCounts; total: number } | null> {
    const boundary = Math.floor(f.recentSince / COUNT_HOUR_MS);
    const chats = f.waitingOnly ? 'waiting_chats' : 'chats';
    const [row] = await groupWithTotalQuery.run(
      db,
      f.waitingOnly,
      f.seatId,
      f.groupId,
      boundary,
      f.recentSince,
      (boundary + 1) * COUNT_HOUR_MS,
    );
    if (!row) return null;
    const { hours_recent, edge_recent, ...group } = row;
    return { group, total: tabTotal(f.userTimeType, group[chats], hours_recent, edge_recent) };
  },

  findByPhones(db: Db, seatId: number, sendPhone: string, receiverPhone: string) {
    return findByPhonesQuery.run(db, '', seatId, sendPhone, receiverPhone).then(([row]) => row);
  },

  /** Scoped by seat: another seat's chat is as absent as a missing one. */
  findForSeat(db: Db, seatId: number, sessionId: number) {
    return findForSeatQuery.run(db, '', seatId, sessionId).then(([row]) => row);
  },

  /** Any seat's chat between these two numbers (the pair is unique across all seats). */
  findAnyByPhones(db: Db, sendPhone: string, receiverPhone: string) {
    return db
      .selectFrom('sessions')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .where('receiver_phone', '=', receiverPhone)
      .executeTakeFirst();
  },

  insert(db: Db, row: NewSession): Promise<SessionRow> {
    return db.insertInto('sessions').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** Updates one chat of a seat and returns it as it now is (undefined: it is gone). */
  update(
    db: Db,
    seatId: number,
    sessionId: number,
    changes: Partial<
      Pick<SessionRow, 'is_top' | 'remark' | 'group_id' | 'prev_group_id' | 'blocked'>
    >,
  ): Promise<SessionRow | undefined> {
    return db
      .updateTable('sessions')
      .set(changes)
      .where('seat_id', '=', seatId)
      .where('id', '=', sessionId)
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * A read chat of the seat marked unread (count 1); the kept counts follow by the triggers.
   * Undefined when it is not the seat's or is unread already.
   */
  markUnread(db: Db, seatId: number, sessionId: number): Promise<SessionRow | undefined> {
    return db
      .updateTable('sessions')
      .set({ un_read_count: 1 })
      .where('seat_id', '=', seatId)
      .where('id', '=', sessionId)
      .where('un_read_count', '=', 0)
      .returningAll()
      .executeTakeFirst();
  },

  /** Hard delete of one chat of a seat and its messages. */
  async delete(db: Db, seatId: number, sessionId: number): Promise<number> {
    await db
      .deleteFrom('messages')
      .where('session_id', 'in', (eb) =>
        eb
          .selectFrom('sessions')
          .select('id')
          .where('seat_id', '=', seatId)
          .where('id', '=', sessionId),
      )
      .execute();
    const result = await db
      .deleteFrom('sessions')
      .where('seat_id', '=', seatId)
      .where('id', '=', sessionId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** The last-message preview, recomputed (null when the chat shows no message). */
  async setLastMessage(
    db: Db,
    sessionId: number,
    last: Pick<SessionRow, 'last_direction' | 'last_preview' | 'last_type'>,
  ) {
    await db.updateTable('sessions').set(last).where('id', '=', sessionId).execute();
  },

  async clearUnread(db: Db, sessionId: number) {
    await db
      .updateTable('sessions')
      .set({ un_read_count: 0 })
      .where('id', '=', sessionId)
      .where('un_read_count', '>', 0)
      .execute();
  },

  /** Clears the unread chats of a seat (of one group); answers the messages and chats read. */
  async clearUnreadForSeat(
    db: Db,
    seatId: number,
    groupId?: number,
  ): Promise<{ messages: number; sessionIds: number[] }> {
    let sum = db
      .selectFrom('sessions')
      .select((eb) => eb.fn.sum<number>('un_read_count').as('n'))
      .where('seat_id', '=', seatId);
    if (groupId !== undefined) sum = sum.where('group_id', '=', groupId);
    const update = db
      .updateTable('sessions')
      .set({ un_read_count: 0 })
      .where('seat_id', '=', seatId)
      .where('un_read_count', '>', 0)
      .where(
        'id',
        'in',
        manyOf(db, seatId, (q) => {
          const unread = q.where('un_read_count', '>', 0);
          return groupId === undefined ? unread : unread.where('group_id', '=', groupId);
        }),
      );
    const { n } = await sum.executeTakeFirstOrThrow();
    const read = await update.returning('id').execute();
    return { messages: Number(n ?? 0), sessionIds: read.map((r) => r.id) };
  },

  /** Every chat of an account goes to `seatId`'s Ungrouped group, unpinned and unblocked. */
  /** Every chat of the account to this seat's group; answers them as moved, in id order. */
  async handOverAccount(
    db: Db,
    sendPhone: string,
    seatId: number,
    groupId: number,
  ): Promise<SessionRow[]> {
    const rows = await db
      .updateTable('sessions')
      .set({ seat_id: seatId, group_id: groupId, prev_group_id: null, is_top: 0, blocked: 0 })
      .where('send_phone', '=', sendPhone)
      .returningAll()
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  },

  /** The seats holding the account's chats, with those chats' ids. */
  async seatsOfAccount(db: Db, sendPhone: string): Promise<Map<number, number[]>> {
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'seat_id'])
      .where('send_phone', '=', sendPhone)
      .orderBy('id')
      .execute();
    const bySeat = new Map<number, number[]>();
    for (const r of rows) {
      let ids = bySeat.get(r.seat_id);
      if (!ids) bySeat.set(r.seat_id, (ids = []));
      ids.push(r.id);
    }
    return bySeat;
  },

  async moveGroup(db: Db, seatId: number, fromGroup: number, toGroup: number): Promise<number> {
    const result = await db
      .updateTable('sessions')
      .set({ group_id: toGroup })
      .where('seat_id', '=', seatId)
      .where('group_id', '=', fromGroup)
      .where(
        'id',
        'in',
        manyOf(db, seatId, (q) => q.where('group_id', '=', fromGroup)),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** An operator's message: latest activity and preview (and a new group); the chat as it is. */
  /**
   * recordOutgoing of several chats in one statement (PostgreSQL; a group commit of sends),
   * in id order; answers the chats as the change left them.
   */
  async recordOutgoingMany(
    db: Db,
    items: { sessionId: number; time: number; preview: string; type: SessionRow['last_type'] }[],
  ): Promise<SessionRow[]> {
    const sorted = [...items].sort((x, y) => x.sessionId - y.sessionId);
    const values = sql.join(
      sorted.map(
        (i) =>
          sql`(${i.sessionId}::integer, ${i.time}::bigint, ${i.preview}::text, ${i.type}::text)`,
      ),
    );
    const { rows } = await sql<SessionRow>`update sessions as s
      set latest_time = v.time, last_direction = 'out', last_preview = v.preview,
        last_type = v.type
      from (values ${values}) as v (id, time, preview, type)
      where s.id = v.id
      returning s.*`.execute(db);
    return rows;
  },

  recordOutgoing(
    db: Db,
    sessionId: number,
    last: {
      time: number;
      preview: string;
      type: SessionRow['last_type'];
      groupId?: number | undefined;
    },
  ): Promise<SessionRow | undefined> {
    const moved = last.groupId !== undefined;
    return recordOutgoingQuery
      .run(db, moved, sessionId, last.time, last.preview, last.type, last.groupId ?? 0)
      .then(([row]) => row);
  },

  /** Every chat of an account takes this reply window (the account changed channel). */
  async setReplyWindow(db: Db, sendPhone: string, replyUntil: number | null): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ reply_until: replyUntil })
      .where('send_phone', '=', sendPhone)
      .execute();
  },

  /** A customer's message arrived: latest activity, preview, one more unread. Answers the chat. */
  recordIncoming(
    db: Db,
    sessionId: number,
    last: {
      time: number;
      preview: string;
      type: SessionRow['last_type'];
      /** The name the channel gives the customer now (absent: the chat keeps its own). */
      customerName?: string;
      /** The chat's reply window after this message (REPLY_WINDOW.after). */
      replyUntil: number | null;
    },
  ): Promise<SessionRow | undefined> {
    return db
      .updateTable('sessions')
      .set(() => ({
        latest_time: last.time,
        last_direction: 'in',
        last_preview: last.preview,
        last_type: last.type,
        // One more unread: the receive rule (receive-rules.ts), as the batch statement has it.
        un_read_count: sql<number>`${sql.raw(RECEIVE_RULES.unread.sql('un_read_count', '1'))}`,
        ...(last.customerName ? { customer_name: last.customerName } : {}),
        reply_until: last.replyUntil,
      }))
      .where('id', '=', sessionId)
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * What a channel learned of a customer outside a message (a profile photo fetched after it,
   * a profile recorded by hand): set on their chat with the account. Answers the changed chat.
   */
  setCustomer(
    db: Db,
    chat: { seatId: number; sendPhone: string; receiverPhone: string },
    fields: Partial<Pick<SessionRow, 'customer_name' | 'customer_avatar'>>,
  ): Promise<SessionRow | undefined> {
    return db
      .updateTable('sessions')
      .set(fields)
      .where('seat_id', '=', chat.seatId)
      .where('send_phone', '=', chat.sendPhone)
      .where('receiver_phone', '=', chat.receiverPhone)
      .returningAll()
      .executeTakeFirst();
  },

  /** Batched insert (demo, fixtures); returns each chat's id keyed by `send|receiver`. */
  async insertMany(db: Db, rows: NewSession[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (let i = 0; i < rows.length; i += 200) {
      const inserted = await db
        .insertInto('sessions')
        .values(rows.slice(i, i + 200))
        .returning(['id', 'send_phone', 'receiver_phone'])
        .execute();
      for (const r of inserted) ids.set(`${r.send_phone}|${r.receiver_phone}`, r.id);
    }
    return ids;
  },
};

import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database, NewSession, SessionRow } from '../../db/schema.js';

export interface SessionFilter {
  seatId: number;
  groupId: number;
  /** 1: latest_time >= recentSince; 2: earlier. */
  userTimeType: 1 | 2;
  recentSince: number;
  waitingOnly: boolean;
  keyword?: string;
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

function applyFilter(eb: ExpressionBuilder<Database, 'sessions'>, f: SessionFilter) {
  const conditions = [
    eb('seat_id', '=', f.seatId),
    eb('group_id', '=', f.groupId),
    f.userTimeType === 1
      ? eb('latest_time', '>=', f.recentSince)
      : eb('latest_time', '<', f.recentSince),
  ];
  if (f.waitingOnly) conditions.push(eb('last_direction', '=', 'in'));
  if (f.keyword) {
    const pattern = `%${escapeLike(f.keyword.toLowerCase())}%`;
    conditions.push(
      eb.or([
        sql<boolean>`lower(${sql.ref('receiver_phone')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('remark')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return eb.and(conditions);
}

export const sessionsRepository = {
  page(db: Db, f: SessionFilter, after: SessionKey | null, limit: number): Promise<SessionRow[]> {
    let q = db
      .selectFrom('sessions')
      .selectAll()
      .where((eb) => applyFilter(eb, f));
    if (after) {
      // A row-value comparison, so the index seeks straight to the cursor (an OR chain made
      // each page walk past every chat already shown).
      q = q.where((eb) =>
        eb(
          eb.refTuple('is_top', 'latest_time', 'id'),
          '<',
          eb.tuple(after.isTop, after.latestTime, after.id),
        ),
      );
    }
    return q
      .orderBy('is_top', 'desc')
      .orderBy('latest_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  count(db: Db, f: SessionFilter): Promise<number> {
    return db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => applyFilter(eb, f))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  findByPhones(db: Db, seatId: number, sendPhone: string, receiverPhone: string) {
    return db
      .selectFrom('sessions')
      .innerJoin('seat_groups', 'seat_groups.id', 'sessions.group_id')
      .selectAll('sessions')
      .select('seat_groups.type as group_type')
      .where('sessions.seat_id', '=', seatId)
      .where('sessions.send_phone', '=', sendPhone)
      .where('sessions.receiver_phone', '=', receiverPhone)
      .executeTakeFirst();
  },

  /** Scoped by seat: another seat's chat is as absent as a missing one. */
  findForSeat(db: Db, seatId: number, sessionId: number) {
    return db
      .selectFrom('sessions')
      .innerJoin('seat_groups', 'seat_groups.id', 'sessions.group_id')
      .selectAll('sessions')
      .select('seat_groups.type as group_type')
      .where('sessions.seat_id', '=', seatId)
      .where('sessions.id', '=', sessionId)
      .executeTakeFirst();
  },

  /** Any seat's chat between these two numbers (the pair is unique across the platform). */
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

  /** Updates one chat of a seat and returns it as it now is. */
  update(
    db: Db,
    seatId: number,
    sessionId: number,
    changes: Partial<
      Pick<SessionRow, 'is_top' | 'remark' | 'group_id' | 'prev_group_id' | 'blocked'>
    >,
  ): Promise<SessionRow> {
    return db
      .updateTable('sessions')
      .set(changes)
      .where('seat_id', '=', seatId)
      .where('id', '=', sessionId)
      .returningAll()
      .executeTakeFirstOrThrow();
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
    let update = db
      .updateTable('sessions')
      .set({ un_read_count: 0 })
      .where('seat_id', '=', seatId)
      .where('un_read_count', '>', 0);
    if (groupId !== undefined) {
      sum = sum.where('group_id', '=', groupId);
      update = update.where('group_id', '=', groupId);
    }
    const { n } = await sum.executeTakeFirstOrThrow();
    const read = await update.returning('id').execute();
    return { messages: Number(n ?? 0), sessionIds: read.map((r) => r.id) };
  },

  /** Every chat of an account goes to `seatId`'s Ungrouped group, unpinned and unblocked. */
  async handOverAccount(db: Db, sendPhone: string, seatId: number, groupId: number) {
    const res = await db
      .updateTable('sessions')
      .set({ seat_id: seatId, group_id: groupId, prev_group_id: null, is_top: 0, blocked: 0 })
      .where('send_phone', '=', sendPhone)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  },

  async moveGroup(db: Db, seatId: number, fromGroup: number, toGroup: number): Promise<number> {
    const result = await db
      .updateTable('sessions')
      .set({ group_id: toGroup })
      .where('seat_id', '=', seatId)
      .where('group_id', '=', fromGroup)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  async recordOutgoing(
    db: Db,
    sessionId: number,
    last: { time: number; preview: string; type: SessionRow['last_type'] },
  ) {
    await db
      .updateTable('sessions')
      .set({
        latest_time: last.time,
        last_direction: 'out',
        last_preview: last.preview,
        last_type: last.type,
      })
      .where('id', '=', sessionId)
      .execute();
  },

  /** A customer's message arrived: latest activity, preview, one more unread. */
  async recordIncoming(
    db: Db,
    sessionId: number,
    last: { time: number; preview: string; type: SessionRow['last_type'] },
  ) {
    await db
      .updateTable('sessions')
      .set((eb) => ({
        latest_time: last.time,
        last_direction: 'in',
        last_preview: last.preview,
        last_type: last.type,
        un_read_count: eb('un_read_count', '+', 1),
      }))
      .where('id', '=', sessionId)
      .execute();
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

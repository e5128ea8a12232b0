import type { Db } from '../../db/database.js';
import type { MessageRow, PushSubscriptionsTable } from '../../db/schema.js';

export type PushSubscriptionRow = PushSubscriptionsTable;

/** A chat handed to a seat, as its notification shows it. */
export interface HandedChat {
  id: number;
  remark: string;
  customer_name: string | null;
  receiver_phone: string;
  blocked: number;
  customer_language: string | null;
  last_in: { id: number; type: MessageRow['type']; content: string } | null;
}

/** `push_subscriptions`: the devices each seat is notified on. */
export const pushRepository = {
  /**
   * Stores the subscription, or refreshes it when this seat holds it already (new keys, a new
   * login, another translation language). Null when another seat holds the endpoint: nothing
   * changed.
   */
  async upsert(db: Db, row: PushSubscriptionRow) {
    return db
      .insertInto('push_subscriptions')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('endpoint_hash')
          .doUpdateSet({
            token_hash: row.token_hash,
            p256dh: row.p256dh,
            auth: row.auth,
            translate_to: row.translate_to,
          })
          .where('push_subscriptions.seat_id', '=', row.seat_id),
      )
      .returning('endpoint_hash')
      .executeTakeFirst();
  },

  async countForSeat(db: Db, seatId: number): Promise<number> {
    const row = await db
      .selectFrom('push_subscriptions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('seat_id', '=', seatId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async heldBy(db: Db, endpointHash: string) {
    return db
      .selectFrom('push_subscriptions')
      .select('seat_id')
      .where('endpoint_hash', '=', endpointHash)
      .executeTakeFirst();
  },

  async deleteOne(db: Db, seatId: number, endpointHash: string): Promise<number> {
    const r = await db
      .deleteFrom('push_subscriptions')
      .where('endpoint_hash', '=', endpointHash)
      .where('seat_id', '=', seatId)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  },

  /** The push service said the subscription is gone (404/410). */
  async deleteGone(db: Db, endpointHash: string): Promise<void> {
    await db.deleteFrom('push_subscriptions').where('endpoint_hash', '=', endpointHash).execute();
  },

  async deleteForToken(db: Db, tokenHash: string): Promise<void> {
    await db.deleteFrom('push_subscriptions').where('token_hash', '=', tokenHash).execute();
  },

  async deleteForSeat(db: Db, seatId: number): Promise<void> {
    await db.deleteFrom('push_subscriptions').where('seat_id', '=', seatId).execute();
  },

  /**
   * The seat's subscriptions that may be sent to: made under a login that is still valid (not
   * logged out, not expired) of a seat that is not frozen. `endpointHash`: that one only.
   */
  async deliverable(db: Db, seatId: number, now: number, endpointHash?: string) {
    let q = db
      .selectFrom('push_subscriptions as p')
      .innerJoin('tokens as t', 't.token_hash', 'p.token_hash')
      .innerJoin('seats as s', 's.id', 'p.seat_id')
      .select(['p.endpoint_hash', 'p.endpoint', 'p.p256dh', 'p.auth', 'p.translate_to'])
      .where('p.seat_id', '=', seatId)
      .where('t.seat_id', '=', seatId)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .where('s.frozen', '=', 0);
    if (endpointHash !== undefined) q = q.where('p.endpoint_hash', '=', endpointHash);
    return q.execute();
  },

  /**
   * The chats handed to this seat, as their notifications show them, in one read: a chat the
   * seat no longer holds is absent. `last_in`: its customer's latest message (the newest `in`
   * row of each chat, by messages_session_idx).
   */
  async handedChats(db: Db, seatId: number, sessionIds: number[]) {
    const found = new Map<number, HandedChat>();
    if (sessionIds.length === 0) return found;
    const rows = await db
      .selectFrom('sessions as s')
      .leftJoin('messages as m', (join) =>
        join.on((eb) =>
          eb(
            'm.id',
            '=',
            eb
              .selectFrom('messages as l')
              .select('l.id')
              .whereRef('l.session_id', '=', 's.id')
              .where('l.direction', '=', 'in')
              .where('l.deleted_for_all', '=', 0)
              .orderBy('l.id', 'desc')
              .limit(1),
          ),
        ),
      )
      .select([
        's.id',
        's.remark',
        's.customer_name',
        's.receiver_phone',
        's.blocked',
        's.customer_language',
        'm.id as last_id',
        'm.type as last_type',
        'm.content as last_content',
      ])
      .where('s.id', 'in', sessionIds)
      .where('s.seat_id', '=', seatId)
      .execute();
    for (const { last_id, last_type, last_content, ...chat } of rows) {
      found.set(chat.id, {
        ...chat,
        last_in:
          last_id === null || last_type === null
            ? null
            : { id: last_id, type: last_type, content: last_content ?? '' },
      });
    }
    return found;
  },
};

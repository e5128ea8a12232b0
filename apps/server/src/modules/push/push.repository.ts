import type { Db } from '../../db/database.js';
import type { PushSubscriptionsTable } from '../../db/schema.js';

export type PushSubscriptionRow = PushSubscriptionsTable;

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
   * A chat handed to this seat, as a notification shows it: null when the seat no longer holds
   * it. `last_in`: its customer's latest message (the newest `in` row by messages_session_idx).
   */
  async handedChat(db: Db, seatId: number, sessionId: number) {
    const chat = await db
      .selectFrom('sessions')
      .select(['id', 'remark', 'customer_name', 'receiver_phone', 'blocked', 'customer_language'])
      .where('id', '=', sessionId)
      .where('seat_id', '=', seatId)
      .executeTakeFirst();
    if (!chat) return null;
    const lastIn = await db
      .selectFrom('messages')
      .select(['id', 'type', 'content'])
      .where('session_id', '=', sessionId)
      .where('direction', '=', 'in')
      .where('deleted_for_all', '=', 0)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return { ...chat, last_in: lastIn ?? null };
  },
};

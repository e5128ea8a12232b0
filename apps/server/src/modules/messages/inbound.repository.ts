import type { Db } from '../../db/database.js';
import type { ChannelName } from '@parley/protocol';

/** An external message: the channel, the account it came to, the channel's id of it. */
export interface InboundKey {
  channel: ChannelName;
  sendPhone: string;
  externalId: string;
}

const where = (key: InboundKey) => (db: Db) =>
  db
    .selectFrom('inbound_messages')
    .where('channel', '=', key.channel)
    .where('send_phone', '=', key.sendPhone)
    .where('external_id', '=', key.externalId);

/**
 * Every channel's "take an external message once": a channel hands the same message over
 * again (a retried webhook, a replayed update), and it must be stored once. Taken inside the
 * transaction that stores the message; a concurrent taker waits for it, then finds it taken.
 */
export const inboundRepository = {
  /**
   * False when the message was already taken. `msgId`: the message stored for it, when it is
   * taken after storing it (null: nothing stored, or not yet: setMessage).
   */
  async take(db: Db, key: InboundKey, msgId: number | null = null): Promise<boolean> {
    const inserted = await db
      .insertInto('inbound_messages')
      .values({
        channel: key.channel,
        send_phone: key.sendPhone,
        external_id: key.externalId,
        msg_id: msgId,
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.columns(['channel', 'send_phone', 'external_id']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  },

  /** The stored message of a taken one (`msg_id` null: taken, nothing stored). */
  find(db: Db, key: InboundKey) {
    return where(key)(db).select('msg_id').executeTakeFirst();
  },

  async setMessage(db: Db, key: InboundKey, msgId: number) {
    await db
      .updateTable('inbound_messages')
      .set({ msg_id: msgId })
      .where('channel', '=', key.channel)
      .where('send_phone', '=', key.sendPhone)
      .where('external_id', '=', key.externalId)
      .execute();
  },
};

import type { Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';
import type { PhoneAccountRow } from '../../db/schema.js';
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

/** The account messages came to, with those of their keys already taken (one row each). */
const accountAndTakenManyQuery = compiledQuery(
  (db, _count: number, channel: ChannelName, sendPhone: string, ...externalIds: string[]) =>
    db
      .selectFrom('phone_accounts')
      .leftJoin('inbound_messages', (join) =>
        join
          .onRef('inbound_messages.send_phone', '=', 'phone_accounts.send_phone')
          .on('inbound_messages.channel', '=', channel)
          .on('inbound_messages.external_id', 'in', externalIds),
      )
      .leftJoin('team_accounts', 'team_accounts.queue_seat_id', 'phone_accounts.seat_id')
      .selectAll('phone_accounts')
      .select([
        'inbound_messages.external_id as taken_external_id',
        'inbound_messages.msg_id as taken_msg_id',
        'team_accounts.account_id as team_account_id',
      ])
      .where('phone_accounts.send_phone', '=', sendPhone),
);

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

  /**
   * The account a message came to (undefined: none), and the stored message when the message
   * was taken already (`taken` undefined: not yet; `msg_id` null: taken, nothing stored), and
   * whether the account is a team's. One statement: a webhook's reads before its batch.
   */
  async accountAndTaken(
    db: Db,
    key: InboundKey,
  ): Promise<
    | {
        account: PhoneAccountRow;
        taken: { msg_id: number | null } | undefined;
        /** The account's seat is a team's queue seat (InboundMessage.queueSeat). */
        queueSeat: boolean;
      }
    | undefined
  > {
    const found = await inboundRepository.accountAndTakenMany(db, key.channel, key.sendPhone, [
      key.externalId,
    ]);
    return (
      found && {
        account: found.account,
        taken: found.taken.get(key.externalId),
        queueSeat: found.queueSeat,
      }
    );
  },

  /**
   * accountAndTaken for the messages of one delivery or poll (one account): one statement for
   * all, answering the keys taken already by their external id (with its team's queue seat, for
   * the team door, TeamInboundWriter: known with the account, it costs the door no read).
   */
  async accountAndTakenMany(
    db: Db,
    channel: ChannelName,
    sendPhone: string,
    externalIds: readonly string[],
  ): Promise<
    | {
        account: PhoneAccountRow;
        taken: Map<string, { msg_id: number | null }>;
        /** The account's seat is a team's queue seat (InboundMessage.queueSeat). */
        queueSeat: boolean;
      }
    | undefined
  > {
    if (externalIds.length === 0) throw new Error('accountAndTakenMany: no ids');
    const rows = await accountAndTakenManyQuery.run(
      db,
      externalIds.length,
      channel,
      sendPhone,
      ...externalIds,
    );
    if (rows.length === 0) return undefined;
    const taken = new Map<string, { msg_id: number | null }>();
    for (const row of rows) {
      if (row.taken_external_id !== null) {
        taken.set(row.taken_external_id, { msg_id: row.taken_msg_id });
      }
    }
    const { taken_external_id: _id, taken_msg_id: _msg, team_account_id, ...account } = rows[0]!;
    return { account: account as PhoneAccountRow, taken, queueSeat: team_account_id !== null };
  },

  /** Which of these external ids of one account and channel are taken: one statement. */
  async takenOf(
    db: Db,
    channel: ChannelName,
    sendPhone: string,
    externalIds: readonly string[],
  ): Promise<Set<string>> {
    const rows = await db
      .selectFrom('inbound_messages')
      .select('external_id')
      .where('channel', '=', channel)
      .where('send_phone', '=', sendPhone)
      .where('external_id', 'in', externalIds)
      .execute();
    return new Set(rows.map((r) => r.external_id));
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

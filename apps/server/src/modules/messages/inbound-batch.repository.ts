import type { Db } from '../../db/database.js';
import { preparedStatement } from '../../db/prepared.js';
import type { GroupRow, MessageRow, NewSession, SessionRow } from '../../db/schema.js';
import { RECEIVE_RULES } from './receive-rules.js';

/** A customer's chat as the batch finds it, judged blocked or not by the receive rule. */
export type FoundChat = SessionRow & { is_blocked: boolean };

/** The chats of these (seat, account, customer) triples, each array one column. */
const findChatsStatement = preparedStatement<FoundChat>(`select s.*,
    ${RECEIVE_RULES.blocked.sql({ blocked: 's.blocked', group_type: 'g.type' })} as is_blocked
  from unnest($1::integer[], $2::text[], $3::text[]) as v (seat_id, send_phone, receiver_phone)
  join sessions s on s.seat_id = v.seat_id and s.send_phone = v.send_phone
    and s.receiver_phone = v.receiver_phone
  join seat_groups g on g.id = s.group_id`);

/**
 * Customers' text messages, inserted in the order given (`ord`): the message ids ascend in
 * that order, and the chat-turns trigger sees one chat's messages in it.
 */
const insertMessagesStatement = preparedStatement<MessageRow>(`insert into messages
    (session_id, seat_id, client_msg_id, reply_to_id, reply_quote, direction, type, content,
      media, media_id, status, created_at, deleted_for_me, deleted_for_all, external_id)
  select session_id, seat_id, null, null, null, 'in', 'text', content, null, null, 'delivered',
    at, 0, 0, external_id
  from unnest($1::integer[], $2::integer[], $3::text[], $4::bigint[], $5::text[])
    with ordinality as v (session_id, seat_id, content, at, external_id, ord)
  order by ord
  returning *`);

/**
 * Each chat's customer messages of a batch at once: its last one's time and preview, its
 * unread count raised by their number, its customer's name when one of them gave one, its
 * reply window after the last one.
 */
const recordIncomingStatement = preparedStatement<SessionRow>(`update sessions s set
    latest_time = v.at, last_direction = 'in', last_preview = v.preview, last_type = v.type,
    un_read_count = ${RECEIVE_RULES.unread.sql('s.un_read_count', 'v.n')},
    customer_name = coalesce(v.customer_name, s.customer_name), reply_until = v.reply_until
  from unnest($1::integer[], $2::integer[], $3::bigint[], $4::text[], $5::text[], $6::text[],
      $7::bigint[])
    as v (id, n, at, preview, type, customer_name, reply_until)
  where s.id = v.id
  returning s.*`);

/** The keys taken by this statement (a key already taken is left out: on conflict). */
const takeStatement = preparedStatement<{ n: number }>(`with taken as (
    insert into inbound_messages (channel, send_phone, external_id, msg_id, created_at)
      select channel, send_phone, external_id, msg_id, $5::bigint
      from unnest($1::text[], $2::text[], $3::text[], $4::integer[])
        as v (channel, send_phone, external_id, msg_id)
    on conflict (channel, send_phone, external_id) do nothing
    returning 1)
  select count(*)::integer as n from taken`);

/**
 * PostgreSQL: a batch of customers' text messages in a few statements whatever its size
 * (batch-inbound-writer.ts). Each statement takes its rows as arrays, one per column,
 * so its text is fixed and prepared once.
 */
export const inboundBatchRepository = {
  findChats(db: Db, chats: { seatId: number; sendPhone: string; receiverPhone: string }[]) {
    return findChatsStatement.run(db, [
      chats.map((c) => c.seatId),
      chats.map((c) => c.sendPhone),
      chats.map((c) => c.receiverPhone),
    ]);
  },

  /** The group of each of these seats a new customer's chat opens in (the receive rule's). */
  opensIn(db: Db, seatIds: number[]): Promise<GroupRow[]> {
    return db
      .selectFrom('seat_groups')
      .selectAll()
      .where('seat_id', 'in', seatIds)
      .where('type', '=', RECEIVE_RULES.opensIn)
      .execute();
  },

  /** New chats in one statement (a chat another transaction opened meanwhile fails it). */
  insertChats(db: Db, rows: NewSession[]): Promise<SessionRow[]> {
    return db.insertInto('sessions').values(rows).returningAll().execute();
  },

  /** The messages, answered in the order given. */
  async insertMessages(
    db: Db,
    rows: {
      sessionId: number;
      seatId: number;
      content: string;
      at: number;
      externalId: string | null;
    }[],
  ): Promise<MessageRow[]> {
    const stored = await insertMessagesStatement.run(db, [
      rows.map((r) => r.sessionId),
      rows.map((r) => r.seatId),
      rows.map((r) => r.content),
      rows.map((r) => r.at),
      rows.map((r) => r.externalId),
    ]);
    // Inserted in the order given, so their ids ascend in it.
    return stored.sort((a, b) => a.id - b.id);
  },

  recordIncoming(
    db: Db,
    chats: {
      id: number;
      n: number;
      at: number;
      preview: string;
      type: MessageRow['type'];
      customerName: string | null;
      replyUntil: number | null;
    }[],
  ): Promise<SessionRow[]> {
    return recordIncomingStatement.run(db, [
      chats.map((c) => c.id),
      chats.map((c) => c.n),
      chats.map((c) => c.at),
      chats.map((c) => c.preview),
      chats.map((c) => c.type),
      chats.map((c) => c.customerName),
      chats.map((c) => c.replyUntil),
    ]);
  },

  /** Takes these keys; answers how many were taken here (fewer: one was taken before). */
  async take(
    db: Db,
    keys: { channel: string; sendPhone: string; externalId: string; msgId: number | null }[],
  ): Promise<number> {
    const [row] = await takeStatement.run(db, [
      keys.map((k) => k.channel),
      keys.map((k) => k.sendPhone),
      keys.map((k) => k.externalId),
      keys.map((k) => k.msgId),
      Date.now(),
    ]);
    return Number(row?.n ?? 0);
  },
};

import type { Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';
import { preparedStatement } from '../../db/prepared.js';
import { NUMBERED_EVENTS_SQL } from '../events/events.repository.js';
import type { MessageRow, NewMessage, PhoneAccountRow, SessionRow } from '../../db/schema.js';
import { sql } from 'kysely';
import { sessionItemSql } from '../sessions/sessions.presenter.js';
import type { SqlSigning } from '../media/media-urls.js';
import { chatMessageAssignedSql } from './messages.presenter.js';
import { sendRulesSql, type SendContext, type SendContextSql } from './send-rules.js';

const findByClientIdQuery = compiledQuery((db, _shape: '', seatId: number, clientMsgId: string) =>
  db
    .selectFrom('messages')
    .selectAll()
    .where('seat_id', '=', seatId)
    .where('client_msg_id', '=', clientMsgId),
);

const insertQuery = compiledQuery((db, columns: (keyof NewMessage)[], ...values: unknown[]) =>
  db
    .insertInto('messages')
    .values(Object.fromEntries(columns.map((c, i) => [c, values[i]])) as NewMessage)
    .returningAll(),
);

/**
 * What a send checks, in one statement: the sending account's owner and channel, the chat of
 * the two numbers with its group's type, and whether the seat stored this client_msg_id.
 */
const sendContextQuery = compiledQuery(
  (db, _shape: '', seatId: number, sendPhone: string, receiverPhone: string, clientMsgId: string) =>
    db
      .selectFrom(db.selectNoFrom(sql<number>`1`.as('one')).as('x'))
      .leftJoin('phone_accounts as a', (j) => j.on('a.send_phone', '=', sendPhone))
      .leftJoin('sessions as s', (j) =>
        j
          .on('s.seat_id', '=', seatId)
          .on('s.send_phone', '=', sendPhone)
          .on('s.receiver_phone', '=', receiverPhone),
      )
      .leftJoin('seat_groups as g', 'g.id', 's.group_id')
      .selectAll('s')
      .select((eb) => [
        'g.type as group_type',
        'a.seat_id as account_seat_id',
        'a.channel as account_channel',
        eb
          .selectFrom('messages')
          .select('messages.id')
          .where('messages.seat_id', '=', seatId)
          .where('messages.client_msg_id', '=', clientMsgId)
          .as('existing_id'),
      ]),
);

/** A text send as the batch statement takes it (messagesRepository.sendTexts). */
export interface TextSend {
  /** Its place in the batch: answered with it. */
  ord: number;
  seatId: number;
  sendPhone: string;
  receiverPhone: string;
  clientMsgId: string;
  content: string;
  originalContent: string | null;
  preview: string;
  at: number;
  requestId: string | null;
  /**
   * Its message.created event, recorded by the statement with the rows it writes; the
   * statement fills in the ids and the chat's own fields. Null: no event is recorded.
   */
  event: object | null;
}

/** The send rules' columns in sendTextsStatement (a send's rules are SEND_RULES). */
const TEXT_SEND_CONTEXT: SendContextSql = {
  seat_id: 'v.seat_id',
  account_seat_id: 'a.seat_id',
  session_id: 's.id',
  blocked: 's.blocked',
  group_type: 'g.type',
  existing_id:
    '(select m.id from messages m where m.seat_id = v.seat_id and m.client_msg_id = v.client_msg_id)',
};

/**
 * messagesRepository.sendTexts: one fixed text, the batch one JSON array of sends (one
 * JSON.stringify in Node, where arrays of strings were escaped value by value). It writes
 * the sends that pass SEND_RULES (their SQL). A send's event is its draft (TextSend.event)
 * with what only this statement knows filled in: the message's ids and the chat's own
 * fields, from the presenters' field lists (CHAT_MESSAGE_ASSIGNED, SESSION_ITEM_COLUMNS).
 * The events are numbered as eventsRepository.appendMany numbers them (NUMBERED_EVENTS_SQL).
 */
/** The customer's photo URL is signed in the statement (MediaUrls.sqlSigning): $4..$6. */
const SIGNING_PARAMS = { ipad: '$4::text', opad: '$5::text', exp: '$6::bigint' };

const sendTextsStatement = preparedStatement<{
  ord: number;
  channel: string;
  id: number;
  session_id: number;
}>(`with v as (
    select * from jsonb_to_recordset($1::jsonb) as v (ord integer, seat_id integer,
      send_phone text, receiver_phone text, client_msg_id text, content text,
      original_content text, preview text, at bigint, request_id text, event jsonb)),
  ok as (
    select v.*, s.id as session_id, a.channel
    from v
    join phone_accounts a on a.send_phone = v.send_phone
    join sessions s on s.seat_id = v.seat_id and s.send_phone = v.send_phone
      and s.receiver_phone = v.receiver_phone
    join seat_groups g on g.id = s.group_id
    where ${sendRulesSql(TEXT_SEND_CONTEXT)}
    order by s.id
    for update of s),
  ins as (
    insert into messages (session_id, seat_id, client_msg_id, direction, type, content,
        original_content, status, created_at, deleted_for_me, deleted_for_all)
      select session_id, seat_id, client_msg_id, 'out', 'text', content, original_content,
        'sent', at, 0, 0
      from ok order by ord
    on conflict (seat_id, client_msg_id) do nothing
    returning *),
  upd as (
    update sessions s set latest_time = i.created_at, last_direction = 'out',
      last_preview = ok.preview, last_type = 'text'
    from ins i join ok on ok.seat_id = i.seat_id and ok.client_msg_id = i.client_msg_id
    where s.id = i.session_id
    returning s.*),
  queued as (
    insert into outbox (seat_id, msg_id, kind, status, next_at, created_at, updated_at,
        request_id)
      select i.seat_id, i.id, 'message', 'pending', $2::bigint, $2::bigint, $2::bigint,
        ok.request_id
      from ins i join ok on ok.seat_id = i.seat_id and ok.client_msg_id = i.client_msg_id
      where ok.channel = any($3::text[])
      order by i.id),
  written as (
    select ok.ord, ok.channel, ok.seat_id, ok.request_id, ok.event, i, u
    from ins i
    join ok on ok.seat_id = i.seat_id and ok.client_msg_id = i.client_msg_id
    join upd u on u.id = i.session_id),
  new_events as (
    select w.seat_id, w.ord, 'message.created' as type,
      (w.event || jsonb_build_object(
        'message', (w.event -> 'message') || ${chatMessageAssignedSql('w.i')},
        'session', (w.event -> 'session') || ${sessionItemSql('w.u', SIGNING_PARAMS)}))::text as data,
      $2::bigint as at, w.request_id
    from written w where w.event is not null),
  ${NUMBERED_EVENTS_SQL}
  select ord, channel, (i).id, (i).session_id from written`);

export const messagesRepository = {
  /**
   * Text sends in one statement (PostgreSQL; a group commit): each send's checks, its
   * message, its chat's latest activity, its outbox row and its message.created event. Only
   * sends that pass every check are written (the seat's account, its chat, not blocked, its
   * client_msg_id new; the same id sent at once by another transaction is skipped too): a send
   * left out is answered by nothing here and its caller takes the checked path, which says
   * why. The chats are locked in id order before anything is written. Sends of one batch are
   * of different chats and different client_msg_ids. `queued`: the channels whose sends get
   * an outbox row. Run on the pool, the statement is its own transaction. Answers each
   * written send's message and chat ids (the message is stored as the send gave it). A text
   * JSON cannot carry into PostgreSQL (a lone surrogate) fails the statement: the batch's
   * sends then run alone, the checked way.
   */
  async sendTexts(
    db: Db,
    sends: TextSend[],
    queued: readonly string[],
    /** Signs the chats' customer photos (absent: the events carry none). */
    signing?: SqlSigning,
  ): Promise<{ ord: number; channel: string; id: number; session_id: number }[]> {
    const now = Date.now();
    const batch = sends.map((v) => ({
      ord: v.ord,
      seat_id: v.seatId,
      send_phone: v.sendPhone,
      receiver_phone: v.receiverPhone,
      client_msg_id: v.clientMsgId,
      content: v.content,
      original_content: v.originalContent,
      preview: v.preview,
      at: v.at,
      request_id: v.requestId,
      event: v.event,
    }));
    return sendTextsStatement.run(db, [
      JSON.stringify(batch),
      now,
      [...queued],
      signing?.ipad ?? null,
      signing?.opad ?? null,
      signing?.exp ?? null,
    ]);
  },

  /** A send's context in one round trip (see sendContextQuery); absent parts are null. */
  async findSendContext(
    db: Db,
    seatId: number,
    sendPhone: string,
    receiverPhone: string,
    clientMsgId: string,
  ): Promise<{
    context: SendContext;
    channel: PhoneAccountRow['channel'] | null;
    session: (SessionRow & { group_type: string }) | null;
  }> {
    const [row] = await sendContextQuery.run(db, '', seatId, sendPhone, receiverPhone, clientMsgId);
    const { account_seat_id, account_channel, existing_id, group_type, ...session } = row!;
    const found = session.id !== null && session.id !== undefined && !!group_type;
    return {
      context: {
        seat_id: seatId,
        account_seat_id: account_channel ? ((account_seat_id as number | null) ?? null) : null,
        session_id: found ? session.id : null,
        blocked: found ? session.blocked : null,
        group_type: found ? group_type : null,
        existing_id: (existing_id as number | null | undefined) ?? null,
      },
      channel: account_channel ?? null,
      session: found ? ({ ...session, group_type } as SessionRow & { group_type: string }) : null,
    };
  },

  /** Newest first, older than `beforeId` when given. */
  pageBefore(db: Db, sessionId: number, beforeId: number | undefined, limit: number) {
    let q = db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('deleted_for_me', '=', 0);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    // Ordering by the index's own columns keeps PostgreSQL on messages_session_idx; ordered by
    // id alone it walks the primary key backwards past other chats' newer messages.
    return q.orderBy('session_id', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },

  /** Oldest first, newer than `afterId` (inclusive when `inclusive`). */
  pageAfter(db: Db, sessionId: number, afterId: number, limit: number, inclusive = false) {
    return db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('deleted_for_me', '=', 0)
      .where('id', inclusive ? '>=' : '>', afterId)
      .orderBy('session_id', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  },

  /** Scoped by seat through the chat: another seat's message is as absent as a missing one. */
  findForSeat(db: Db, seatId: number, msgId: number) {
    return db
      .selectFrom('messages')
      .innerJoin('sessions', 'sessions.id', 'messages.session_id')
      .selectAll('messages')
      .where('sessions.seat_id', '=', seatId)
      .where('messages.id', '=', msgId)
      .executeTakeFirst();
  },

  /** The newest message the chat still shows in its preview (not hidden, not retracted). */
  latestShown(db: Db, sessionId: number) {
    return db
      .selectFrom('messages')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('deleted_for_me', '=', 0)
      .where('deleted_for_all', '=', 0)
      .orderBy('session_id', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** The messages of an account's chats follow the account to `seatId`. */
  async handOverAccount(db: Db, sendPhone: string, seatId: number) {
    await db
      .updateTable('messages')
      .set({ seat_id: seatId })
      .where('session_id', 'in', (eb) =>
        eb.selectFrom('sessions').select('id').where('send_phone', '=', sendPhone),
      )
      .execute();
  },

  async hideForMe(db: Db, msgId: number) {
    await db.updateTable('messages').set({ deleted_for_me: 1 }).where('id', '=', msgId).execute();
  },

  /**
   * A message of this chat a reply may quote: shown to the seat (not hidden for it, not
   * retracted). Another chat's message is as absent as a missing one.
   */
  findQuotable(db: Db, sessionId: number, msgId: number) {
    return db
      .selectFrom('messages')
      .select(['id', 'direction', 'type', 'content', 'media'])
      .where('id', '=', msgId)
      .where('session_id', '=', sessionId)
      .where('deleted_for_me', '=', 0)
      .where('deleted_for_all', '=', 0)
      .executeTakeFirst();
  },

  /**
   * A message of this chat named by its channel's id: the id the channel gave it (an
   * operator's delivered message, a platform customer's message), or the id its inbound
   * record took (`inbound_messages`: a Telegram customer's `chat:message`).
   */
  async findQuotableByChannelId(
    db: Db,
    sessionId: number,
    ref: { channel: string; sendPhone: string; externalId: string; inboundId: string },
  ) {
    const byExternal = await db
      .selectFrom('messages')
      .select('id')
      .where('session_id', '=', sessionId)
      .where('external_id', '=', ref.externalId)
      .executeTakeFirst();
    const id =
      byExternal?.id ??
      (
        await db
          .selectFrom('inbound_messages')
          .select('msg_id')
          .where('channel', '=', ref.channel)
          .where('send_phone', '=', ref.sendPhone)
          .where('external_id', '=', ref.inboundId)
          .executeTakeFirst()
      )?.msg_id;
    return id ? this.findQuotable(db, sessionId, id) : undefined;
  },

  /** The customer's reaction to a message (null: none). */
  async setReaction(db: Db, msgId: number, reaction: string | null) {
    await db.updateTable('messages').set({ reaction }).where('id', '=', msgId).execute();
  },

  /** The quotes of a retracted message show "deleted message" from now on. */
  async forgetQuotesOf(db: Db, msgId: number) {
    await db
      .updateTable('messages')
      .set({ reply_quote: null })
      .where('reply_to_id', '=', msgId)
      .execute();
  },

  /** Retracted: flagged, and its content and media are dropped from storage. */
  async deleteForAll(db: Db, msgId: number) {
    await db
      .updateTable('messages')
      .set({
        deleted_for_all: 1,
        content: '',
        original_content: null,
        media: null,
        media_id: null,
      })
      .where('id', '=', msgId)
      .execute();
  },

  async mediaIdOf(db: Db, msgId: number): Promise<string | null> {
    const row = await db
      .selectFrom('messages')
      .select('media_id')
      .where('id', '=', msgId)
      .executeTakeFirst();
    return row?.media_id ?? null;
  },

  findByClientId(db: Db, seatId: number, clientMsgId: string): Promise<MessageRow | undefined> {
    return findByClientIdQuery.run(db, '', seatId, clientMsgId).then(([row]) => row);
  },

  /** Compiled once per set of columns (every send names the same ones). */
  insert(db: Db, row: NewMessage): Promise<MessageRow> {
    const columns = (Object.keys(row) as (keyof NewMessage)[]).filter((c) => row[c] !== undefined);
    return insertQuery
      .run(db, columns, ...columns.map((c) => row[c]))
      .then(([inserted]) => inserted!);
  },

  /** Several messages in one statement, answered in the order given (a group commit of sends). */
  async insertReturning(db: Db, rows: NewMessage[]): Promise<MessageRow[]> {
    const stored = await db.insertInto('messages').values(rows).returningAll().execute();
    // Matched by their ids of the seat rather than trusting RETURNING's order.
    const byClientId = new Map(stored.map((m) => [`${m.seat_id}:${m.client_msg_id}`, m]));
    return rows.map((r) => byClientId.get(`${r.seat_id}:${r.client_msg_id}`)!);
  },

  async insertMany(db: Db, rows: NewMessage[]) {
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('messages')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  },
};

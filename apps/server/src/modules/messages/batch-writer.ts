import type { ChannelName } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { MessageRow, SessionRow } from '../../db/schema.js';
import { BatchCommit } from '../../lib/group-commit.js';
import { currentRequestId } from '../../lib/request-context.js';
import { carriesInviteLink } from './link-pushed.js';
import { afterCommit, inTransaction } from '../../lib/tx.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import {
  CheckedWriter,
  storedRow,
  type MessageWriterParts,
  type OutgoingMessage,
  type SendInput,
} from './message-writer.js';
import { previewOf } from './messages.presenter.js';
import { messagesRepository, type TextSend } from './messages.repository.js';

/** A checked send of a batch: the request it came from is kept with its rows. */
type BatchedMessage = OutgoingMessage & { requestId: string | null };

/**
 * A send of a batch: a text send whose checks the batch's statement makes (`text`, by
 * SEND_RULES' SQL), or a send checked already (`checked`: media, a replay's race, a text the
 * statement left out).
 */
type BatchedSend =
  | { kind: 'text'; send: Omit<TextSend, 'ord' | 'event'> }
  | { kind: 'checked'; out: BatchedMessage };

/**
 * MessageWriter on PostgreSQL: the sends handed in while a batch was written are written
 * together (BatchCommit), a few statements per batch. A text that moves no chat is checked
 * by the batch's statement with its write (no round trip of its own); whatever the statement
 * left out (a replay, a refusal) or failed on is checked on its own, which answers as the
 * rules say, and then joins a batch as a checked send.
 */
export class BatchWriter extends CheckedWriter {
  private readonly batches: BatchCommit<BatchedSend, MessageRow | null>;

  constructor(db: Db, parts: MessageWriterParts) {
    super(db, parts);
    this.batches = new BatchCommit(db, (pool, sends: BatchedSend[]) =>
      this.writeBatch(pool, sends),
    );
  }

  override async send(seatId: number, input: SendInput): Promise<MessageRow> {
    // A reply is checked on its own: its quoted message is read first.
    if (
      input.type === 'text' &&
      input.reply_to === undefined &&
      !carriesInviteLink(input.content, input.original_content)
    ) {
      const send = {
        seatId,
        sendPhone: input.send_phone,
        receiverPhone: input.receiver_phone,
        clientMsgId: input.client_msg_id,
        content: input.content,
        originalContent: input.original_content?.trim() ? input.original_content : null,
        preview: previewOf({ type: 'text', content: input.content, media: null }),
        at: Date.now(),
        requestId: currentRequestId(),
      };
      const row = await this.batches
        .run({ kind: 'text', send }, chatKey(seatId, input), async () => null)
        .catch(() => null);
      if (row) return row;
    }
    return this.sendChecked(seatId, input);
  }

  /** A send that moves its chat (an invitation link) is written alone. */
  protected async commit(out: OutgoingMessage): Promise<MessageRow> {
    const alone = () => inTransaction(this.db, (trx) => this.write(trx, out));
    if (this.movesChat(out)) return alone();
    const row = await this.batches.run(
      { kind: 'checked', out: { ...out, requestId: currentRequestId() } },
      chatKey(out.session.seat_id, out.session),
      alone,
    );
    return row!;
  }

  /**
   * A batch of sends, each of another chat. Text sends alone: one statement, its own
   * transaction, checks them, writes them and records their events (a send left out is
   * answered null). With checked sends: one transaction of that statement, the checked ones
   * in three (writeMany) and their events in one. A failure fails the batch, whose sends then
   * run alone.
   */
  private async writeBatch(db: Db, sends: BatchedSend[]): Promise<(MessageRow | null)[]> {
    const { events, outbox } = this.parts;
    const answers: (MessageRow | null)[] = sends.map(() => null);
    const texts: TextSend[] = [];
    const checked: { ord: number; out: BatchedMessage }[] = [];
    const ids = new Set<string>();
    sends.forEach((item, ord) => {
      if (item.kind === 'checked') return checked.push({ ord, out: item.out });
      // The same client_msg_id twice in a batch: the later one is checked alone (a replay).
      const id = `${item.send.seatId}:${item.send.clientMsgId}`;
      if (ids.has(id)) return;
      ids.add(id);
      texts.push({ ord, ...item.send, event: this.draftEvent(item.send) });
    });
    if (checked.length === 0) {
      const { queued, seats } = await this.writeTexts(db, texts, answers);
      if (queued) outbox.notify();
      events.recorded(seats);
      return answers;
    }
    return inTransaction(db, async (trx) => {
      const { queued, seats } = await this.writeTexts(trx, texts, answers);
      const outs = checked.map((c) => c.out);
      const { messages, chats, queued: more } = await this.writeMany(trx, outs);
      afterCommit(trx, () => {
        if (queued || more) outbox.notify();
        events.recorded(seats);
      });
      // The events last: each seat's counter is locked from here to the commit.
      await events.messagesCreated(
        trx,
        checked.map(({ ord, out }, i) => {
          const row = chats.get(out.session.id);
          // Deleted meanwhile: the batch fails and this send runs alone (and is refused).
          if (!row) throw new Error(`chat ${out.session.id} is gone`);
          answers[ord] = messages[i]!;
          const message = this.present(messages[i]!);
          return { seatId: messages[i]!.seat_id, message, row, requestId: out.requestId };
        }),
      );
      return answers;
    });
  }

  /** A batch's text sends in one statement (with their events); fills in their answers. */
  private async writeTexts(
    db: Db,
    texts: TextSend[],
    answers: (MessageRow | null)[],
  ): Promise<{ queued: boolean; seats: Set<number> }> {
    const seats = new Set<number>();
    if (texts.length === 0) return { queued: false, seats };
    const channels = this.parts.outbox.queuedChannels();
    let queued = false;
    const byOrd = new Map(texts.map((t) => [t.ord, t]));
    for (const { ord, channel, id, session_id } of await messagesRepository.sendTexts(
      db,
      texts,
      channels,
      this.parts.media.urls.sqlSigning(),
    )) {
      const send = byOrd.get(ord)!;
      answers[ord] = textRow(send, id, session_id);
      queued ||= channels.includes(channel as ChannelName);
      seats.add(send.seatId);
    }
    return { queued, seats };
  }

  /**
   * A text send's message.created event before it is written: presented from the rows as the
   * send will leave them; sendTexts fills in the ids and the chat's own fields.
   */
  private draftEvent(send: Omit<TextSend, 'ord' | 'event'>): TextSend['event'] {
    return this.parts.events.messageCreatedDraft(this.present(textRow(send, 0, 0)), {
      id: 0,
      seat_id: send.seatId,
      send_phone: send.sendPhone,
      receiver_phone: send.receiverPhone,
      group_id: 0,
      prev_group_id: null,
      is_top: 0,
      remark: '',
      un_read_count: 0,
      add_time: 0,
      latest_time: send.at,
      last_direction: 'out',
      last_preview: send.preview,
      last_type: 'text',
      customer_language: null,
      blocked: 0,
      customer_name: null,
      customer_avatar: null,
      // The statement answers the chat's own window (sessionItemSql).
      reply_until: null,
    });
  }

  /**
   * write of several checked sends (in writeBatch's transaction): the messages in one
   * statement, their chats in one, their outbox rows in one; the events are writeBatch's. Only
   * sends that move no chat, each of another chat.
   */
  private async writeMany(
    trx: Db,
    outs: BatchedMessage[],
  ): Promise<{ messages: MessageRow[]; chats: Map<number, SessionRow>; queued: boolean }> {
    const messages = await messagesRepository.insertReturning(trx, outs.map(storedRow));
    const updated = await sessionsRepository.recordOutgoingMany(
      trx,
      outs.map((out, i) => ({
        sessionId: out.session.id,
        time: out.at,
        preview: previewOf(messages[i]!),
        type: out.type,
      })),
    );
    const queued = await this.parts.outbox.enqueueMany(
      trx,
      outs.map((out, i) => ({
        channel: out.channel,
        seat_id: out.session.seat_id,
        msg_id: messages[i]!.id,
        kind: 'message' as const,
        request_id: out.requestId,
      })),
    );
    return { messages, chats: new Map(updated.map((row) => [row.id, row])), queued };
  }
}

/** The message row a text send stores (sendTexts), with its ids. */
function textRow(send: Omit<TextSend, 'ord' | 'event'>, id: number, sessionId: number): MessageRow {
  return {
    id,
    session_id: sessionId,
    seat_id: send.seatId,
    client_msg_id: send.clientMsgId,
    direction: 'out',
    type: 'text',
    content: send.content,
    original_content: send.originalContent,
    media: null,
    media_id: null,
    status: 'sent',
    created_at: send.at,
    deleted_for_me: 0,
    deleted_for_all: 0,
    external_id: null,
    reply_to_id: null,
    reply_quote: null,
    reaction: null,
    fail_reason: null,
  };
}

/** A chat's key in the batches: its seat and numbers (sends of one chat never overlap). */
function chatKey(seatId: number, chat: { send_phone: string; receiver_phone: string }): string {
  return `${seatId}|${chat.send_phone}|${chat.receiver_phone}`;
}

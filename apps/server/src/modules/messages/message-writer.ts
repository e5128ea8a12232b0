import type { CallRequest, ChannelName, MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { MessageRow, SessionRow } from '../../db/schema.js';
import { notFound } from '../../lib/app-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { movesToLinkPushed } from './link-pushed.js';
import { afterCommit } from '../../lib/tx.js';
import type { SeatEvents } from '../events/seat-events.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { toStoredMedia } from '../media/media.presenter.js';
import type { MediaService } from '../media/media.service.js';
import type { OutboxWriter } from '../outbox/outbox-writer.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { invalidField } from '../../lib/app-error.js';
import { previewOf, storedQuoteOf, toChatMessage } from './messages.presenter.js';
import { messagesRepository } from './messages.repository.js';
import { firstFailure, mediaOfMessage } from './send-rules.js';

export type SendInput = CallRequest<'/v1/seat/chat/message'>;

/** An operator's message as MessageWriter.write takes it (the rules are checked). */
export interface OutgoingMessage {
  session: SessionRow & { group_type: string };
  /** The channel of the chat's account: the outbox row goes to its adapter. */
  channel: ChannelName;
  clientMsgId: string;
  type: MessageType;
  content: string;
  originalContent?: string | null | undefined;
  media: Awaited<ReturnType<MediaService['ownedFor']>> | null;
  /** A reply: the quoted message of the same chat, and its quote as stored (storedQuoteOf). */
  replyTo?: { id: number; quote: string } | null;
  at: number;
}

/**
 * How operators' messages are written. One implementation per database, chosen once where
 * the app is wired (services.ts), as Kysely's Dialect is: group commit on SQLite
 * (GroupCommitWriter), batch statements on PostgreSQL (BatchWriter). The services never ask
 * which database they run on; test/message-writers.test.ts holds both to the same rows,
 * events and outbox entries.
 */
export interface MessageWriter {
  /**
   * An operator's send (a reply, a batch item): checked by SEND_RULES, stored once per
   * (seat, client_msg_id) (a retry answers the stored message), acknowledged once committed.
   */
  send(seatId: number, input: SendInput): Promise<MessageRow>;
  /**
   * A message whose rules the caller checked, inside the caller's transaction (addSession's
   * greeting): the message, the chat's latest activity, its outbox row and its events commit
   * together, so a message the API acknowledged always reaches its channel.
   */
  write(trx: Db, out: OutgoingMessage): Promise<MessageRow>;
}

export interface MessageWriterParts {
  media: MediaService;
  events: SeatEvents;
  outbox: OutboxWriter;
}

/** What both writers share: a send checked on its own, and the one write of a message. */
export abstract class CheckedWriter implements MessageWriter {
  constructor(
    protected readonly db: Db,
    protected readonly parts: MessageWriterParts,
  ) {}

  /** The checked message committed (each writer's own way). */
  protected abstract commit(out: OutgoingMessage): Promise<MessageRow>;

  send(seatId: number, input: SendInput): Promise<MessageRow> {
    return this.sendChecked(seatId, input);
  }

  protected present = (row: MessageRow) => toChatMessage(row, this.parts.media.urls);

  /** A send with its checks first: one statement reads its context, SEND_RULES judge it. */
  protected async sendChecked(seatId: number, input: SendInput): Promise<MessageRow> {
    const { context, channel, session } = await messagesRepository.findSendContext(
      this.db,
      seatId,
      input.send_phone,
      input.receiver_phone,
      input.client_msg_id,
    );
    const failure = firstFailure(context);
    if (failure === 'replay') {
      const stored = await messagesRepository.findByClientId(this.db, seatId, input.client_msg_id);
      if (stored) return stored;
      // Gone since (its chat deleted): the send is judged as a new one.
      const next = firstFailure({ ...context, existing_id: null });
      if (next !== null && next !== 'replay') throw next;
    } else if (failure) {
      throw failure;
    }
    const media = await mediaOfMessage(
      this.parts.media,
      this.db,
      seatId,
      input.type,
      input.media_id,
    );
    const replyTo = await this.quoted(session!.id, input.reply_to);
    try {
      return await this.commit({
        session: session!,
        channel: channel!,
        clientMsgId: input.client_msg_id,
        type: input.type,
        content: input.content,
        originalContent: input.original_content,
        media,
        replyTo,
        at: Date.now(),
      });
    } catch (err) {
      // Deleted since it was found (a racing delSession).
      if (isForeignKeyViolation(err)) throw notFound();
      // The same id sent twice at once: the first insert won; answer with it.
      if (isUniqueViolation(err)) {
        const stored = await messagesRepository.findByClientId(
          this.db,
          seatId,
          input.client_msg_id,
        );
        if (stored) return stored;
      }
      throw err;
    }
  }

  /** A reply's quoted message: one this chat shows (else 100001 naming reply_to). */
  private async quoted(sessionId: number, replyTo: number | undefined) {
    if (replyTo === undefined) return null;
    const quoted = await messagesRepository.findQuotable(this.db, sessionId, replyTo);
    if (!quoted) throw invalidField('reply_to', 'not a message of this chat');
    return { id: quoted.id, quote: storedQuoteOf(quoted) };
  }
  /** An invitation link moves the chat to the link-pushed group (link-pushed.ts). */
  protected movesChat(out: Pick<OutgoingMessage, 'session' | 'content' | 'originalContent'>) {
    return movesToLinkPushed(out.session, out.content, out.originalContent);
  }

  async write(trx: Db, out: OutgoingMessage): Promise<MessageRow> {
    const { session } = out;
    const { events, outbox } = this.parts;
    const message = await messagesRepository.insert(trx, storedRow(out));
    const movedTo = this.movesChat(out)
      ? (await groupsRepository.findByType(trx, session.seat_id, 'tg_link_pushed'))?.id
      : undefined;
    // The chat's latest activity (and group) in one statement, which answers the chat as the
    // event shows it.
    const updated = await sessionsRepository.recordOutgoing(trx, session.id, {
      time: out.at,
      preview: previewOf(message),
      type: out.type,
      groupId: movedTo,
    });
    if (
      await outbox.enqueue(trx, out.channel, {
        seat_id: session.seat_id,
        msg_id: message.id,
        kind: 'message',
      })
    ) {
      afterCommit(trx, () => outbox.notify());
    }
    // The event last: its seat counter's lock (PostgreSQL) is held from here to the commit,
    // and every send of the seat waits for it.
    await events.messageCreated(trx, session.seat_id, this.present(message), updated);
    if (movedTo !== undefined) {
      await events.sessionUpdated(trx, session.seat_id, session.id);
      await events.groupsChanged(trx, session.seat_id);
    }
    return message;
  }
}

/** The row an operator's message is stored as. */
export function storedRow(out: OutgoingMessage) {
  return {
    session_id: out.session.id,
    seat_id: out.session.seat_id,
    client_msg_id: out.clientMsgId,
    direction: 'out' as const,
    type: out.type,
    content: out.content,
    original_content: out.originalContent?.trim() ? out.originalContent : null,
    media: out.media ? JSON.stringify(toStoredMedia(out.media)) : null,
    media_id: out.media?.media_id ?? null,
    status: 'sent' as const,
    created_at: out.at,
    deleted_for_me: 0,
    deleted_for_all: 0,
    reply_to_id: out.replyTo?.id ?? null,
    reply_quote: out.replyTo?.quote ?? null,
  };
}

import {
  ERROR_CODES,
  type CallRequest,
  type CallResponse,
  type ChannelName,
  type ChatMessage,
  type MediaKind,
  type MessageType,
} from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError, forbidden, invalidField, notFound } from '../../lib/app-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { BatchCommit, GroupCommit } from '../../lib/group-commit.js';
import { dialectOf } from '../../db/database.js';
import { currentRequestId } from '../../lib/request-context.js';
import type { MessageRow, PhoneAccountRow, SessionRow } from '../../db/schema.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { toStoredMedia } from '../media/media.presenter.js';
import type { MediaService } from '../media/media.service.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { searchRepository } from '../search/search.repository.js';
import { previewOf, toChatMessage } from './messages.presenter.js';
import { messagesRepository, type TextSend } from './messages.repository.js';
import { afterCommit, inTransaction } from '../../lib/tx.js';
import { hasTelegramLink } from '../../lib/telegram-link.js';
import type { OutboxWriter } from '../outbox/outbox-writer.js';
import type { SeatEvents } from '../events/seat-events.js';

/**
 * The media kinds each message type takes. A `file` takes any kind: a photo or a recording
 * sent as a document (downloaded as it is rather than shown in the chat).
 */
export const MESSAGE_MEDIA: Record<Exclude<MessageType, 'text'>, readonly MediaKind[]> = {
  image: ['image'],
  audio: ['audio'],
  video: ['video'],
  file: ['image', 'audio', 'video', 'file'],
};
const ANY_KIND = MESSAGE_MEDIA.file;

/** A send of a group commit on PostgreSQL: the request it came from is kept with its rows. */
type BatchedMessage = OutgoingMessage & { requestId: string | null };

/**
 * A send of PostgreSQL's batches: a text send whose checks the batch's statement makes
 * (`text`), or a send checked already (`checked`: media, a replay's race, a text left out).
 */
type BatchedSend =
  | { kind: 'text'; send: Omit<TextSend, 'ord' | 'event'> }
  | { kind: 'checked'; out: BatchedMessage };

/** An operator's message as MessagesService.createOutgoing takes it (the rules are checked). */
export interface OutgoingMessage {
  session: SessionRow & { group_type: string };
  /** The channel of the chat's account: the outbox row goes to its adapter. */
  channel: ChannelName;
  clientMsgId: string;
  type: MessageType;
  content: string;
  originalContent?: string | null | undefined;
  media: Awaited<ReturnType<MediaService['ownedFor']>> | null;
  at: number;
}

export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'deleteForAllWindowMinutes'>,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
    private readonly outbox: OutboxWriter,
  ) {
    // SQLite: the batch's messages get their search entries in one statement at its end (each
    // statement of a unit would otherwise write the previous message's entry out on its own).
    this.commits = new GroupCommit(db, async (trx, run) => {
      const after = await searchRepository.deferEntries(trx);
      const result = await run();
      await searchRepository.writeDeferredEntries(trx, after);
      return result;
    });
    this.batches =
      dialectOf(db) === 'pg'
        ? new BatchCommit(db, (pool, sends: BatchedSend[]) => this.writeBatch(pool, sends))
        : null;
  }

  private present = (row: MessageRow) => toChatMessage(row, this.media.urls);
  /** Operators' sends: grouped into one transaction per turn on SQLite. */
  private readonly commits: GroupCommit;
  /**
   * Operators' sends on PostgreSQL: written a batch at a time, a few statements per batch;
   * a send the batch left out is answered null (its caller checks it alone).
   */
  private readonly batches: BatchCommit<BatchedSend, MessageRow | null> | null;

  /** The media of a non-text message: this seat's (else 400001) and of a fitting kind. */
  private async mediaFor(db: Db, seatId: number, type: MessageType, mediaId: string | undefined) {
    if (type === 'text') return null;
    if (!mediaId) throw invalidField('media_id', 'required');
    return this.media.ownedFor(db, seatId, mediaId, MESSAGE_MEDIA[type]);
  }

  /**
   * A page of a chat: the newest (no anchor), older than `before_id`, newer than `after_id`,
   * or a window centred on `around_id` (a search hit). Opening a chat reads it: its unread
   * count drops to zero (the answer is unaffected).
   */
  async chatRecord(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/getChatRecord'>,
  ): Promise<CallResponse<'/v1/seat/chat/getChatRecord'>> {
    const session = await sessionsRepository.findByPhones(
      this.db,
      seatId,
      input.send_phone,
      input.receiver_phone,
    );
    if (!session) throw notFound();
    const size = input.page_size;
    let page: { list: MessageRow[]; has_more: boolean; has_newer: boolean };
    if (input.after_id !== undefined) {
      const rows = await messagesRepository.pageAfter(
        this.db,
        session.id,
        input.after_id,
        size + 1,
      );
      page = {
        list: rows.slice(0, size),
        has_more: true,
        has_newer: rows.length > size,
      };
    } else if (input.around_id !== undefined) {
      page = await this.window(session.id, input.around_id, size);
    } else {
      const rows = await messagesRepository.pageBefore(
        this.db,
        session.id,
        input.before_id,
        size + 1,
      );
      page = {
        list: rows.slice(0, size).reverse(),
        has_more: rows.length > size,
        has_newer: input.before_id !== undefined,
      };
    }
    if (session.un_read_count > 0) {
      await inTransaction(this.db, async (trx) => {
        await sessionsRepository.clearUnread(trx, session.id);
        await this.events.sessionUpdated(trx, seatId, session.id);
        await this.events.groupsChanged(trx, seatId);
      });
    }
    return { ...page, list: page.list.map(this.present) };
  }

  /** The anchor message with up to half a page of older and newer neighbours. */
  private async window(sessionId: number, anchorId: number, size: number) {
    const older = Math.floor(size / 2);
    const [before, from] = await Promise.all([
      messagesRepository.pageBefore(this.db, sessionId, anchorId, older + 1),
      messagesRepository.pageAfter(this.db, sessionId, anchorId, size - older + 1, true),
    ]);
    // The anchor must be a shown message of this chat (another chat's id is as absent).
    if (from[0]?.id !== anchorId) throw notFound();
    return {
      list: [...before.slice(0, older).reverse(), ...from.slice(0, size - older)],
      has_more: before.length > older,
      has_newer: from.length > size - older,
    };
  }

  /**
   * The one way an operator's message is created (a reply, addSession's greeting, a batch
   * item), inside the caller's transaction after the caller checked its rules: the message,
   * the chat's latest activity, its events and its outbox row commit together, so a message
   * the API acknowledged always reaches its channel. A Telegram link moves the chat to TG link
   * pushed.
   */
  async createOutgoing(trx: Db, out: OutgoingMessage): Promise<MessageRow> {
    const { session } = out;
    const message = await messagesRepository.insert(trx, {
      session_id: session.id,
      seat_id: session.seat_id,
      client_msg_id: out.clientMsgId,
      direction: 'out',
      type: out.type,
      content: out.content,
      original_content: out.originalContent?.trim() ? out.originalContent : null,
      media: out.media ? JSON.stringify(toStoredMedia(out.media)) : null,
      media_id: out.media?.media_id ?? null,
      status: 'sent',
      created_at: out.at,
      deleted_for_me: 0,
      deleted_for_all: 0,
    });
    // A Telegram link invites the customer over: the chat moves to TG link pushed.
    let movedTo: number | undefined;
    if (
      session.group_type !== 'tg_link_pushed' &&
      (hasTelegramLink(out.content) || hasTelegramLink(out.originalContent))
    ) {
      movedTo = (await groupsRepository.findByType(trx, session.seat_id, 'tg_link_pushed'))?.id;
    }
    // The chat's latest activity (and group) in one statement, which answers the chat as the
    // event shows it.
    const updated = await sessionsRepository.recordOutgoing(trx, session.id, {
      time: out.at,
      preview: previewOf(message),
      type: out.type,
      groupId: movedTo,
    });
    const moved = movedTo !== undefined;
    if (
      await this.outbox.enqueue(trx, out.channel, {
        seat_id: session.seat_id,
        msg_id: message.id,
        kind: 'message',
      })
    ) {
      afterCommit(trx, () => this.outbox.notify());
    }
    // The event last: its seat counter's lock (PostgreSQL) is held from here to the commit,
    // and every send of the seat waits for it.
    await this.events.messageCreated(trx, session.seat_id, this.present(message), updated);
    if (moved) {
      await this.events.sessionUpdated(trx, session.seat_id, session.id);
      await this.events.groupsChanged(trx, session.seat_id);
    }
    return message;
  }

  /**
   * A batch of sends (PostgreSQL's group commit), each of another chat. Text sends alone: one
   * statement, its own transaction, checks them, writes them and records their events (a send
   * left out is answered null). With checked sends: one transaction of that statement, the
   * checked ones in three (createOutgoingMany) and their events in one. A failure fails the
   * batch, whose sends then run alone.
   */
  private async writeBatch(db: Db, sends: BatchedSend[]): Promise<(MessageRow | null)[]> {
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
      if (queued) this.outbox.notify();
      this.events.recorded(seats);
      return answers;
    }
    return inTransaction(db, async (trx) => {
      const { queued, seats } = await this.writeTexts(trx, texts, answers);
      const {
        messages,
        chats,
        queued: more,
      } = await this.createOutgoingMany(
        trx,
        checked.map((c) => c.out),
      );
      afterCommit(trx, () => {
        if (queued || more) this.outbox.notify();
        this.events.recorded(seats);
      });
      // The events last: each seat's counter is locked from here to the commit.
      await this.events.messagesCreated(
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
    const channels = this.outbox.queuedChannels();
    let queued = false;
    const byOrd = new Map(texts.map((t) => [t.ord, t]));
    for (const { ord, channel, id, session_id } of await messagesRepository.sendTexts(
      db,
      texts,
      channels,
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
    const message = textRow(send, 0, 0);
    return this.events.messageCreatedDraft(this.present(message), {
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
    });
  }

  /**
   * createOutgoing of several checked sends (in writeBatch's transaction): the messages in one
   * statement, their chats in one, their outbox rows in one; the events are writeBatch's. Only
   * sends that move no chat (no Telegram link to take to TG link pushed), each of another chat.
   */
  private async createOutgoingMany(
    trx: Db,
    outs: BatchedMessage[],
  ): Promise<{ messages: MessageRow[]; chats: Map<number, SessionRow>; queued: boolean }> {
    const messages = await messagesRepository.insertReturning(
      trx,
      outs.map((out) => ({
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
      })),
    );
    const updated = await sessionsRepository.recordOutgoingMany(
      trx,
      outs.map((out, i) => ({
        sessionId: out.session.id,
        time: out.at,
        preview: previewOf(messages[i]!),
        type: out.type,
      })),
    );
    const chats = new Map(updated.map((row) => [row.id, row]));
    const queued = await this.outbox.enqueueMany(
      trx,
      outs.map((out, i) => ({
        channel: out.channel,
        seat_id: out.session.seat_id,
        msg_id: messages[i]!.id,
        kind: 'message' as const,
        request_id: out.requestId,
      })),
    );
    return { messages, chats, queued };
  }

  /**
   * The one way a message is retracted ("deleted for all"), inside the caller's transaction:
   * by the seat (del_message: the customer's channel is told through the outbox) or by the
   * channel (the customer deleted it there: nothing to tell). Its content goes, the chat's
   * preview follows, and the events commit with the change.
   */
  async retract(trx: Db, message: MessageRow, by: 'seat' | 'channel'): Promise<void> {
    const seatId = message.seat_id;
    await messagesRepository.deleteForAll(trx, message.id);
    if (by === 'seat') {
      const session = await sessionsRepository.findForSeat(trx, seatId, message.session_id);
      const account = session && (await accountsRepository.findByPhone(trx, session.send_phone));
      if (
        account &&
        (await this.outbox.enqueue(trx, account.channel, {
          seat_id: seatId,
          msg_id: message.id,
          kind: 'delete',
        }))
      ) {
        afterCommit(trx, () => this.outbox.notify());
      }
    }
    await this.refreshLastMessage(trx, message.session_id);
    const retracted = await messagesRepository.findForSeat(trx, seatId, message.id);
    // Hidden for this seat already: its consoles no longer hold it.
    if (retracted && retracted.deleted_for_me === 0) {
      await this.events.messageUpdated(trx, seatId, this.present(retracted));
    }
    await this.events.sessionUpdated(trx, seatId, message.session_id);
  }

  /** The chat's preview follows its newest message still shown. */
  private async refreshLastMessage(trx: Db, sessionId: number): Promise<void> {
    const latest = await messagesRepository.latestShown(trx, sessionId);
    await sessionsRepository.setLastMessage(trx, sessionId, {
      last_direction: latest?.direction ?? null,
      last_type: latest?.type ?? null,
      last_preview: latest ? previewOf(latest) : null,
    });
  }

  /** A Telegram link takes the chat to TG link pushed (createOutgoing). */
  private movesChat(out: OutgoingMessage): boolean {
    return (
      out.session.group_type !== 'tg_link_pushed' &&
      (hasTelegramLink(out.content) || hasTelegramLink(out.originalContent))
    );
  }

  /** Sent once per (seat, client_msg_id): a retry gets the stored message back. */
  async send(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/message'>,
  ): Promise<CallResponse<'/v1/seat/chat/message'>> {
    // PostgreSQL, a text that moves no chat: the batch's statement checks it with its write
    // (no round trip of its own). Whatever the batch left out (a replay, a refusal) or failed
    // on goes the checked way below, which answers as the rules say.
    if (
      this.batches &&
      input.type === 'text' &&
      !hasTelegramLink(input.content) &&
      !hasTelegramLink(input.original_content)
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
      if (row) return this.present(row);
    }
    return this.sendChecked(seatId, input);
  }

  /** send with its checks first (SQLite; on PostgreSQL media, and what a batch left out). */
  private async sendChecked(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/message'>,
  ): Promise<CallResponse<'/v1/seat/chat/message'>> {
    // The three lookups in one statement, their answers checked in the order of the rules.
    const { existing, account, session } = await messagesRepository.findSendContext(
      this.db,
      seatId,
      input.send_phone,
      input.receiver_phone,
      input.client_msg_id,
    );
    if (existing) {
      const stored = await messagesRepository.findByClientId(this.db, seatId, input.client_msg_id);
      if (stored) return this.present(stored);
    }
    if (!account || account.seat_id !== seatId) throw forbidden();
    if (!session) throw notFound();
    if (session.blocked === 1 || session.group_type === 'blocked') throw forbidden();
    const media = await this.mediaFor(this.db, seatId, input.type, input.media_id);

    try {
      const out: OutgoingMessage = {
        session,
        channel: account.channel,
        clientMsgId: input.client_msg_id,
        type: input.type,
        content: input.content,
        originalContent: input.original_content,
        media,
        at: Date.now(),
      };
      const alone = () => this.commits.run((trx) => this.createOutgoing(trx, out));
      // Acknowledged once committed; sends arriving together share the commit (SQLite: one
      // transaction of savepoints; PostgreSQL: a batch of a few statements). A send that
      // moves its chat (a Telegram link) is written alone.
      const row =
        this.batches && !this.movesChat(out)
          ? await this.batches.run(
              { kind: 'checked', out: { ...out, requestId: currentRequestId() } },
              chatKey(seatId, input),
              alone,
            )
          : await alone();
      return this.present(row!);
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
        if (stored) return this.present(stored);
      }
      throw err;
    }
  }

  /**
   * A customer's message to one of the seat accounts (the platform bridge, the CLI's
   * `chat:receive`). The chat is created in the owning seat's Ungrouped group on first contact;
   * a blocked chat takes nothing. Raises the chat's unread count by one. A message may carry
   * a media already stored for the owning seat (`mediaId`, else 400001); its type is then the
   * media's kind unless given (and must fit it); `content` is the caption.
   */
  async receive(
    input: {
      sendPhone: string;
      receiverPhone: string;
      content: string;
      mediaId?: string;
      type?: MessageType;
      at?: number;
      /** The channel's id of the message (stored with it). */
      externalId?: string;
      /** The account of sendPhone, when the caller has just read it. */
      account?: PhoneAccountRow;
    },
    db: Db = this.db,
  ): Promise<
    | { message: ChatMessage; seatId: number; sessionId: number; sessionCreated: boolean }
    | { blocked: true; seatId: number }
  > {
    const account = input.account ?? (await accountsRepository.findByPhone(db, input.sendPhone));
    if (!account || account.seat_id === null) throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    const seatId = account.seat_id;
    const now = input.at ?? Date.now();
    return inTransaction(db, async (trx) => {
      let session = await sessionsRepository.findByPhones(
        trx,
        seatId,
        input.sendPhone,
        input.receiverPhone,
      );
      if (session && (session.blocked === 1 || session.group_type === 'blocked')) {
        return { blocked: true as const, seatId };
      }
      let type: MessageType = input.type ?? 'text';
      let media = null;
      if (input.mediaId !== undefined) {
        if (type === 'text') {
          // Each media kind has the message type of the same name.
          type = (await this.media.ownedFor(trx, seatId, input.mediaId, ANY_KIND)).kind;
        }
        media = await this.mediaFor(trx, seatId, type, input.mediaId);
      } else if (type !== 'text') {
        throw invalidField('media_id', 'required');
      }
      const sessionCreated = !session;
      if (!session) {
        const ungrouped = await groupsRepository.findByType(trx, seatId, 'ungrouped');
        if (!ungrouped) throw new Error(`seat ${seatId} has no ungrouped group`);
        const created = await sessionsRepository.insert(trx, {
          seat_id: seatId,
          send_phone: input.sendPhone,
          receiver_phone: input.receiverPhone,
          group_id: ungrouped.id,
          prev_group_id: null,
          is_top: 0,
          remark: '',
          un_read_count: 0,
          add_time: now,
          latest_time: now,
          last_direction: null,
          last_preview: null,
          last_type: null,
          customer_language: null,
          blocked: 0,
        });
        session = { ...created, group_type: 'ungrouped' };
      }
      const row = await messagesRepository.insert(trx, {
        session_id: session.id,
        seat_id: seatId,
        client_msg_id: null,
        direction: 'in',
        type,
        content: input.content,
        media: media ? JSON.stringify(toStoredMedia(media)) : null,
        media_id: media?.media_id ?? null,
        status: 'delivered',
        created_at: now,
        deleted_for_me: 0,
        deleted_for_all: 0,
        ...(input.externalId !== undefined ? { external_id: input.externalId } : {}),
      });
      const updated = await sessionsRepository.recordIncoming(trx, session.id, {
        time: now,
        preview: previewOf(row),
        type,
      });
      const message = this.present(row);
      // First contact: the chat appears, then its first message.
      await this.events.messageReceived(trx, seatId, message, updated, sessionCreated);
      return { message, seatId, sessionId: session.id, sessionCreated };
    });
  }

  /**
   * A customer sends a file (the CLI's `chat:receive --file`): stored for the seat holding the
   * account through the same checks as an upload, then received like any message.
   */
  async receiveFile(input: {
    sendPhone: string;
    receiverPhone: string;
    content: string;
    filePath: string;
    kind?: MediaKind;
  }) {
    const account = await accountsRepository.findByPhone(this.db, input.sendPhone);
    if (!account || account.seat_id === null) throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    const media = await this.media.storeFile(account.seat_id, input.filePath, input.kind);
    return this.receive({ ...input, mediaId: media.media_id });
  }

  /**
   * 'me' hides the message for this seat (unread counts unaffected); 'all' retracts an outgoing
   * message within PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES of sending (else 400003). Repeating a
   * delete answers success. The chat's preview follows its newest message still shown.
   */
  async remove(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/del_message'>,
  ): Promise<CallResponse<'/v1/seat/chat/del_message'>> {
    const message = await messagesRepository.findForSeat(this.db, seatId, input.msg_id);
    const answer = { msg_id: input.msg_id, scope: input.scope };
    if (!message) throw notFound();
    if (input.scope === 'me') {
      if (message.deleted_for_me === 1) return answer;
    } else {
      // Hidden for this seat already: it no longer exists for it.
      if (message.deleted_for_me === 1) throw notFound();
      if (message.deleted_for_all === 1) return answer;
      if (message.direction !== 'out') {
        throw new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, { reason: 'not_outgoing' });
      }
      const windowMs = this.config.deleteForAllWindowMinutes * 60_000;
      if (Date.now() - message.created_at > windowMs) {
        throw new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, {
          reason: 'window_passed',
          window_minutes: this.config.deleteForAllWindowMinutes,
        });
      }
    }
    await inTransaction(this.db, async (trx) => {
      if (input.scope === 'all') return this.retract(trx, message, 'seat');
      await messagesRepository.hideForMe(trx, message.id);
      await this.refreshLastMessage(trx, message.session_id);
      await this.events.messageDeleted(trx, seatId, message.session_id, message.id);
      await this.events.sessionUpdated(trx, seatId, message.session_id);
    });
    return answer;
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
  };
}

/** A chat's key in PostgreSQL's batches: its seat and numbers (sends of one chat never overlap). */
function chatKey(seatId: number, input: { send_phone: string; receiver_phone: string }): string {
  return `${seatId}|${input.send_phone}|${input.receiver_phone}`;
}

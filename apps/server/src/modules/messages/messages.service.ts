import {
  channelAbilities,
  ERROR_CODES,
  type CallRequest,
  type ChannelName,
  type CallResponse,
  type ChatMessage,
  type MediaKind,
  type MessageType,
} from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import type { MessageRow } from '../../db/schema.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import type { MediaService } from '../media/media.service.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { previewOf, toChatMessage } from './messages.presenter.js';
import { messagesRepository } from './messages.repository.js';
import { afterCommit, inTransaction } from '../../lib/tx.js';
import type { OutboxWriter } from '../outbox/outbox-writer.js';
import type { SeatEvents } from '../events/seat-events.js';
import type { MessageWriter } from './message-writer.js';
import type { TeamReplyGuard } from '../teams/team-replies.js';
import type { InboundWriter } from './inbound-writer.js';

export type { InboundQuote } from './receive-one.js';

/** A chat an operator has just read. */
export interface ChatRead {
  seatId: number;
  sessionId: number;
  sendPhone: string;
  receiverPhone: string;
}

/** A chat read, told to the channel of its account. */
export type ChatReadHook = (channel: ChannelName, chat: ChatRead) => Promise<void>;

export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'deleteForAllWindowMinutes'>,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
    private readonly outbox: OutboxWriter,
    /** How operators' messages are written on this database (services.ts chooses it). */
    readonly writer: MessageWriter,
    /** The door customers' messages come in by (services.ts chooses it likewise). */
    private readonly inbound: InboundWriter,
    /**
     * Told (after the commit, not awaited) when an operator opens a chat with unread customer
     * messages: its channel's `chatRead` (channels/channel-module.ts), wired in services.ts.
     */
    private readonly chatRead: ChatReadHook = async () => undefined,
  ) {}

  private present = (row: MessageRow) => toChatMessage(row, this.media.urls);

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
      const read: ChatRead = {
        seatId,
        sessionId: session.id,
        sendPhone: input.send_phone,
        receiverPhone: input.receiver_phone,
      };
      const account = await accountsRepository.findByPhone(this.db, input.send_phone);
      if (account) void this.chatRead(account.channel, read).catch(() => undefined);
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
   * The one way a message is retracted ("deleted for all"), inside the caller's transaction:
   * by the seat (del_message: the customer's channel is told through the outbox) or by the
   * channel (the customer deleted it there: nothing to tell). Its content goes, the chat's
   * preview follows, and the events commit with the change.
   */
  async retract(trx: Db, message: MessageRow, by: 'seat' | 'channel'): Promise<void> {
    const seatId = message.seat_id;
    await messagesRepository.deleteForAll(trx, message.id);
    // Its replies now quote a deleted message (each console patches what it holds).
    await messagesRepository.forgetQuotesOf(trx, message.id);
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

  /**
   * A customer's reaction to a message of their chat, inside the caller's transaction (a
   * channel's inbound: WhatsApp's `reaction`; generic, so any channel that carries reactions
   * can feed it): kept on the message (null: removed) and pushed to the seat's consoles as the
   * message updated. A message of another chat, a retracted one, or the reaction it already
   * has changes nothing. Answers whether it changed.
   */
  async react(
    trx: Db,
    input: { sendPhone: string; receiverPhone: string; msgId: number; reaction: string | null },
  ): Promise<boolean> {
    const account = await accountsRepository.findByPhone(trx, input.sendPhone);
    if (!account || account.seat_id === null) return false;
    const seatId = account.seat_id;
    const session = await sessionsRepository.findByPhones(
      trx,
      seatId,
      input.sendPhone,
      input.receiverPhone,
    );
    const message = session && (await messagesRepository.findForSeat(trx, seatId, input.msgId));
    if (!message || message.session_id !== session.id || message.deleted_for_all === 1) {
      return false;
    }
    if ((message.reaction ?? null) === input.reaction) return false;
    await messagesRepository.setReaction(trx, message.id, input.reaction);
    // Hidden for this seat: its consoles no longer hold it.
    if (message.deleted_for_me === 0) {
      await this.events.messageUpdated(
        trx,
        seatId,
        this.present({ ...message, reaction: input.reaction }),
      );
    }
    return true;
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

  /** An operator's send, written the database's way (MessageWriter: the rules, the replay). */
  async send(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/message'>,
  ): Promise<CallResponse<'/v1/seat/chat/message'>> {
    // A team chat's reply soon after another member's asks first (409005); services.ts wires it.
    const team = (await this.replyGuard?.check(seatId, input)) ?? false;
    const row = await this.writer.send(seatId, input);
    if (team) await this.replyGuard!.recorded(seatId, input, Number(row.created_at));
    return this.present(row);
  }

  /** Team accounts' rule on replies close together (TeamReplyGuard); none: no rule (the CLI). */
  replyGuard: TeamReplyGuard | null = null;

  /**
   * A customer's message to one of the seat accounts without an id of its channel (the CLI's
   * `chat:receive`), through the inbound door as every channel's: the chat is created in the
   * owning seat's Ungrouped group on first contact; a blocked chat takes nothing. Raises the
   * chat's unread count by one. A message may carry a media already stored for the owning seat
   * (`mediaId`, else 400001); its type is then the media's kind unless given (and must fit
   * it); `content` is the caption. A message the receive rules refuse is 100001.
   */
  async receive(input: {
    sendPhone: string;
    receiverPhone: string;
    content: string;
    mediaId?: string;
    type?: MessageType;
    at?: number;
    /** The customer's display name as the channel gives it: kept on the chat. */
    customerName?: string;
  }): Promise<
    | { message: ChatMessage; seatId: number; sessionId: number; sessionCreated: boolean }
    | { blocked: true; seatId: number }
  > {
    const account = await accountsRepository.findByPhone(this.db, input.sendPhone);
    if (!account || account.seat_id === null) throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    const outcome = await this.inbound.write({
      ...input,
      channel: account.channel,
      seatId: account.seat_id,
      type: input.type ?? 'text',
      at: input.at ?? Date.now(),
    });
    switch (outcome.kind) {
      case 'stored':
        return {
          message: outcome.message,
          seatId: outcome.seatId,
          sessionId: outcome.sessionId,
          sessionCreated: outcome.chatCreated,
        };
      case 'blocked':
        return { blocked: true, seatId: outcome.seatId };
      case 'refused':
        throw invalidField(outcome.reason === 'unknown_type' ? 'type' : 'content', outcome.reason);
      default:
        // Without a key nothing is taken.
        throw new Error('a message without a key was found taken');
    }
  }

  /**
   * What a channel learned of a customer apart from a message (a profile photo fetched after
   * it, a profile recorded by hand): their name (empty: none) and their photo, a media of the
   * seat holding the account. Kept on their chat with the account, if it has one, and pushed.
   */
  async updateCustomer(input: {
    sendPhone: string;
    receiverPhone: string;
    name?: string;
    avatarMediaId?: string;
  }): Promise<void> {
    const account = await accountsRepository.findByPhone(this.db, input.sendPhone);
    if (!account || account.seat_id === null) return;
    const seatId = account.seat_id;
    const fields = {
      ...(input.name !== undefined ? { customer_name: input.name || null } : {}),
      ...(input.avatarMediaId !== undefined ? { customer_avatar: input.avatarMediaId } : {}),
    };
    if (Object.keys(fields).length === 0) return;
    await inTransaction(this.db, async (trx) => {
      const chat = { seatId, sendPhone: input.sendPhone, receiverPhone: input.receiverPhone };
      const row = await sessionsRepository.setCustomer(trx, chat, fields);
      if (row) await this.events.sessionUpdated(trx, seatId, row.id);
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
    const { sendPhone, receiverPhone, content } = input;
    return this.receive({ sendPhone, receiverPhone, content, mediaId: media.media_id });
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
      // A channel that cannot withdraw a delivered message (its `deleteForEveryone` ability,
      // WhatsApp's for a business) refuses; "delete for me" stays.
      const channel = await accountsRepository.channelOfChat(this.db, message.session_id);
      if (channel !== undefined && !channelAbilities(channel).deleteForEveryone) {
        throw new AppError(ERROR_CODES.PERMISSION_FAILED, undefined, {
          reason: 'channel_cannot_delete',
        });
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

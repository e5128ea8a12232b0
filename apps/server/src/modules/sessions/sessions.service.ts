import {
  ERROR_CODES,
  RECENT_WINDOW_MS,
  type CallRequest,
  type CallResponse,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { PhoneAccountRow, SessionRow } from '../../db/schema.js';
import { AppError, forbidden, invalidField, notFound } from '../../lib/app-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import type { SeatEvents } from '../events/seat-events.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { groupsRepository } from '../groups/groups.repository.js';
import type { GroupsService } from '../groups/groups.service.js';
import type { MediaUrls } from '../media/media-urls.js';
import { previewOf, toChatMessage } from '../messages/messages.presenter.js';
import { messagesRepository } from '../messages/messages.repository.js';
import type { MessagesService } from '../messages/messages.service.js';
import { SerializedAnswer } from '../../lib/list-cache.js';
import { readGroupInfo, type ChatListReader } from './chat-list-reader.js';
import { CHAT_BLOCKED } from './chat-blocked.js';
import { createChat } from './create-chat.js';
import { REPLY_WINDOW } from './reply-window.js';
import { toSessionItem } from './sessions.presenter.js';
import { sessionsRepository } from './sessions.repository.js';

type SessionWithGroup = SessionRow & { group_type: string };

const isBlocked = (session: SessionWithGroup): boolean => CHAT_BLOCKED.is(session);

/** Whether a channel can open a chat with this customer (ChannelRegistry.canOpenChat). */
export type CanOpenChat = (
  db: Db,
  account: PhoneAccountRow,
  receiverPhone: string,
) => Promise<boolean>;

/** addSession's greeting as asked: a text, or a template (WhatsApp). */
export type GreetingInput = Pick<CallRequest<'/v1/seat/chat/addSession'>, 'greeting' | 'template'>;

/** What the greeting is on the account's channel (channels/: ChannelAdapter.greeting). */
export interface Greeting {
  content: string;
  /** Kept with the message as it is written (its id known), in the same transaction. */
  record?: (trx: Db, msgId: number) => Promise<void>;
}

/** addSession's greeting on the account's channel (ChannelRegistry.greeting). */
export type GreetingOf = (
  db: Db,
  account: PhoneAccountRow,
  input: GreetingInput,
) => Promise<Greeting>;

export class SessionsService {
  constructor(
    private readonly db: Db,
    private readonly groups: GroupsService,
    private readonly urls: MediaUrls,
    private readonly events: SeatEvents,
    private readonly messages: MessagesService,
    /** getGroupInfo's page, total and list version as this database reads them best. */
    private readonly lists: ChatListReader,
    /** Whether the account's channel can reach a customer who has not written (channels/). */
    private readonly canOpenChat: CanOpenChat = async () => true,
    /** What the greeting is on the account's channel (a WhatsApp template: channels/). */
    private readonly greetingOf: GreetingOf = async (_db, _account, input) => ({
      content: input.greeting ?? '',
    }),
  ) {}

  private present(row: SessionRow) {
    return toSessionItem(row, Date.now() - RECENT_WINDOW_MS, this.urls);
  }

  /** One change of a chat and its events, together. */
  private async change(
    seatId: number,
    sessionId: number,
    set: Parameters<typeof sessionsRepository.update>[3],
    groupsChanged = false,
  ) {
    return inTransaction(this.db, async (trx) => {
      const row = await sessionsRepository.update(trx, seatId, sessionId, set).catch((err) => {
        // Into a group deleted since it was checked (a racing doGroup del).
        if (isForeignKeyViolation(err)) throw notFound();
        throw err;
      });
      // Deleted since it was checked (a racing delSession).
      if (!row) throw notFound();
      await this.events.sessionUpdated(trx, seatId, sessionId);
      if (groupsChanged) await this.events.groupsChanged(trx, seatId);
      return row;
    });
  }

  /** getGroupInfo read whole (the page, its total), never from the cache. */
  groupInfo(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/getGroupInfo'>,
    now = Date.now(),
  ): Promise<CallResponse<'/v1/seat/chat/getGroupInfo'>> {
    return readGroupInfo(this.db, this.urls, seatId, input, now);
  }

  /**
   * getGroupInfo's answer, serialised. An unchanged page (the seat's list version the same, no
   * chat of the group out of the last 24 hours since) is answered from the bytes of the last
   * time, as the database's ChatListReader reads it (with no query while KnownVersions trusts
   * the version). A keyword search and a label's filter are always read.
   */
  async groupInfoAnswer(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/getGroupInfo'>,
  ): Promise<SerializedAnswer> {
    // A keyword or a label filters whole: read each time (its exact count too).
    if (input.keyword || input.label_id !== undefined) {
      return SerializedAnswer.of(await this.groupInfo(seatId, input));
    }
    return this.lists.answer(seatId, input);
  }

  /** A chat of this seat; another seat's chat answers 400001 like a missing one. */
  private async requireSession(seatId: number, sessionId: number): Promise<SessionWithGroup> {
    const session = await sessionsRepository.findForSeat(this.db, seatId, sessionId);
    if (!session) throw notFound();
    return session;
  }

  private async builtIn(seatId: number, type: 'ungrouped' | 'blocked') {
    const group = await groupsRepository.findByType(this.db, seatId, type);
    if (!group) throw new Error(`seat ${seatId} has no ${type} group`);
    return group;
  }

  /** Pin or unpin; pinning a pinned chat (or unpinning an unpinned one) just answers it. */
  async doTop(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/sessionDoTop'>,
  ): Promise<CallResponse<'/v1/seat/chat/sessionDoTop'>> {
    await this.requireSession(seatId, input.session_id);
    const row = await this.change(seatId, input.session_id, { is_top: input.is_top ? 1 : 0 });
    return this.present(row);
  }

  async setRemark(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/set_remark'>,
  ): Promise<CallResponse<'/v1/seat/chat/set_remark'>> {
    await this.requireSession(seatId, input.session_id);
    const row = await this.change(seatId, input.session_id, { remark: input.remark });
    return { session_id: row.id, remark: row.remark };
  }

  async getRemark(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/get_remark'>,
  ): Promise<CallResponse<'/v1/seat/chat/get_remark'>> {
    const session = await this.requireSession(seatId, input.session_id);
    return { session_id: session.id, remark: session.remark };
  }

  /**
   * Into another of the seat's groups. Blocked is reached by block only and left by unblock
   * only (400003); the current group again is a parameter error naming group_id.
   */
  async move(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/moveSessionGroup'>,
  ): Promise<CallResponse<'/v1/seat/chat/moveSessionGroup'>> {
    const session = await this.requireSession(seatId, input.session_id);
    const target = await this.groups.requireGroup(seatId, input.group_id);
    if (isBlocked(session) || target.type === 'blocked') throw forbidden();
    if (target.id === session.group_id) {
      throw invalidField('group_id', 'same as the current group');
    }
    const row = await this.change(seatId, session.id, { group_id: target.id }, true);
    return this.present(row);
  }

  /**
   * Mark unread: the count becomes at least 1 (an unread chat keeps its count, answered as it
   * is); the group list's counts follow in the same statement (017's triggers) and both are
   * pushed. Opening the chat reads it as usual (getChatRecord).
   */
  async markUnread(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/markUnread'>,
  ): Promise<CallResponse<'/v1/seat/chat/markUnread'>> {
    const session = await this.requireSession(seatId, input.session_id);
    if (session.un_read_count > 0) return this.present(session);
    const row = await inTransaction(this.db, async (trx) => {
      const marked = await sessionsRepository.markUnread(trx, seatId, session.id);
      if (!marked) return null;
      await this.events.sessionUpdated(trx, seatId, session.id);
      await this.events.groupsChanged(trx, seatId);
      return marked;
    });
    // Changed meanwhile (a message came, or it was deleted): answered as it is now.
    return this.present(row ?? (await this.requireSession(seatId, session.id)));
  }

  /** Idempotent: blocking a blocked chat answers it unchanged. */
  async block(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/block'>,
  ): Promise<CallResponse<'/v1/seat/chat/block'>> {
    const session = await this.requireSession(seatId, input.session_id);
    if (isBlocked(session)) return this.present(session);
    const blocked = await this.builtIn(seatId, 'blocked');
    const row = await this.change(
      seatId,
      session.id,
      { group_id: blocked.id, prev_group_id: session.group_id, blocked: 1 },
      true,
    );
    return this.present(row);
  }

  /** Back to Ungrouped (product.md); idempotent: unblocking an unblocked chat answers it. */
  async unblock(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/unblock'>,
  ): Promise<CallResponse<'/v1/seat/chat/unblock'>> {
    const session = await this.requireSession(seatId, input.session_id);
    if (!isBlocked(session)) return this.present(session);
    const ungrouped = await this.builtIn(seatId, 'ungrouped');
    const row = await this.change(
      seatId,
      session.id,
      { group_id: ungrouped.id, prev_group_id: null, blocked: 0 },
      true,
    );
    return this.present(row);
  }

  /** Hard delete of the chat and its messages; a later message from the number starts anew. */
  async remove(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/delSession'>,
  ): Promise<CallResponse<'/v1/seat/chat/delSession'>> {
    const session = await this.requireSession(seatId, input.session_id);
    await inTransaction(this.db, async (trx) => {
      await sessionsRepository.delete(trx, seatId, session.id);
      await this.events.sessionDeleted(trx, seatId, session.id);
      await this.events.groupsChanged(trx, seatId);
    });
    return { session_id: session.id };
  }

  /**
   * Start a chat from one of the seat's accounts with a greeting as its first message, stored
   * once per client_msg_id (a retry answers the stored chat and message).
   */
  async add(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/addSession'>,
  ): Promise<CallResponse<'/v1/seat/chat/addSession'>> {
    const replay = await this.replay(seatId, input.client_msg_id);
    if (replay) return replay;

    const account = await accountsRepository.findByPhone(this.db, input.send_phone);
    if (!account) throw forbidden();
    // A team account's member starts a chat on its number too, and holds it (issue 35).
    if (
      account.seat_id !== seatId &&
      !(await accountsRepository.isTeamMember(this.db, account.id, seatId))
    )
      throw forbidden();
    if (await accountsRepository.findByPhone(this.db, input.receiver_phone)) {
      throw new AppError(ERROR_CODES.RENTED_ACCOUNTS_CANNOT_CHAT);
    }
    if (await sessionsRepository.findAnyByPhones(this.db, input.send_phone, input.receiver_phone)) {
      return this.replayOrExists(seatId, input.client_msg_id);
    }
    // Some channels cannot open a chat with someone who never wrote (ChannelAdapter's
    // canOpenChat): the target is not found.
    if (!(await this.canOpenChat(this.db, account, input.receiver_phone))) {
      throw new AppError(ERROR_CODES.TARGET_NOT_FOUND);
    }
    const ungrouped = await this.builtIn(seatId, 'ungrouped');
    // A WhatsApp greeting is a template, checked against the number's list before anything is
    // stored.
    const greeting = await this.greetingOf(this.db, account, input);

    const now = Date.now();
    try {
      const { session, message } = await inTransaction(this.db, async (trx) => {
        const session = await createChat(trx, {
          seatId,
          sendPhone: input.send_phone,
          receiverPhone: input.receiver_phone,
          ungrouped,
          at: now,
          // Opened by the operator: on a channel with a reply window only a template goes
          // until the customer answers.
          replyUntil: REPLY_WINDOW.unopened(account.channel),
          last: {
            last_direction: 'out',
            last_preview: previewOf({ type: 'text', content: greeting.content, media: null }),
            last_type: 'text',
          },
        });
        await this.events.sessionCreated(trx, seatId, session.id);
        // The greeting is an operator's message like any other: stored, queued for the
        // customer's channel and pushed, with the chat, in this transaction.
        const message = await this.messages.writer.write(trx, {
          session,
          channel: account.channel,
          clientMsgId: input.client_msg_id,
          type: 'text',
          content: greeting.content,
          media: null,
          at: now,
        });
        await greeting.record?.(trx, message.id);
        await this.events.groupsChanged(trx, seatId);
        // As it now is (an invitation link in the greeting moved it: link-pushed.ts).
        const stored = await sessionsRepository.findForSeat(trx, seatId, session.id);
        return { session: stored ?? session, message };
      });
      return { session: this.present(session), message: toChatMessage(message, this.urls) };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return this.replayOrExists(seatId, input.client_msg_id);
    }
  }

  /**
   * The chat exists: a racing retry of this client_msg_id may have created it since the first
   * look (then its stored chat and message are the answer), or another request did (500006).
   */
  private async replayOrExists(seatId: number, clientMsgId: string) {
    const stored = await this.replay(seatId, clientMsgId);
    if (stored) return stored;
    throw new AppError(ERROR_CODES.CHAT_EXISTS);
  }

  private async replay(seatId: number, clientMsgId: string) {
    const message = await messagesRepository.findByClientId(this.db, seatId, clientMsgId);
    if (!message) return null;
    const session = await sessionsRepository.findForSeat(this.db, seatId, message.session_id);
    if (!session) return null;
    return { session: this.present(session), message: toChatMessage(message, this.urls) };
  }
}

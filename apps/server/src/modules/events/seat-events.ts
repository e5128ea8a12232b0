import {
  RECENT_WINDOW_MS,
  type ChatMessage,
  type EventPayload,
  type Label,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { SessionRow } from '../../db/schema.js';
import { groupListOf, groupListsOf } from '../groups/group-list.js';
import { labelsRepository } from '../labels/labels.repository.js';
import { toSessionItem } from '../sessions/sessions.presenter.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { currentRequestId } from '../../lib/request-context.js';
import type { MediaUrls } from '../media/media-urls.js';
import { silentEventBus, type EventBus, type ManyEvent } from './event-bus.js';

/**
 * The events services publish, built from the database as the change left it. Call them with
 * the transaction that made the change (the event commits with it) and the seat it belongs to.
 */
export class SeatEvents {
  constructor(
    private readonly bus: EventBus = silentEventBus,
    /** Signs a chat's customer photo (absent: chats are pushed without one). */
    private readonly urls?: MediaUrls,
  ) {}

  /**
   * The chat as getGroupInfo lists it, or null when it is gone. `known`: the chat as the change
   * left it, when the caller has it (saves reading it again).
   */
  private async session(db: Db, seatId: number, sessionId: number, known?: SessionRow) {
    const row = known ?? (await sessionsRepository.findForSeat(db, seatId, sessionId));
    return row ? toSessionItem(row, Date.now() - RECENT_WINDOW_MS, this.urls) : null;
  }

  /** The chat as session() has it, with its labels (session.created, session.updated). */
  private async labelledSession(db: Db, seatId: number, sessionId: number) {
    const session = await this.session(db, seatId, sessionId);
    if (!session) return null;
    const labels = await labelsRepository.ofChats(db, [sessionId]);
    return { ...session, labels: labels.get(sessionId) ?? [] };
  }

  /** `row`: the chat as the change left it, when the caller has it (saves reading it again). */
  async messageCreated(
    db: Db,
    seatId: number,
    message: ChatMessage,
    row?: SessionRow,
  ): Promise<void> {
    const session = await this.session(db, seatId, message.session_id, row);
    if (session) await this.bus.publish(db, seatId, 'message.created', { message, session });
  }

  /** messageCreated of several sends at once (a group commit), each with its request's id. */
  async messagesCreated(
    db: Db,
    items: { seatId: number; message: ChatMessage; row: SessionRow; requestId: string | null }[],
  ): Promise<void> {
    const recentSince = Date.now() - RECENT_WINDOW_MS;
    const events = items.map((i) => ({
      seatId: i.seatId,
      type: 'message.created' as const,
      data: { message: i.message, session: toSessionItem(i.row, recentSince, this.urls) },
      requestId: i.requestId,
    }));
    return this.publishAll(db, events);
  }

  /**
   * A customer's message: the chat when it is new, the message, then the seat's groups (their
   * unread counts moved), recorded together. `row`: the chat as the message left it.
   */
  async messageReceived(
    db: Db,
    seatId: number,
    message: ChatMessage,
    row: SessionRow | undefined,
    chatCreated: boolean,
  ): Promise<void> {
    const session = await this.session(db, seatId, message.session_id, row);
    const requestId = currentRequestId();
    const events: ManyEvent[] = [];
    if (session) {
      // A chat just made has no labels yet (session.created always says which).
      if (chatCreated)
        events.push({
          seatId,
          type: 'session.created',
          data: { session: { ...session, labels: [] } },
          requestId,
        });
      events.push({ seatId, type: 'message.created', data: { message, session }, requestId });
    }
    const groups = await groupListOf(db, seatId, false);
    events.push({ seatId, type: 'groups.changed', data: groups, requestId });
    return this.publishAll(db, events);
  }

  /**
   * messageReceived of a group commit's messages, recorded together: for each seat (in seat
   * order: its counter locks) the chats that are new, its messages in order, then its group
   * list; the seats' group lists in one read. `row`: the chat as that message left it; a new
   * chat is pushed as the batch's last message of it left it.
   */
  async messagesReceived(
    db: Db,
    items: {
      seatId: number;
      message: ChatMessage;
      row: SessionRow;
      chatCreated: boolean;
      requestId: string | null;
    }[],
  ): Promise<void> {
    if (items.length === 0) return;
    const recentSince = Date.now() - RECENT_WINDOW_MS;
    const seats = [...new Set(items.map((i) => i.seatId))].sort((a, b) => a - b);
    const lists = await groupListsOf(db, seats);
    const lastRow = new Map(items.map((i) => [i.row.id, i.row]));
    const events: ManyEvent[] = [];
    for (const seatId of seats) {
      const ofSeat = items.filter((i) => i.seatId === seatId);
      for (const i of ofSeat) {
        if (!i.chatCreated) continue;
        // A chat just made has no labels yet (session.created always says which).
        const session = {
          ...toSessionItem(lastRow.get(i.row.id)!, recentSince, this.urls),
          labels: [],
        };
        events.push({ seatId, type: 'session.created', data: { session }, requestId: i.requestId });
      }
      for (const i of ofSeat) {
        const session = toSessionItem(i.row, recentSince, this.urls);
        events.push({
          seatId,
          type: 'message.created',
          data: { message: i.message, session },
          requestId: i.requestId,
        });
      }
      const requestId = ofSeat.at(-1)!.requestId;
      events.push({ seatId, type: 'groups.changed', data: lists.get(seatId)!, requestId });
    }
    return this.publishAll(db, events);
  }

  /**
   * An account's chats handed to seat `to` (account:assign): each other seat that held some
   * is told they are gone, `to` is told of each as it now is (new to it, or moved to its
   * Ungrouped group when it held it already); then each seat's group list. Recorded together,
   * the seats' group lists in one read.
   */
  async chatsHandedOver(
    db: Db,
    to: number,
    chats: SessionRow[],
    /** The seats that held the account's chats, with those chats' ids. */
    from: Map<number, number[]>,
  ): Promise<void> {
    if (chats.length === 0) return;
    return this.publishAll(db, await this.handedOverEvents(db, to, chats, from));
  }

  /**
   * A queued chat routed to a member (TeamsService's automatic routing): the hand-over from the
   * queue seat as chatsHandedOver tells it, team.assigned to the member, then the queue as it
   * now is to every member; in one statement where the bus can.
   */
  async chatRouted(
    db: Db,
    to: number,
    chat: SessionRow,
    queueSeatId: number,
    queue: { memberIds: number[]; now: EventPayload<'team.queue'> },
  ): Promise<void> {
    const events = await this.handedOverEvents(db, to, [chat], new Map([[queueSeatId, [chat.id]]]));
    const requestId = currentRequestId();
    const assigned = { session_id: chat.id, from: null, note: null };
    events.push({ seatId: to, type: 'team.assigned', data: assigned, requestId });
    events.push(...this.teamQueueEvents(queue.memberIds, queue.now, requestId));
    return this.publishAll(db, events);
  }

  private async handedOverEvents(
    db: Db,
    to: number,
    chats: SessionRow[],
    from: Map<number, number[]>,
  ): Promise<ManyEvent[]> {
    const requestId = currentRequestId();
    const seats = [...new Set([...from.keys(), to])].sort((a, b) => a - b);
    const lists = await groupListsOf(db, seats);
    const recentSince = Date.now() - RECENT_WINDOW_MS;
    const held = new Set(from.get(to));
    // The chats keep their labels: the receiver's rows show them (one read for all).
    const labels = await labelsRepository.ofChats(
      db,
      chats.map((c) => c.id),
    );
    const events: ManyEvent[] = [];
    for (const seatId of seats) {
      if (seatId === to) {
        for (const row of chats) {
          const session = {
            ...toSessionItem(row, recentSince, this.urls),
            labels: labels.get(row.id) ?? [],
          };
          const type = held.has(row.id) ? 'session.updated' : 'session.created';
          events.push({ seatId, type, data: { session }, requestId });
        }
      } else {
        for (const id of from.get(seatId)!) {
          events.push({ seatId, type: 'session.deleted', data: { session_id: id }, requestId });
        }
      }
      events.push({ seatId, type: 'groups.changed', data: lists.get(seatId)!, requestId });
    }
    return events;
  }

  /** In one statement where the bus can (PostgreSQL: one round trip), else one by one. */
  private async publishAll(db: Db, events: ManyEvent[]): Promise<void> {
    if (this.bus.publishMany) return this.bus.publishMany(db, events);
    for (const e of events) await this.bus.publish(db, e.seatId, e.type, e.data);
  }

  /**
   * message.created of a send before it is written, for a statement that records it with the
   * rows it writes (messagesRepository.sendTexts); null when the bus records no events.
   */
  messageCreatedDraft(
    message: ChatMessage,
    row: SessionRow,
  ): EventPayload<'message.created'> | null {
    if (!this.bus.recorded) return null;
    return { message, session: toSessionItem(row, Date.now() - RECENT_WINDOW_MS, this.urls) };
  }

  /** Events such a statement recorded for these seats have committed: push them. */
  recorded(seatIds: Iterable<number>): void {
    for (const seatId of seatIds) this.bus.recorded?.(seatId);
  }

  /** A team account's queue as it now is, to each of its members (team.queue). */
  teamQueue(db: Db, seatIds: number[], queue: EventPayload<'team.queue'>): Promise<void> {
    return this.publishAll(db, this.teamQueueEvents(seatIds, queue, currentRequestId()));
  }

  private teamQueueEvents(
    seatIds: number[],
    queue: EventPayload<'team.queue'>,
    requestId: string | null,
  ): ManyEvent[] {
    const sorted = [...seatIds].sort((a, b) => a - b);
    return sorted.map((seatId) => ({
      seatId,
      type: 'team.queue' as const,
      data: queue,
      requestId,
    }));
  }

  /** A team chat given to this seat (by a member, or by routing): team.assigned. */
  teamAssigned(db: Db, seatId: number, data: EventPayload<'team.assigned'>): Promise<void> {
    return this.bus.publish(db, seatId, 'team.assigned', data);
  }

  /** A private note written in a team chat, to the seats that see the chat. */
  teamNote(db: Db, seatIds: number[], note: EventPayload<'team.note'>): Promise<void> {
    const requestId = currentRequestId();
    const sorted = [...new Set(seatIds)].sort((a, b) => a - b);
    return this.publishAll(
      db,
      sorted.map((seatId) => ({ seatId, type: 'team.note' as const, data: note, requestId })),
    );
  }

  messageUpdated(db: Db, seatId: number, message: ChatMessage): Promise<void> {
    return this.bus.publish(db, seatId, 'message.updated', { message });
  }

  /** Delivery status of an outgoing message (outbox worker, channels' receipts). */
  messageStatus(db: Db, seatId: number, message: EventPayload<'message.status'>): Promise<void> {
    return this.bus.publish(db, seatId, 'message.status', message);
  }

  messageDeleted(db: Db, seatId: number, sessionId: number, msgId: number): Promise<void> {
    return this.bus.publish(db, seatId, 'message.deleted', {
      session_id: sessionId,
      msg_id: msgId,
    });
  }

  async sessionCreated(db: Db, seatId: number, sessionId: number): Promise<void> {
    const session = await this.labelledSession(db, seatId, sessionId);
    if (session) await this.bus.publish(db, seatId, 'session.created', { session });
  }

  async sessionUpdated(db: Db, seatId: number, sessionId: number): Promise<void> {
    const session = await this.labelledSession(db, seatId, sessionId);
    if (session) await this.bus.publish(db, seatId, 'session.updated', { session });
  }

  sessionMuted(db: Db, seatId: number, sessionId: number, muted: boolean): Promise<void> {
    return this.bus.publish(db, seatId, 'session.muted', { session_id: sessionId, muted });
  }

  sessionDeleted(db: Db, seatId: number, sessionId: number): Promise<void> {
    return this.bus.publish(db, seatId, 'session.deleted', { session_id: sessionId });
  }

  /** These chats were read at once (their unread counts are now 0). */
  async sessionsRead(db: Db, seatId: number, sessionIds: number[]): Promise<void> {
    if (sessionIds.length > 0) {
      await this.bus.publish(db, seatId, 'sessions.read', { session_ids: sessionIds });
    }
  }

  /** The group list with its unread counts, as getGroupList answers it without a filter. */
  async groupsChanged(db: Db, seatId: number): Promise<void> {
    await this.bus.publish(db, seatId, 'groups.changed', await groupListOf(db, seatId, false));
  }

  /** The owner changed the labels (issue 35): the labels as they now are, to every seat. */
  labelsChanged(db: Db, seatIds: number[], labels: Label[]): Promise<void> {
    const requestId = currentRequestId();
    return this.publishAll(
      db,
      seatIds.map((seatId) => ({
        seatId,
        type: 'labels.changed' as const,
        data: { labels },
        requestId,
      })),
    );
  }

  batchProgress(db: Db, seatId: number, status: EventPayload<'batch.progress'>): Promise<void> {
    return this.bus.publish(db, seatId, 'batch.progress', status);
  }
}

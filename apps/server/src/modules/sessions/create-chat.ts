import type { Db } from '../../db/database.js';
import type { GroupRow, SessionRow } from '../../db/schema.js';
import { sessionsRepository } from './sessions.repository.js';

interface NewChat {
  seatId: number;
  sendPhone: string;
  receiverPhone: string;
  ungroupedId: number;
  at: number;
  last?: Pick<SessionRow, 'last_direction' | 'last_preview' | 'last_type'>;
  /** Its reply window (REPLY_WINDOW.unopened); absent: none, a customer's message sets it. */
  replyUntil?: number | null;
}

/**
 * A new chat's row: in the seat's Ungrouped group, unread, unpinned, unblocked. `last`: the
 * message it starts with when the caller knows it already (addSession's greeting). Also the
 * rows a group commit of inbound messages inserts together.
 */
export function newChatRow(chat: NewChat) {
  return {
    seat_id: chat.seatId,
    send_phone: chat.sendPhone,
    receiver_phone: chat.receiverPhone,
    group_id: chat.ungroupedId,
    prev_group_id: null,
    is_top: 0,
    remark: '',
    un_read_count: 0,
    add_time: chat.at,
    latest_time: chat.at,
    last_direction: chat.last?.last_direction ?? null,
    last_preview: chat.last?.last_preview ?? null,
    last_type: chat.last?.last_type ?? null,
    customer_language: null,
    blocked: 0,
    reply_until: chat.replyUntil ?? null,
  } satisfies Parameters<typeof sessionsRepository.insert>[1];
}

/**
 * The one way a chat is created (a customer's first message, addSession), inside the
 * caller's transaction (newChatRow).
 */
export async function createChat(
  trx: Db,
  chat: Omit<NewChat, 'ungroupedId'> & { ungrouped: Pick<GroupRow, 'id' | 'type'> },
): Promise<SessionRow & { group_type: GroupRow['type'] }> {
  const created = await sessionsRepository.insert(
    trx,
    newChatRow({ ...chat, ungroupedId: chat.ungrouped.id }),
  );
  return { ...created, group_type: chat.ungrouped.type };
}

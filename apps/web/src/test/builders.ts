import type { InfiniteData } from '@tanstack/react-query';
import type { ChatMessage, SessionItem } from '@parley/protocol';
import type { StorageLike } from '../lib/storage';
import type {
  ChatData,
  ChatPage,
  ChatWindowData,
  WindowParam,
} from '../features/messages/api/message-cache';
import type { LocalMessage } from '../features/messages/local-messages.store';
import type { GroupListData, SessionPage } from '../features/sessions/api/session-cache';

/** The web unit tests' one set of builders: valid protocol objects, overridden per test. */

export function chatMessage(msg_id: number, patch: Partial<ChatMessage> = {}): ChatMessage {
  return {
    msg_id,
    session_id: 1,
    client_msg_id: null,
    direction: 'out',
    type: 'text',
    content: `message ${msg_id}`,
    original_content: null,
    media: null,
    status: 'sent',
    fail_reason: null,
    created_at: msg_id,
    deleted: false,
    reply_to: null,
    quote: null,
    reaction: null,
    ...patch,
  };
}

let localCount = 0;

/** A local insert (an operator's message not yet acknowledged), with its own client id. */
export function localMessage(session_id: number, patch: Partial<LocalMessage> = {}): LocalMessage {
  localCount += 1;
  return {
    ...chatMessage(0, { session_id, created_at: 1_700_000_000_000 + localCount }),
    client_msg_id: `web_test_${String(localCount).padStart(4, '0')}`,
    content: `text ${localCount}`,
    status: 'pending',
    isLocalInsert: true,
    send_phone: '+100000',
    receiver_phone: '+200000',
    error: null,
    ...patch,
  };
}

export function sessionItem(session_id: number, patch: Partial<SessionItem> = {}): SessionItem {
  return {
    session_id,
    send_phone: '+100000',
    receiver_phone: `+2000${session_id}`,
    un_read_count: 0,
    add_time: 1,
    latest_time: 2,
    group_id: 1,
    is_top: false,
    remark: '',
    blocked: false,
    customer_name: null,
    avatar_url: null,
    user_time_type: 1,
    customer_language: null,
    last_message: null,
    can_reply: true,
    reply_until: null,
    ...patch,
  };
}

export function chatPage(
  list: ChatMessage[],
  patch: Partial<Omit<ChatPage, 'list'>> = {},
): ChatPage {
  return { list, has_more: false, has_newer: false, ...patch };
}

/** A live record: pages newest first. */
export function recordData(...pages: ChatPage[]): ChatData {
  return { pages, pageParams: pages.map((_, i) => (i === 0 ? null : i)) };
}

/** A window at a hit: pages oldest first. */
export function windowData(hit: number, ...pages: ChatPage[]): ChatWindowData {
  return { pages, pageParams: pages.map((): WindowParam => ({ around_id: hit })) };
}

export function sessionList(...items: SessionItem[]): InfiniteData<SessionPage> {
  return {
    pages: [{ account_list: items, total: items.length, next_cursor: null }],
    pageParams: [null],
  };
}

export function groupList(patch: Partial<GroupListData> = {}): GroupListData {
  return {
    group_list: [],
    seat_one_seat_msg_count: 0,
    seat_two_seat_msg_count: 0,
    un_read_count: 0,
    ...patch,
  };
}

/** A Map-backed localStorage, optionally holding JSON items. */
export function memoryStore(
  init: Record<string, unknown> = {},
): StorageLike & { map: Map<string, string> } {
  const map = new Map(Object.entries(init).map(([k, v]) => [k, JSON.stringify(v)]));
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

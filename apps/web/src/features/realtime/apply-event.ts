import type { QueryClient } from '@tanstack/react-query';
import type { ChatMessage, EventPayload, PushEvent } from '@parley/protocol';
import { writeItem } from '../../lib/storage';
import { appendServerMessage, chatKey, type ChatData } from '../chat/api/chat-queries';
import { appendToChatWindows } from '../chat/api/chat-window-query';
import { groupListKey } from '../groups/api/group-queries';
import {
  applySessionRemoved,
  applySessionsRead,
  applySessionUpdate,
} from '../session-actions/api/session-cache';

/** Any cached form of a chat (the record, a window at a search hit): pages of messages. */
interface MessagePages {
  pages: { list: ChatMessage[] }[];
}

/** Each cached page of the chat with `edit` applied to its messages (untouched when equal). */
export function editMessages(
  data: MessagePages | undefined,
  edit: (list: ChatMessage[]) => ChatMessage[],
): MessagePages | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    const list = edit(page.list);
    if (list === page.list) return page;
    changed = true;
    return { ...page, list };
  });
  return changed ? { ...data, pages } : data;
}

export function replaceMessage(list: ChatMessage[], msgId: number, patch: Partial<ChatMessage>) {
  if (!list.some((m) => m.msg_id === msgId)) return list;
  return list.map((m) => (m.msg_id === msgId ? { ...m, ...patch } : m));
}

export function dropMessage(list: ChatMessage[], msgId: number) {
  return list.some((m) => m.msg_id === msgId) ? list.filter((m) => m.msg_id !== msgId) : list;
}

function editChat(qc: QueryClient, sessionId: number, edit: (l: ChatMessage[]) => ChatMessage[]) {
  qc.setQueriesData<MessagePages>({ queryKey: chatKey(sessionId) }, (d) => editMessages(d, edit));
}

// A push carries the whole change: the chat is placed in the cached lists, and the group
// list's counts come in their own event (groups.changed) when they change. Nothing is refetched.
const PUSHED = { refetchGroups: false, refetchSessions: false };

/** What the console does besides the caches (the open chat's reading, the attention). */
export interface EventEffects {
  onCustomerMessage(data: EventPayload<'message.created'>): void;
}

/**
 * Upserts one pushed event into the TanStack Query caches, by id: a message already held (the
 * outbox's own answer, a refetch) is not added twice, and a local insert is hidden by its
 * client_msg_id as soon as the server's copy is in the record.
 */
export function applyEvent(qc: QueryClient, event: PushEvent, effects: EventEffects): void {
  switch (event.type) {
    case 'message.created': {
      const data = event.data as EventPayload<'message.created'>;
      qc.setQueryData<ChatData>(chatKey(data.session.session_id), (d) =>
        appendServerMessage(d, data.message),
      );
      appendToChatWindows(qc, data.message);
      applySessionUpdate(qc, data.session, PUSHED);
      if (data.message.direction === 'in') effects.onCustomerMessage(data);
      return;
    }
    case 'message.updated': {
      const { message } = event.data as EventPayload<'message.updated'>;
      editChat(qc, message.session_id, (l) => replaceMessage(l, message.msg_id, message));
      return;
    }
    case 'message.status': {
      const data = event.data as EventPayload<'message.status'>;
      editChat(qc, data.session_id, (l) => replaceMessage(l, data.msg_id, { status: data.status }));
      return;
    }
    case 'message.deleted': {
      const data = event.data as EventPayload<'message.deleted'>;
      editChat(qc, data.session_id, (l) => dropMessage(l, data.msg_id));
      return;
    }
    case 'session.created':
    case 'session.updated': {
      const { session } = event.data as EventPayload<'session.updated'>;
      applySessionUpdate(qc, session, PUSHED);
      return;
    }
    case 'session.deleted': {
      const { session_id } = event.data as EventPayload<'session.deleted'>;
      applySessionRemoved(qc, session_id, PUSHED);
      return;
    }
    case 'sessions.read': {
      const { session_ids } = event.data as EventPayload<'sessions.read'>;
      applySessionsRead(qc, session_ids);
      return;
    }
    case 'groups.changed': {
      const data = event.data as EventPayload<'groups.changed'>;
      qc.setQueryData(groupListKey(0), data);
      writeItem('groupList', data.group_list);
      // The "waiting for reply" counts are another filter: fetched anew.
      void qc.invalidateQueries({ queryKey: groupListKey(1) });
      return;
    }
    case 'batch.progress': {
      const data = event.data as EventPayload<'batch.progress'>;
      qc.setQueryData(['batchStatus', data.batch_id], data);
      return;
    }
  }
}

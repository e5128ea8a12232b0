import type { ChatMessage } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import type { ChatData } from '../../chat/api/chat-queries';

export type DeleteScope = 'me' | 'all';

/** del_message; errors are shown by the caller (the refusal after the window has a reason). */
export function deleteMessage(msg_id: number, scope: DeleteScope) {
  return callApi('/v1/seat/chat/del_message', { msg_id, scope }, { notify: false });
}

function mapMessages(
  data: ChatData | undefined,
  msgId: number,
  change: (list: ChatMessage[]) => ChatMessage[],
): ChatData | undefined {
  if (!data || !data.pages.some((p) => p.list.some((m) => m.msg_id === msgId))) return data;
  return { ...data, pages: data.pages.map((p) => ({ ...p, list: change(p.list) })) };
}

/** Deleted only for me: the message leaves this operator's chat. */
export function withoutMessage(data: ChatData | undefined, msgId: number) {
  return mapMessages(data, msgId, (list) => list.filter((m) => m.msg_id !== msgId));
}

/** Deleted for all: the message stays in place, shown as deleted, its content withheld. */
export function withMessageRetracted(data: ChatData | undefined, msgId: number) {
  return mapMessages(data, msgId, (list) =>
    list.map((m) => (m.msg_id === msgId ? { ...m, deleted: true, content: '', media: null } : m)),
  );
}

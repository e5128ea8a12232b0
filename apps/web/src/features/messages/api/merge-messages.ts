import type { ChatMessage } from '@parley/protocol';
import type { ChatPage } from './message-cache';
import type { LocalMessage } from '../local-messages.store';

export type DisplayMessage = (ChatMessage | LocalMessage) & { key: string };

/** Pages are newest first, each oldest-first: the chat reads oldest to newest. */
export function flattenPages(pages: readonly ChatPage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = pages.length - 1; i >= 0; i--) out.push(...(pages[i]?.list ?? []));
  return out;
}

/**
 * The chat as shown: the fetched record followed by the local inserts the record does not
 * hold yet (matched by client_msg_id). A refetched record that is shorter than what the
 * operator sees therefore never drops a locally inserted message (spec section 4).
 */
export function mergeMessages(
  fetched: readonly ChatMessage[],
  locals: readonly LocalMessage[],
): DisplayMessage[] {
  const known = new Set<string>();
  const out: DisplayMessage[] = fetched.map((m) => {
    if (m.client_msg_id) known.add(m.client_msg_id);
    return { ...m, key: `m${m.msg_id}` };
  });
  for (const l of locals) {
    if (!known.has(l.client_msg_id)) out.push({ ...l, key: `l${l.client_msg_id}` });
  }
  return out;
}

import { infiniteQueryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ChatMessage, SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import type { ChatPage } from './chat-queries';

/** Where a page of the window starts: around the hit, before (older) or after (newer) an id. */
export type WindowParam = { around_id: number } | { before_id: number } | { after_id: number };
export type ChatWindowData = InfiniteData<ChatPage, WindowParam>;

/** Under the chat's key, so refreshing the chat (a new message) refreshes its window too. */
export const chatWindowKey = (sessionId: number, msgId: number) =>
  ['chat', sessionId, 'window', msgId] as const;

/**
 * A chat read from one message outwards (Mattermost's "chunks"): the first page is centred on
 * the hit (`around_id`); older pages are fetched as previous pages (`before_id` the oldest held),
 * newer ones as next pages (`after_id` the newest held) until `has_newer` is false. Pages are
 * kept oldest first.
 */
export function chatWindowQuery(user: SessionItem, msgId: number) {
  return infiniteQueryOptions({
    queryKey: chatWindowKey(user.session_id, msgId),
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/getChatRecord',
        {
          receiver_phone: user.receiver_phone,
          send_phone: user.send_phone,
          group_id: user.group_id,
          ...pageParam,
        },
        { signal },
      ),
    initialPageParam: { around_id: msgId } as WindowParam,
    getPreviousPageParam: (first): WindowParam | undefined => {
      const oldest = first.list[0];
      return first.has_more && oldest ? { before_id: oldest.msg_id } : undefined;
    },
    getNextPageParam: (last): WindowParam | undefined => {
      const newest = last.list.at(-1);
      return last.has_newer && newest ? { after_id: newest.msg_id } : undefined;
    },
  });
}

/** All messages of the window, oldest first. */
export function flattenWindow(pages: readonly ChatPage[]): ChatMessage[] {
  return pages.flatMap((p) => p.list);
}

/**
 * Adds a sent message to the chat's windows that reach its newest message (once), as
 * appendServerMessage does for the newest-first record.
 */
export function appendToChatWindows(qc: QueryClient, msg: ChatMessage): void {
  qc.setQueriesData<ChatWindowData>({ queryKey: ['chat', msg.session_id, 'window'] }, (data) => {
    const last = data?.pages.at(-1);
    if (!data || !last || last.has_newer || last.list.some((m) => m.msg_id === msg.msg_id)) {
      return data;
    }
    return { ...data, pages: [...data.pages.slice(0, -1), { ...last, list: [...last.list, msg] }] };
  });
}

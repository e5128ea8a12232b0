import { infiniteQueryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { CallResponse, ChatMessage, SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export type ChatPage = CallResponse<'/v1/seat/chat/getChatRecord'>;
export type ChatData = InfiniteData<ChatPage, number | null>;

export const chatKey = (sessionId: number) => ['chat', sessionId] as const;

/**
 * The record of one chat, cached per chat so that switching is instant. Page 0 is the
 * newest; each next page is older (before_id = oldest msg_id held). Loading it clears the
 * chat's unread count on the server.
 */
export function chatRecordQuery(user: SessionItem) {
  return infiniteQueryOptions({
    queryKey: chatKey(user.session_id),
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/getChatRecord',
        {
          receiver_phone: user.receiver_phone,
          send_phone: user.send_phone,
          group_id: user.group_id,
          before_id: pageParam ?? undefined,
        },
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.has_more ? (last.list[0]?.msg_id ?? undefined) : undefined),
  });
}

/** Selecting a chat resets its list to the newest page (spec section 4). */
export function resetChatPages(qc: QueryClient, sessionId: number): void {
  qc.setQueryData<ChatData>(chatKey(sessionId), (old) =>
    old && old.pages.length > 1
      ? { pages: old.pages.slice(0, 1), pageParams: old.pageParams.slice(0, 1) }
      : old,
  );
}

/** Adds the server's copy of a sent message to the newest page (once). */
export function appendServerMessage(data: ChatData | undefined, msg: ChatMessage) {
  if (!data) return data;
  const [newest, ...rest] = data.pages;
  if (!newest || newest.list.some((m) => m.msg_id === msg.msg_id)) return data;
  return { ...data, pages: [{ ...newest, list: [...newest.list, msg] }, ...rest] };
}

import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { CallInput } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

/** Polling pace of batch_status while a batch is being sent. */
export const BATCH_POLL_MS = 1000;

export function sendBatch(input: CallInput<'/v1/seat/chat/batch_message'>) {
  return callApi('/v1/seat/chat/batch_message', input);
}

/** Progress and per-chat results, polled until every chat has been tried. */
export function batchStatusQuery(batchId: string) {
  return queryOptions({
    queryKey: ['batchStatus', batchId] as const,
    queryFn: ({ signal }) =>
      callApi('/v1/seat/chat/batch_status', { batch_id: batchId }, { signal, notify: false }),
    refetchInterval: (q) => (q.state.data?.done ? false : BATCH_POLL_MS),
  });
}

interface ChatsPage {
  tab: 1 | 2;
  cursor: string | null;
}

/**
 * Every chat of a group (both time tabs, the recent one first), keyset-paged, optionally
 * filtered by number, remark or name.
 */
export function groupChatsQuery(groupId: number, keyword: string) {
  return infiniteQueryOptions({
    queryKey: ['batchChats', groupId, keyword] as const,
    queryFn: async ({ pageParam, signal }) => {
      const page = await callApi(
        '/v1/seat/chat/getGroupInfo',
        {
          group_id: groupId,
          user_time_type: pageParam.tab,
          reply: 0,
          keyword: keyword || undefined,
          cursor: pageParam.cursor ?? undefined,
          page_size: 100,
        },
        { signal },
      );
      return { ...page, tab: pageParam.tab };
    },
    initialPageParam: { tab: 1, cursor: null } as ChatsPage,
    getNextPageParam: (last): ChatsPage | undefined =>
      last.next_cursor
        ? { tab: last.tab, cursor: last.next_cursor }
        : last.tab === 1
          ? { tab: 2, cursor: null }
          : undefined,
  });
}

/** How many chats a group has (both time tabs), optionally only those matching `keyword`. */
export function groupChatCountQuery(groupId: number, keyword: string) {
  return queryOptions({
    queryKey: ['batchChatCount', groupId, keyword] as const,
    queryFn: async ({ signal }) => {
      const count = (tab: 1 | 2) =>
        callApi(
          '/v1/seat/chat/getGroupInfo',
          {
            group_id: groupId,
            user_time_type: tab,
            reply: 0,
            keyword: keyword || undefined,
            page_size: 1,
          },
          { signal },
        ).then((p) => p.total);
      const [recent, earlier] = await Promise.all([count(1), count(2)]);
      return recent + earlier;
    },
    staleTime: 10_000,
  });
}

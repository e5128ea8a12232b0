import { infiniteQueryOptions } from '@tanstack/react-query';
import { searchMessageRequest, type CallResponse } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export type SearchPage = CallResponse<'/v1/seat/chat/searchMessage'>;
export type SearchHit = SearchPage['list'][number];

/** The word as the server will take it, or null when the spec's rule refuses it. */
export function validSearchWord(raw: string): string | null {
  const parsed = searchMessageRequest.shape.keyword.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Hits of one word across all the seat's chats, newest first, paged by next_cursor. */
export function messageSearchQuery(keyword: string) {
  return infiniteQueryOptions({
    queryKey: ['messageSearch', keyword] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/searchMessage',
        { keyword, cursor: pageParam ?? undefined },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: keyword !== '',
    staleTime: 30_000,
  });
}

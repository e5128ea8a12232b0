import { infiniteQueryOptions } from '@tanstack/react-query';
import { CUSTOMER_SEARCH_MIN, searchMessageRequest, type CallResponse } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export type SearchPage = CallResponse<'/v1/seat/chat/searchMessage'>;
export type SearchHit = SearchPage['list'][number];

/** The word as the server will take it, or null when the spec's rule refuses it. */
export function validSearchWord(raw: string): string | null {
  const parsed = searchMessageRequest.shape.keyword.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/**
 * What the dialog searches for a typed word: nothing (shorter than CUSTOMER_SEARCH_MIN
 * characters), customers only (a name like "Ana" is shorter than the spec's 6), or customers
 * and message text. Characters are counted as the server counts them (code points, trimmed).
 */
export function searchScope(raw: string): { word: string; text: boolean } | null {
  const word = raw.trim();
  if ([...word].length < CUSTOMER_SEARCH_MIN) return null;
  const text = validSearchWord(word);
  return { word, text: text !== null };
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

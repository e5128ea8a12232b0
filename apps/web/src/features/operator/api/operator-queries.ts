import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { readItem, readToken, writeItem } from '../../../lib/storage';

/**
 * The signed-in seat as the server knows it now: token_login with the stored token answers
 * the current user info (accounts assigned or taken away since login included). The stored
 * copy is refreshed with it.
 */
export function operatorInfoQuery() {
  return queryOptions({
    queryKey: ['operatorInfo'] as const,
    queryFn: async ({ signal }) => {
      const token = readToken() ?? '';
      const info = await callApi('/v1/seat/chat/token_login', { token }, { signal });
      // Only if still signed in with that token (not logged out meanwhile).
      if (readItem('userInfo')?.token === info.token) writeItem('userInfo', info);
      return info;
    },
    initialData: () => readItem('userInfo') ?? undefined,
    // The stored copy is shown at once and always refreshed when the dialog opens.
    initialDataUpdatedAt: 0,
    staleTime: 0,
  });
}

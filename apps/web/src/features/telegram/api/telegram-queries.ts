import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** The Telegram profile of a Telegram chat's customer (null until one is known). */
export function tgUserInfoQuery(sessionId: number) {
  return queryOptions({
    queryKey: ['tgUserInfo', sessionId] as const,
    queryFn: ({ signal }) => callApi('/v1/seat/tg/userInfo', { session_id: sessionId }, { signal }),
  });
}

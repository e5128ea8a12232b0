import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { getRemark, remarkKey } from '../../sessions/api/session-actions-api';

/** The chat's remark as the server has it (get_remark). */
export function remarkQuery(sessionId: number) {
  return queryOptions({
    queryKey: remarkKey(sessionId),
    queryFn: ({ signal }) => getRemark(sessionId, signal),
  });
}

/** The Telegram profile of a Telegram chat's customer (null until one is known). */
export function tgUserInfoQuery(sessionId: number) {
  return queryOptions({
    queryKey: ['tgUserInfo', sessionId] as const,
    queryFn: ({ signal }) => callApi('/v1/seat/tg/userInfo', { session_id: sessionId }, { signal }),
  });
}

import { queryOptions } from '@tanstack/react-query';
import { getRemark, remarkKey } from '../../sessions/api/session-actions-api';

/** The chat's remark as the server has it (get_remark). */
export function remarkQuery(sessionId: number) {
  return queryOptions({
    queryKey: remarkKey(sessionId),
    queryFn: ({ signal }) => getRemark(sessionId, signal),
  });
}

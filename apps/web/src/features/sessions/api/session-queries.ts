import { infiniteQueryOptions } from '@tanstack/react-query';
import { GROUP_LIST_POLL_MS, type CallResponse, type SessionItem } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';

export type SessionPage = CallResponse<'/v1/seat/chat/getGroupInfo'>;

export const sessionListKey = (groupId: number, userTimeType: 1 | 2, reply: 0 | 1) =>
  ['sessions', groupId, userTimeType, reply] as const;

/** The user list of a group and time tab, keyset-paged through next_cursor. */
export function sessionListQuery(groupId: number, userTimeType: 1 | 2, reply: 0 | 1) {
  return infiniteQueryOptions({
    queryKey: sessionListKey(groupId, userTimeType, reply),
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/getGroupInfo',
        { group_id: groupId, user_time_type: userTimeType, reply, cursor: pageParam ?? undefined },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: GROUP_LIST_POLL_MS,
  });
}

/** Fields whose change alone does not replace the selected user (spec section 4). */
const VOLATILE: ReadonlySet<string> = new Set(['add_time', 'latest_time', 'un_read_count']);

/** True when the refreshed item differs from the selected one in more than the volatile fields. */
export function selectedUserChanged(prev: SessionItem, next: SessionItem): boolean {
  for (const key of Object.keys(next) as (keyof SessionItem)[]) {
    if (VOLATILE.has(key)) continue;
    if (JSON.stringify(prev[key]) !== JSON.stringify(next[key])) return true;
  }
  return false;
}

/**
 * The selected user after a refresh of the user list (spec section 4): its fresh item when
 * that differs in more than add_time, latest_time and un_read_count, else null (keep it).
 */
export function refreshedSelection(
  selected: SessionItem,
  users: readonly SessionItem[],
): SessionItem | null {
  const fresh = users.find((u) => u.session_id === selected.session_id);
  return fresh && selectedUserChanged(selected, fresh) ? fresh : null;
}

import { queryOptions } from '@tanstack/react-query';
import { GROUP_LIST_POLL_MS, type CallInput, type CallResponse } from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { writeItem } from '../../../lib/storage';

export type GroupListData = CallResponse<'/v1/seat/chat/getGroupList'>;

export const groupListKey = (reply: 0 | 1) => ['groupList', reply] as const;

/** The seat's groups with unread counts, polled every 10 s (spec section 7). */
export function groupListQuery(reply: 0 | 1) {
  return queryOptions({
    queryKey: groupListKey(reply),
    queryFn: async ({ signal }) => {
      const data = await callApi('/v1/seat/chat/getGroupList', { seat_id: 1, reply }, { signal });
      writeItem('groupList', data.group_list);
      return data;
    },
    refetchInterval: GROUP_LIST_POLL_MS,
    refetchIntervalInBackground: true,
  });
}

export function saveGroup(input: CallInput<'/v1/seat/chat/doGroup'>) {
  return callApi('/v1/seat/chat/doGroup', input, { notify: false });
}

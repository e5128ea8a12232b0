import type { InfiniteData } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import type { GroupListData } from './session-cache';

const sub = (a: number, b: number) => Math.max(0, a - b);

/**
 * Lowers the group's, the total's and the time tab's unread counts by what the opened
 * chat held (spec section 4); the next poll confirms the server's numbers.
 */
export function lowerGroupUnread(data: GroupListData, user: SessionItem): GroupListData {
  const n = user.un_read_count;
  if (n <= 0) return data;
  return {
    ...data,
    un_read_count: sub(data.un_read_count, n),
    seat_one_seat_msg_count:
      user.user_time_type === 1
        ? sub(data.seat_one_seat_msg_count, n)
        : data.seat_one_seat_msg_count,
    seat_two_seat_msg_count:
      user.user_time_type === 2
        ? sub(data.seat_two_seat_msg_count, n)
        : data.seat_two_seat_msg_count,
    group_list: data.group_list.map((g) =>
      g.group_id === user.group_id ? { ...g, un_read: sub(g.un_read, n) } : g,
    ),
  };
}

interface SessionPage {
  account_list: SessionItem[];
}

/** Sets the opened chat's unread count to 0 in a cached user list. */
export function clearSessionUnread<P extends SessionPage>(
  data: InfiniteData<P> | undefined,
  sessionId: number,
): InfiniteData<P> | undefined {
  if (!data) return data;
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.account_list.some((s) => s.session_id === sessionId && s.un_read_count > 0)) {
      return page;
    }
    changed = true;
    return {
      ...page,
      account_list: page.account_list.map((s) =>
        s.session_id === sessionId ? { ...s, un_read_count: 0 } : s,
      ),
    };
  });
  return changed ? { ...data, pages } : data;
}

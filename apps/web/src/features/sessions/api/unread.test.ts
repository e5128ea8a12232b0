import { describe, expect, it } from 'vitest';
import type { SessionItem } from '@parley/protocol';
import { clearSessionUnread, lowerGroupUnread } from './unread';
import type { GroupListData } from './session-cache';
import { sessionItem } from '../../../test/builders';

const user = (over: Partial<SessionItem> = {}) =>
  sessionItem(7, { receiver_phone: '+200000', un_read_count: 3, user_time_type: 2, ...over });

const groups: GroupListData = {
  group_list: [
    { group_id: 1, group_name: 'A', group_type: 'custom', un_read: 5, disabled: false },
    { group_id: 2, group_name: 'B', group_type: 'ungrouped', un_read: 4, disabled: false },
  ],
  seat_one_seat_msg_count: 6,
  seat_two_seat_msg_count: 3,
  un_read_count: 9,
};

describe('unread lowering', () => {
  it("lowers the group's, the total's and the time tab's counts by the chat's unread", () => {
    const next = lowerGroupUnread(groups, user());
    expect(next.un_read_count).toBe(6);
    expect(next.seat_two_seat_msg_count).toBe(0);
    expect(next.seat_one_seat_msg_count).toBe(6);
    expect(next.group_list[0]?.un_read).toBe(2);
    expect(next.group_list[1]?.un_read).toBe(4);
  });

  it('never goes below zero and ignores read chats', () => {
    expect(lowerGroupUnread(groups, user({ un_read_count: 0 }))).toBe(groups);
    expect(lowerGroupUnread(groups, user({ un_read_count: 50 })).un_read_count).toBe(0);
  });

  it("clears the chat's own count in the cached user list", () => {
    const data = {
      pages: [{ account_list: [user(), user({ session_id: 8 })] }],
      pageParams: [null],
    };
    const next = clearSessionUnread(data, 7);
    expect(next?.pages[0]?.account_list.map((s) => s.un_read_count)).toEqual([0, 3]);
    expect(clearSessionUnread(next, 7)).toBe(next);
  });
});

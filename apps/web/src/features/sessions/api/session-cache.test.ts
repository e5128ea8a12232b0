import { describe, expect, it } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { RECENT_WINDOW_MS, type SessionItem } from '@parley/protocol';
import type { GroupListData } from './session-cache';
import type { SessionPage } from './session-cache';
import {
  applyGroupsChanged,
  applyTimeTabs,
  clearGroupsUnread,
  groupListKey,
  sessionListKey,
  clearListUnread,
  markListRead,
  removeFromList,
  upsertInList,
} from './session-cache';
import { groupList, sessionItem, sessionList } from '../../../test/builders';

const item = (session_id: number, patch: Partial<SessionItem> = {}) =>
  sessionItem(session_id, { un_read_count: 1, ...patch });

// In the server's order: latest activity first.
const list: InfiniteData<SessionPage> = {
  pages: [
    {
      account_list: [item(1, { latest_time: 30 }), item(2, { latest_time: 20 })],
      total: 3,
      next_cursor: 'c',
    },
    { account_list: [item(3, { latest_time: 10 })], total: 3, next_cursor: null },
  ],
  pageParams: [null, 'c'],
};

const ids = (data: InfiniteData<SessionPage>) =>
  data.pages.map((p) => p.account_list.map((s) => s.session_id));

describe('user-list cache after a chat action', () => {
  it('replaces the chat where it is listed when its place is unchanged', () => {
    const next = upsertInList(list, item(2, { latest_time: 20, remark: 'VIP' }), true)!;
    expect(next.pages[0]!.account_list[1]!.remark).toBe('VIP');
    expect(next.pages[1]).toBe(list.pages[1]);
    expect(next.pages[0]!.total).toBe(3);
  });

  it('moves a chat with a new message, or pinned, to where the server lists it', () => {
    expect(ids(upsertInList(list, item(3, { latest_time: 40 }), true)!)).toEqual([[3, 1, 2], []]);
    expect(ids(upsertInList(list, item(3, { is_top: true }), true)!)).toEqual([[3, 1, 2], []]);
    expect(ids(upsertInList(list, item(1, { latest_time: 15 }), true)!)).toEqual([[2, 1], [3]]);
    expect(upsertInList(list, item(1, { latest_time: 40 }), true)!.pages[0]!.total).toBe(3);
  });

  it('adds a chat new to the list where it sorts, counting it', () => {
    const next = upsertInList(list, item(9, { latest_time: 25 }), true)!;
    expect(ids(next)).toEqual([[1, 9, 2], [3]]);
    expect(next.pages[0]!.total).toBe(4);
    expect(ids(upsertInList(list, item(8, { latest_time: 5 }), true)!)).toEqual([
      [1, 2],
      [3, 8],
    ]);
  });

  it('leaves a chat that sorts past the loaded pages to the page that holds it', () => {
    const partial = { ...list, pages: [list.pages[0]!] };
    expect(upsertInList(partial, item(9, { latest_time: 5 }), true)).toBe(partial);
    expect(ids(upsertInList(partial, item(1, { latest_time: 5 }), true)!)).toEqual([[2]]);
  });

  it('drops a chat that left the list, lowering the total', () => {
    const next = upsertInList(list, item(2, { group_id: 5 }), false)!;
    expect(next.pages.map((p) => p.account_list.map((s) => s.session_id))).toEqual([[1], [3]]);
    expect(next.pages[0]!.total).toBe(2);
    expect(removeFromList(list, 9)).toBe(list);
  });

  it('clears every unread count of a list', () => {
    const next = clearListUnread(list)!;
    expect(next.pages.flatMap((p) => p.account_list.map((s) => s.un_read_count))).toEqual([
      0, 0, 0,
    ]);
  });
});

describe('user-list cache after chats were read elsewhere (pushed sessions.read)', () => {
  it('clears the badges of those chats only, leaving untouched pages as they were', () => {
    const next = markListRead(list, new Set([3, 7]))!;
    expect(next.pages.flatMap((p) => p.account_list.map((s) => s.un_read_count))).toEqual([
      1, 1, 0,
    ]);
    expect(next.pages[0]).toBe(list.pages[0]);
  });

  it('changes nothing when none of them is listed unread', () => {
    expect(markListRead(list, new Set([9]))).toBe(list);
    const read = markListRead(list, new Set([1]))!;
    expect(markListRead(read, new Set([1]))).toBe(read);
  });
});

describe('group list after oneClickRead', () => {
  const groups: GroupListData = {
    group_list: [
      {
        group_id: 1,
        group_name: 'Ungrouped',
        group_type: 'ungrouped',
        un_read: 4,
        disabled: false,
      },
      { group_id: 2, group_name: 'VIP', group_type: 'custom', un_read: 3, disabled: false },
    ],
    seat_one_seat_msg_count: 5,
    seat_two_seat_msg_count: 2,
    un_read_count: 7,
  };

  it('all: every count drops to zero', () => {
    const next = clearGroupsUnread(groups);
    expect(next.un_read_count).toBe(0);
    expect(next.seat_one_seat_msg_count + next.seat_two_seat_msg_count).toBe(0);
    expect(next.group_list.map((g) => g.un_read)).toEqual([0, 0]);
  });

  it('one group: its badge and the total drop by its count', () => {
    const next = clearGroupsUnread(groups, 2);
    expect(next.group_list.map((g) => g.un_read)).toEqual([4, 0]);
    expect(next.un_read_count).toBe(4);
  });
});

describe('user lists kept current without polling', () => {
  const now = 10 * RECENT_WINDOW_MS;
  const recent = now - 1000;
  const aged = now - RECENT_WINDOW_MS - 1;

  it('a chat 24 hours quiet leaves the recent tab for the earlier one, as the server lists it', () => {
    const qc = new QueryClient();
    const a = item(1, { latest_time: recent });
    const b = item(2, { latest_time: aged });
    qc.setQueryData(sessionListKey(1, 1, 0), sessionList(a, b));
    qc.setQueryData(sessionListKey(1, 2, 0), sessionList(item(3, { latest_time: aged - 5 })));
    applyTimeTabs(qc, now);
    const tab1 = qc.getQueryData<InfiniteData<SessionPage>>(sessionListKey(1, 1, 0))!;
    const tab2 = qc.getQueryData<InfiniteData<SessionPage>>(sessionListKey(1, 2, 0))!;
    expect(ids(tab1)).toEqual([[1]]);
    expect(tab1.pages[0]!.total).toBe(1);
    expect(ids(tab2)).toEqual([[2, 3]]);
    expect(tab2.pages[0]!.account_list[0]!.user_time_type).toBe(2);
    expect(tab2.pages[0]!.total).toBe(2);
    // Nothing aged: the same lists.
    applyTimeTabs(qc, now);
    expect(qc.getQueryData(sessionListKey(1, 1, 0))).toBe(tab1);
  });

  it('a chat moving up from past the loaded pages: the pushed group list sets the total right', () => {
    const qc = new QueryClient();
    // Three chats in the list, two loaded: chat 3 is past them.
    qc.setQueryData(sessionListKey(1, 1, 0), { pages: [list.pages[0]!], pageParams: [null] });
    qc.setQueryData(sessionListKey(1, 1, 1), { pages: [list.pages[0]!], pageParams: [null] });
    qc.setQueryData(sessionListKey(1, 2, 0), sessionList(item(7), item(8)));
    const key = sessionListKey(1, 1, 0);
    // Its new message moves it to the top: the client cannot tell it was already counted.
    const moved = upsertInList(qc.getQueryData(key), item(3, { latest_time: 40 }), true)!;
    qc.setQueryData(key, moved);
    expect(moved.pages[0]!.total).toBe(4);
    const group = {
      group_id: 1,
      group_name: 'Ungrouped',
      group_type: 'ungrouped' as const,
      un_read: 3,
      disabled: false,
    };
    applyGroupsChanged(
      qc,
      groupList({ group_list: [{ ...group, total_recent: 3, total_earlier: 5 }] }),
    );
    const after = qc.getQueryData<InfiniteData<SessionPage>>(key)!;
    expect(after.pages[0]!.total).toBe(3);
    expect(ids(after)).toEqual(ids(moved));
    expect(
      qc.getQueryData<InfiniteData<SessionPage>>(sessionListKey(1, 2, 0))!.pages[0]!.total,
    ).toBe(5);
    // The pushed list is the reply filter's "all": the waiting list keeps its own total.
    expect(
      qc.getQueryData<InfiniteData<SessionPage>>(sessionListKey(1, 1, 1))!.pages[0]!.total,
    ).toBe(3);
    // A group list without totals (an older server) leaves the totals as they are.
    applyGroupsChanged(qc, groupList({ group_list: [group] }));
    expect(qc.getQueryData(key)).toBe(after);
  });

  it("a deleted group's chats went to Ungrouped: its lists are stale", () => {
    const qc = new QueryClient();
    const group = (group_id: number, group_type: 'ungrouped' | 'custom') => ({
      group_id,
      group_name: String(group_id),
      group_type,
      un_read: 0,
      disabled: false,
    });
    qc.setQueryData(
      groupListKey(0),
      groupList({ group_list: [group(1, 'ungrouped'), group(7, 'custom')] }),
    );
    qc.setQueryData(sessionListKey(1, 1, 0), sessionList(item(1)));
    qc.setQueryData(sessionListKey(7, 1, 0), sessionList(item(2, { group_id: 7 })));
    applyGroupsChanged(qc, groupList({ group_list: [group(1, 'ungrouped'), group(8, 'custom')] }));
    expect(qc.getQueryState(sessionListKey(1, 1, 0))!.isInvalidated).toBe(true);
    expect(
      qc.getQueryData<GroupListData>(groupListKey(0))!.group_list.map((g) => g.group_id),
    ).toEqual([1, 8]);

    // Only the counts changed: no list is read again.
    const quiet = new QueryClient();
    quiet.setQueryData(groupListKey(0), groupList({ group_list: [group(1, 'ungrouped')] }));
    quiet.setQueryData(sessionListKey(1, 1, 0), sessionList(item(1)));
    applyGroupsChanged(
      quiet,
      groupList({ group_list: [{ ...group(1, 'ungrouped'), un_read: 3 }] }),
    );
    expect(quiet.getQueryState(sessionListKey(1, 1, 0))!.isInvalidated).toBe(false);
  });
});

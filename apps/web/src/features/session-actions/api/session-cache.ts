import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { SessionItem } from '@parley/protocol';
import type { GroupListData } from '../../groups/api/group-queries';
import type { SessionPage } from '../../sessions/api/session-queries';
import { chatKey } from '../../chat/api/chat-queries';
import {
  consoleStore,
  refreshTag,
  removeTag,
  selectGroup,
  selectUser,
  setUserTimeType,
} from '../../console/console.store';

type ListData = InfiniteData<SessionPage>;
/** ['sessions', groupId, userTimeType, reply] (sessionListKey). */
type ListKey = readonly ['sessions', number, 1 | 2, 0 | 1];

/** The server's list order (is_top desc, latest_time desc, id desc): negative when `a` goes first. */
export function compareInList(a: SessionItem, b: SessionItem): number {
  if (a.is_top !== b.is_top) return a.is_top ? -1 : 1;
  if (a.latest_time !== b.latest_time) return b.latest_time - a.latest_time;
  return b.session_id - a.session_id;
}

/**
 * A cached user list after a chat changed, in the server's order: the chat leaves its old
 * place and goes where it now sorts, or is dropped when it no longer belongs to the list
 * (`belongs` false: moved to another group, time tab or reply filter). A chat that sorts past
 * the loaded pages is left to the page that holds it; the total counts the chats in the list.
 */
export function upsertInList(
  data: ListData | undefined,
  updated: SessionItem,
  belongs: boolean,
): ListData | undefined {
  if (!data || data.pages.length === 0) return data;
  const id = updated.session_id;
  const listed = data.pages.some((p) => p.account_list.some((s) => s.session_id === id));
  if (!belongs) return removeFromList(data, id);
  const complete = !data.pages[data.pages.length - 1]?.next_cursor;
  const lists = data.pages.map((p) => p.account_list.filter((s) => s.session_id !== id));
  // Where it sorts among the loaded chats: right after the last one that goes before it.
  const flat = lists.flat();
  let at = flat.findIndex((s) => compareInList(updated, s) < 0);
  if (at === -1 && complete) at = flat.length;
  const placed = at !== -1;
  if (placed) {
    let before = at; // chats before it, counted page by page
    let page = 0;
    while (page < lists.length - 1 && before > lists[page]!.length) {
      before -= lists[page]!.length;
      page += 1;
    }
    lists[page]!.splice(before, 0, updated);
  }
  const pages = data.pages.map((page, i) =>
    sameChats(lists[i]!, page.account_list) ? page : { ...page, account_list: lists[i]! },
  );
  // Newly shown: counted as new to the list (a chat moving up from past the loaded pages is
  // over-counted by one until the list's next poll).
  if (placed && !listed && pages[0]) pages[0] = { ...pages[0], total: pages[0].total + 1 };
  return pages.every((p, i) => p === data.pages[i]) ? data : { ...data, pages };
}

function sameChats(a: readonly SessionItem[], b: readonly SessionItem[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** A cached user list without one chat (its total lowered by one). */
export function removeFromList(data: ListData | undefined, sessionId: number) {
  if (!data || !data.pages.some((p) => p.account_list.some((s) => s.session_id === sessionId))) {
    return data;
  }
  return {
    ...data,
    pages: data.pages.map((page, i) => ({
      ...page,
      account_list: page.account_list.filter((s) => s.session_id !== sessionId),
      total: i === 0 ? Math.max(0, page.total - 1) : page.total,
    })),
  };
}

/** Every chat of a cached user list read. */
export function clearListUnread(data: ListData | undefined): ListData | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      account_list: page.account_list.map((s) =>
        s.un_read_count > 0 ? { ...s, un_read_count: 0 } : s,
      ),
    })),
  };
}

/** A cached user list with these chats read (the same object when none of them shows unread). */
export function markListRead(
  data: ListData | undefined,
  sessionIds: ReadonlySet<number>,
): ListData | undefined {
  const unread = (s: SessionItem) => s.un_read_count > 0 && sessionIds.has(s.session_id);
  if (!data || !data.pages.some((p) => p.account_list.some(unread))) return data;
  return {
    ...data,
    pages: data.pages.map((page) =>
      page.account_list.some(unread)
        ? {
            ...page,
            account_list: page.account_list.map((s) =>
              unread(s) ? { ...s, un_read_count: 0 } : s,
            ),
          }
        : page,
    ),
  };
}

/**
 * The group list after a one-click read of one group (or of all when `groupId` is absent).
 * For one group the time tabs' split is unknown here: the refetch that follows sets them.
 */
export function clearGroupsUnread(data: GroupListData, groupId?: number): GroupListData {
  if (groupId === undefined) {
    return {
      ...data,
      un_read_count: 0,
      seat_one_seat_msg_count: 0,
      seat_two_seat_msg_count: 0,
      group_list: data.group_list.map((g) => ({ ...g, un_read: 0 })),
    };
  }
  const cleared = data.group_list.find((g) => g.group_id === groupId)?.un_read ?? 0;
  return {
    ...data,
    un_read_count: Math.max(0, data.un_read_count - cleared),
    group_list: data.group_list.map((g) => (g.group_id === groupId ? { ...g, un_read: 0 } : g)),
  };
}

/**
 * What to fetch anew after the caches were updated. A push carries the whole change: the chat
 * (placed in every list by upsertInList) and the group counts (their own groups.changed), so
 * it refetches nothing; an action's answer refetches to confirm the counts.
 */
export interface RefetchOptions {
  refetchGroups?: boolean;
  refetchSessions?: boolean;
}

function refetchLists(qc: QueryClient, opts: RefetchOptions = {}): void {
  if (opts.refetchGroups ?? true) void qc.invalidateQueries({ queryKey: ['groupList'] });
  if (opts.refetchSessions ?? true) void qc.invalidateQueries({ queryKey: ['sessions'] });
}

export function findCachedGroup(qc: QueryClient, groupId: number) {
  return qc
    .getQueriesData<GroupListData>({ queryKey: ['groupList'] })
    .flatMap(([, d]) => d?.group_list ?? [])
    .find((g) => g.group_id === groupId);
}

/**
 * Shows a chat as the server now has it: in every cached list, in its tag, and as the open
 * chat when it is the one open. The open chat stays open: the console follows it to its new
 * group and time tab (as a tag does), so it is always in the list beside it.
 */
export function applySessionUpdate(
  qc: QueryClient,
  updated: SessionItem,
  opts: RefetchOptions = {},
): void {
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: ['sessions'] })) {
    const [, groupId, userTimeType, reply] = key as unknown as ListKey;
    const belongs =
      groupId === updated.group_id &&
      userTimeType === updated.user_time_type &&
      // The reply filter lists the chats waiting for a reply: the customer spoke last.
      (reply === 0 || updated.last_message?.direction === 'in');
    qc.setQueryData(key, upsertInList(data, updated, belongs));
  }
  const state = consoleStore.get();
  if (state.selectedUser?.session_id === updated.session_id) {
    if (state.selectedGroup?.group_id !== updated.group_id) {
      const group = findCachedGroup(qc, updated.group_id);
      if (group) selectGroup(group);
    }
    if (state.userTimeType !== updated.user_time_type) setUserTimeType(updated.user_time_type);
    selectUser(updated);
  } else {
    refreshTag(updated);
  }
  refetchLists(qc, opts);
}

/** A deleted chat leaves every list, its tag, its cached record and the chat pane. */
export function applySessionRemoved(
  qc: QueryClient,
  sessionId: number,
  opts: RefetchOptions = {},
): void {
  qc.setQueriesData<ListData>({ queryKey: ['sessions'] }, (d) => removeFromList(d, sessionId));
  if (consoleStore.get().selectedUser?.session_id === sessionId) selectUser(null);
  removeTag(sessionId);
  qc.removeQueries({ queryKey: chatKey(sessionId) });
  refetchLists(qc, opts);
}

/** After oneClickRead: the badges drop at once; the refetch confirms the server's numbers. */
export function applyRead(qc: QueryClient, groupId?: number): void {
  void qc.cancelQueries({ queryKey: ['groupList'] });
  void qc.cancelQueries({ queryKey: ['sessions'] });
  qc.setQueriesData<GroupListData>({ queryKey: ['groupList'] }, (d) =>
    d ? clearGroupsUnread(d, groupId) : d,
  );
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: ['sessions'] })) {
    const [, listGroup] = key as unknown as ListKey;
    if (groupId === undefined || listGroup === groupId) qc.setQueryData(key, clearListUnread(data));
  }
  refetchLists(qc);
}

/**
 * Pushed sessions.read (a one-click read in any console of the seat): these chats' badges drop
 * in every cached user list at once. Nothing is refetched: the counts of the group list come
 * in the groups.changed pushed with it.
 */
export function applySessionsRead(qc: QueryClient, sessionIds: readonly number[]): void {
  const read = new Set(sessionIds);
  qc.setQueriesData<ListData>({ queryKey: ['sessions'] }, (d) => markListRead(d, read));
}

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

/**
 * A cached user list after a chat changed: replaced where it is listed, or dropped when it
 * no longer belongs to the list (`belongs` false: moved to another group or time tab). A chat
 * newly belonging to the list is added by the refetch that follows.
 */
export function upsertInList(
  data: ListData | undefined,
  updated: SessionItem,
  belongs: boolean,
): ListData | undefined {
  if (!data) return data;
  if (!belongs) return removeFromList(data, updated.session_id);
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.account_list.some((s) => s.session_id === updated.session_id)) return page;
    changed = true;
    return {
      ...page,
      account_list: page.account_list.map((s) =>
        s.session_id === updated.session_id ? updated : s,
      ),
    };
  });
  return changed ? { ...data, pages } : data;
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

/** `groups` false: the caller has the group list already (a pushed groups.changed brings it). */
function refetchLists(qc: QueryClient, groups = true): void {
  if (groups) void qc.invalidateQueries({ queryKey: ['groupList'] });
  void qc.invalidateQueries({ queryKey: ['sessions'] });
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
  opts: { refetchGroups?: boolean } = {},
): void {
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: ['sessions'] })) {
    const [, groupId, userTimeType] = key as unknown as ListKey;
    const belongs = groupId === updated.group_id && userTimeType === updated.user_time_type;
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
  refetchLists(qc, opts.refetchGroups ?? true);
}

/** A deleted chat leaves every list, its tag, its cached record and the chat pane. */
export function applySessionRemoved(
  qc: QueryClient,
  sessionId: number,
  opts: { refetchGroups?: boolean } = {},
): void {
  qc.setQueriesData<ListData>({ queryKey: ['sessions'] }, (d) => removeFromList(d, sessionId));
  if (consoleStore.get().selectedUser?.session_id === sessionId) selectUser(null);
  removeTag(sessionId);
  qc.removeQueries({ queryKey: chatKey(sessionId) });
  refetchLists(qc, opts.refetchGroups ?? true);
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

import {
  infiniteQueryOptions,
  queryOptions,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  GROUP_LIST_POLL_MS,
  RECENT_WINDOW_MS,
  type CallResponse,
  type Label,
  type SessionItem,
} from '@parley/protocol';
import { callApi } from '../../../lib/api-client';
import { writeItem } from '../../../lib/storage';
import { forgetChat } from '../../messages/api/message-cache';
import {
  consoleStore,
  refreshSelectedUser,
  refreshTag,
  removeTag,
  selectGroup,
  selectUser,
  setUserTimeType,
} from '../../../stores/console.store';

/**
 * The one module of the chat lists' caches: the user lists (a group's chats per time tab and
 * reply filter) and the group list with its unread counts. Their keys, query options and every
 * edit of them are here; nothing else writes a key of these by hand.
 */

export type SessionPage = CallResponse<'/v1/seat/chat/getGroupInfo'>;
export type GroupListData = CallResponse<'/v1/seat/chat/getGroupList'>;
type ListData = InfiniteData<SessionPage>;
type ListKey = ReturnType<typeof sessionKeys.list>;

export const sessionKeys = {
  /** Every user list. */
  all: ['sessions'] as const,
  /** `labelId`: the label filter (0: none). */
  list: (groupId: number, userTimeType: 1 | 2, reply: 0 | 1, labelId = 0) =>
    [...sessionKeys.all, groupId, userTimeType, reply, labelId] as const,
};

export const groupKeys = {
  /** The group list, whichever reply filter. */
  all: ['groupList'] as const,
  list: (reply: 0 | 1) => [...groupKeys.all, reply] as const,
};

export const sessionListKey = sessionKeys.list;
export const groupListKey = groupKeys.list;

/**
 * The user list of a group and time tab, keyset-paged through next_cursor. It is not polled:
 * the push channel carries every change of the seat's chats and applyEvent places them in the
 * loaded pages, so a page is read when it is first shown, after a resume gap (`reset`, or a
 * connection with nothing to resume from) and when an action's answer does not carry the whole
 * change (refreshLists). Polling re-read every loaded page each 10 s (issue 25).
 */
export function sessionListQuery(groupId: number, userTimeType: 1 | 2, reply: 0 | 1, labelId = 0) {
  return infiniteQueryOptions({
    queryKey: sessionKeys.list(groupId, userTimeType, reply, labelId),
    queryFn: ({ pageParam, signal }) =>
      callApi(
        '/v1/seat/chat/getGroupInfo',
        {
          group_id: groupId,
          user_time_type: userTimeType,
          reply,
          cursor: pageParam ?? undefined,
          ...(labelId ? { label_id: labelId } : {}),
        },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Current while cached: shown again, it is not read again.
    staleTime: Infinity,
  });
}

/**
 * The seat's groups with unread counts, polled every 10 s (spec section 7); its tab totals
 * correct the cached user lists' (applyListTotals).
 */
export function groupListQuery(reply: 0 | 1) {
  return queryOptions({
    queryKey: groupKeys.list(reply),
    queryFn: async ({ signal, client }) => {
      const data = await callApi('/v1/seat/chat/getGroupList', { seat_id: 1, reply }, { signal });
      writeItem('groupList', data.group_list);
      applyListTotals(client, reply, data);
      return data;
    },
    refetchInterval: GROUP_LIST_POLL_MS,
    refetchIntervalInBackground: true,
  });
}

/** Both lists fetched anew (after an action whose answer does not carry the whole change). */
export function refreshLists(qc: QueryClient, which: 'all' | 'sessions' | 'groups' = 'all') {
  if (which !== 'sessions') void qc.invalidateQueries({ queryKey: groupKeys.all });
  if (which !== 'groups') void qc.invalidateQueries({ queryKey: sessionKeys.all });
}

/** A fetch in flight would overwrite an edit made now: both lists' fetches are cancelled. */
export function cancelLists(qc: QueryClient): void {
  void qc.cancelQueries({ queryKey: groupKeys.all });
  void qc.cancelQueries({ queryKey: sessionKeys.all });
}

/** Every cached group list (both reply filters). */
export function cachedGroupLists(qc: QueryClient) {
  return qc.getQueriesData<GroupListData>({ queryKey: groupKeys.all });
}

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
  // over-counted by one until the group list's totals come: applyListTotals).
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
  if (opts.refetchGroups ?? true) refreshLists(qc, 'groups');
  if (opts.refetchSessions ?? true) refreshLists(qc, 'sessions');
}

export function findCachedGroup(qc: QueryClient, groupId: number) {
  return cachedGroupLists(qc)
    .flatMap(([, d]) => d?.group_list ?? [])
    .find((g) => g.group_id === groupId);
}

/**
 * The chat with its labels: a push of a message carries none (only session.created and
 * session.updated do), so the labels the console holds for it stay.
 */
function withKnownLabels(qc: QueryClient, pushed: SessionItem): SessionItem {
  if (pushed.labels) return pushed;
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: sessionKeys.all })) {
    for (const page of data?.pages ?? []) {
      const held = page.account_list.find((s) => s.session_id === pushed.session_id);
      if (held?.labels) return { ...pushed, labels: held.labels };
    }
  }
  const selected = consoleStore.get().selectedUser;
  if (selected?.session_id === pushed.session_id && selected.labels) {
    return { ...pushed, labels: selected.labels };
  }
  return pushed;
}

/**
 * The owner changed the labels (labels.changed): every cached row, and the open chat, show
 * them renamed, recoloured, or without a deleted one. Nothing is refetched.
 */
export function applyLabelsToRows(
  qc: QueryClient,
  relabel: (labels: readonly Label[]) => Label[],
): void {
  qc.setQueriesData<ListData>({ queryKey: sessionKeys.all }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            account_list: page.account_list.map((s) =>
              s.labels && s.labels.length > 0 ? { ...s, labels: relabel(s.labels) } : s,
            ),
          })),
        }
      : data,
  );
  const selected = consoleStore.get().selectedUser;
  if (selected?.labels && selected.labels.length > 0) {
    refreshSelectedUser({ ...selected, labels: relabel(selected.labels) });
  }
}

/** The chat where it now sorts in every cached user list, or out of those it left. */
function placeInLists(qc: QueryClient, updated: SessionItem): void {
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: sessionKeys.all })) {
    const [, groupId, userTimeType, reply, labelId = 0] = key as unknown as ListKey;
    const belongs =
      groupId === updated.group_id &&
      userTimeType === updated.user_time_type &&
      // The reply filter lists the chats waiting for a reply: the customer spoke last.
      (reply === 0 || updated.last_message?.direction === 'in') &&
      // A label's filter lists the chats with that label.
      (labelId === 0 || (updated.labels ?? []).some((l) => l.label_id === labelId));
    qc.setQueryData(key, upsertInList(data, updated, belongs));
  }
}

/**
 * Shows a chat as the server now has it: in every cached list, in its tag, and as the open
 * chat when it is the one open. The open chat stays open: the console follows it to its new
 * group and time tab (as a tag does), so it is always in the list beside it.
 */
export function applySessionUpdate(
  qc: QueryClient,
  pushed: SessionItem,
  opts: RefetchOptions = {},
): void {
  const updated = withKnownLabels(qc, pushed);
  placeInLists(qc, updated);
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
  qc.setQueriesData<ListData>({ queryKey: sessionKeys.all }, (d) => removeFromList(d, sessionId));
  if (consoleStore.get().selectedUser?.session_id === sessionId) selectUser(null);
  removeTag(sessionId);
  forgetChat(qc, sessionId);
  refetchLists(qc, opts);
}

/** After oneClickRead: the badges drop at once; the refetch confirms the server's numbers. */
export function applyRead(qc: QueryClient, groupId?: number): void {
  cancelLists(qc);
  qc.setQueriesData<GroupListData>({ queryKey: groupKeys.all }, (d) =>
    d ? clearGroupsUnread(d, groupId) : d,
  );
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: sessionKeys.all })) {
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
  qc.setQueriesData<ListData>({ queryKey: sessionKeys.all }, (d) => markListRead(d, read));
}

/**
 * Chats of the "last 24 hours" tab whose latest activity is now older move to the earlier tab,
 * as the server lists them (no event says so: time alone moves them). Only the cached lists
 * change; the open chat and the console's tab stay. A chat past the loaded pages of a recent
 * list is not known here: that list's total keeps it until the polled group list's totals come
 * (applyListTotals).
 */
export function applyTimeTabs(qc: QueryClient, now = Date.now()): void {
  const since = now - RECENT_WINDOW_MS;
  const aged = new Map<number, SessionItem>();
  for (const [key, data] of qc.getQueriesData<ListData>({ queryKey: sessionKeys.all })) {
    if ((key as unknown as ListKey)[2] !== 1) continue;
    for (const page of data?.pages ?? []) {
      for (const s of page.account_list) {
        if (s.latest_time < since) aged.set(s.session_id, { ...s, user_time_type: 2 });
      }
    }
  }
  for (const moved of aged.values()) placeInLists(qc, moved);
}

/**
 * The totals of the cached user lists of this reply filter set to the group list's (each
 * group's chats per time tab, as getGroupInfo counts them). A pushed chat is placed by what
 * the client sees: one moving up from past the loaded pages, or one a list's loaded pages
 * never held leaving it, cannot be counted right (nothing pushed says where it was); the
 * server's count, pushed with every change of the seat's counts and polled, can. A group list
 * without totals (an older server) changes nothing.
 */
export function applyListTotals(qc: QueryClient, reply: 0 | 1, data: GroupListData): void {
  const groups = new Map(data.group_list.map((g) => [g.group_id, g]));
  for (const [key, list] of qc.getQueriesData<ListData>({ queryKey: sessionKeys.all })) {
    const [, groupId, userTimeType, listReply] = key as unknown as ListKey;
    const group = groups.get(groupId);
    const total = userTimeType === 1 ? group?.total_recent : group?.total_earlier;
    const first = list?.pages[0];
    if (listReply !== reply || total === undefined || !first || first.total === total) continue;
    qc.setQueryData(key, { ...list, pages: [{ ...first, total }, ...list.pages.slice(1)] });
  }
}

/**
 * Pushed groups.changed: the group list as the server has it, and its totals as the user
 * lists' (applyListTotals). A group gone from it was deleted
 * and its chats moved to Ungrouped with no event of their own: Ungrouped's lists are read
 * again (the server says they are stale). The deleted group's lists are left to be collected:
 * dropped while shown, they would be fetched again for a group that no longer is.
 */
export function applyGroupsChanged(qc: QueryClient, data: GroupListData): void {
  const before = qc.getQueryData<GroupListData>(groupKeys.list(0));
  qc.setQueryData(groupKeys.list(0), data);
  writeItem('groupList', data.group_list);
  applyListTotals(qc, 0, data);
  // The "waiting for reply" counts are another filter: fetched anew.
  void qc.invalidateQueries({ queryKey: groupKeys.list(1) });
  const now = new Set(data.group_list.map((g) => g.group_id));
  if ((before?.group_list ?? []).every((g) => now.has(g.group_id))) return;
  const ungrouped = data.group_list.find((g) => g.group_type === 'ungrouped');
  if (ungrouped) {
    void qc.invalidateQueries({ queryKey: [...sessionKeys.all, ungrouped.group_id] });
  }
}

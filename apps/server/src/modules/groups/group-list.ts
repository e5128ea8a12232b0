import { RECENT_WINDOW_MS, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { sortGroups, toGroup } from './groups.presenter.js';
import { tabTotal } from '../sessions/sessions.repository.js';
import { groupsRepository, type GroupWithTabCounts } from './groups.repository.js';

type GroupList = CallResponse<'/v1/seat/chat/getGroupList'>;

/**
 * The seat's groups with unread counts (getGroupList; the push channel's groups.changed), from
 * the counts the database keeps on every change of a chat (migration 016): the groups' rows
 * and the seat's last 24 hours, whatever the number of chats.
 */
export async function groupListOf(
  db: Db,
  seatId: number,
  waitingOnly: boolean,
  now = Date.now(),
): Promise<GroupList> {
  const since = now - RECENT_WINDOW_MS;
  const { groups, recent } = await groupsRepository.listWithRecentUnread(db, seatId, since);
  return presentGroupList(groups, recent, waitingOnly);
}

/** groupListOf (all chats) of several seats, in one read (a group commit's seats). */
export async function groupListsOf(
  db: Db,
  seatIds: number[],
  now = Date.now(),
): Promise<Map<number, GroupList>> {
  const since = now - RECENT_WINDOW_MS;
  const lists = new Map<number, GroupList>();
  const bySeat = await groupsRepository.listWithRecentUnreadOf(db, seatIds, since);
  for (const seatId of seatIds) {
    const seat = bySeat.get(seatId) ?? { groups: [], recent: { unread: 0, waitingUnread: 0 } };
    lists.set(seatId, presentGroupList(seat.groups, seat.recent, false));
  }
  return lists;
}

function presentGroupList(
  groups: GroupWithTabCounts[],
  recent: { unread: number; waitingUnread: number },
  waitingOnly: boolean,
): GroupList {
  let total = 0;
  for (const g of groups) total += waitingOnly ? g.waiting_unread : g.unread;
  const recentTotal = waitingOnly ? recent.waitingUnread : recent.unread;
  return {
    group_list: sortGroups(groups).map((g) =>
      toGroup(g, waitingOnly ? g.waiting_unread : g.unread, tabTotals(g, waitingOnly)),
    ),
    seat_one_seat_msg_count: recentTotal,
    seat_two_seat_msg_count: total - recentTotal,
    un_read_count: total,
  };
}

/** The group's chats per time tab, as getGroupInfo counts its `total` (tabTotal). */
function tabTotals(g: GroupWithTabCounts, waitingOnly: boolean) {
  const parts = waitingOnly
    ? ([g.waiting_chats, g.hours_waiting, g.edge_waiting] as const)
    : ([g.chats, g.hours_chats, g.edge_chats] as const);
  return { recent: tabTotal(1, ...parts), earlier: tabTotal(2, ...parts) };
}

import { RECENT_WINDOW_MS, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { sortGroups, toGroup } from './groups.presenter.js';
import { groupsRepository } from './groups.repository.js';

/** The seat's groups with unread counts (getGroupList; the push channel's groups.changed). */
export async function groupListOf(
  db: Db,
  seatId: number,
  waitingOnly: boolean,
): Promise<CallResponse<'/v1/seat/chat/getGroupList'>> {
  const recentSince = Date.now() - RECENT_WINDOW_MS;
  const [groups, unread] = await Promise.all([
    groupsRepository.listBySeat(db, seatId),
    groupsRepository.unreadByGroup(db, seatId, recentSince, waitingOnly),
  ]);
  const byGroup = new Map(unread.map((u) => [u.group_id, u]));
  let total = 0;
  let recent = 0;
  for (const u of unread) {
    total += u.unread;
    recent += u.recent;
  }
  return {
    group_list: sortGroups(groups).map((g) => toGroup(g, byGroup.get(g.id)?.unread ?? 0)),
    seat_one_seat_msg_count: recent,
    seat_two_seat_msg_count: total - recent,
    un_read_count: total,
  };
}

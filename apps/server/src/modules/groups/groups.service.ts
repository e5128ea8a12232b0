import {
  ERROR_CODES,
  RECENT_WINDOW_MS,
  type CallRequest,
  type CallResponse,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { sortGroups, toGroup } from './groups.presenter.js';
import { groupsRepository } from './groups.repository.js';
import { inTransaction } from '../../lib/tx.js';
import type { SeatEvents } from '../../realtime/seat-events.js';

type DoGroup = CallRequest<'/v1/seat/chat/doGroup'>;

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

export class GroupsService {
  constructor(
    private readonly db: Db,
    private readonly events: SeatEvents,
  ) {}

  list(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/getGroupList'>,
  ): Promise<CallResponse<'/v1/seat/chat/getGroupList'>> {
    return groupListOf(this.db, seatId, input.reply === 1);
  }

  async requireGroup(seatId: number, groupId: number): Promise<GroupRow> {
    const group = await groupsRepository.findForSeat(this.db, seatId, groupId);
    if (!group) throw notFound();
    return group;
  }

  async doGroup(seatId: number, input: DoGroup): Promise<CallResponse<'/v1/seat/chat/doGroup'>> {
    const answer = await this.changeGroup(seatId, input);
    // A snapshot of the list after the change (a lost one is made good by the client's poll).
    await this.events.groupsChanged(this.db, seatId);
    return answer;
  }

  private async changeGroup(seatId: number, input: DoGroup) {
    try {
      switch (input.type) {
        case 'add':
          return await this.add(seatId, input.group_name);
        case 'edit':
          return await this.rename(seatId, input.group_id, input.group_name);
        case 'del':
          return await this.remove(seatId, input.group_id);
      }
    } catch (err) {
      // Two racing creates of the same name: the unique index decides.
      if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.DATA_EXISTS);
      throw err;
    }
  }

  private async add(seatId: number, name: string) {
    if (await groupsRepository.findByName(this.db, seatId, name)) {
      throw new AppError(ERROR_CODES.DATA_EXISTS);
    }
    const row = await groupsRepository.insert(this.db, {
      seat_id: seatId,
      name,
      type: 'custom',
      now: Date.now(),
    });
    return { group: toGroup(row, 0), moved_sessions: 0 };
  }

  private async rename(seatId: number, groupId: number, name: string) {
    const group = await this.requireGroup(seatId, groupId);
    if (group.type !== 'custom') throw forbidden();
    const same = await groupsRepository.findByName(this.db, seatId, name);
    if (same && same.id !== group.id) throw new AppError(ERROR_CODES.DATA_EXISTS);
    await groupsRepository.rename(this.db, group.id, name);
    return {
      group: toGroup({ ...group, name }, await this.unreadOf(seatId, group.id)),
      moved_sessions: 0,
    };
  }

  /** Its chats move to Ungrouped and the group goes, together or not at all. */
  private async remove(seatId: number, groupId: number) {
    const group = await this.requireGroup(seatId, groupId);
    if (group.type !== 'custom') throw forbidden();
    const { ungrouped, moved } = await inTransaction(this.db, async (trx) => {
      const ungrouped = await groupsRepository.findByType(trx, seatId, 'ungrouped');
      if (!ungrouped) throw new Error(`seat ${seatId} has no Ungrouped group`);
      const moved = await sessionsRepository.moveGroup(trx, seatId, group.id, ungrouped.id);
      await groupsRepository.delete(trx, group.id);
      return { ungrouped, moved };
    });
    return {
      group: toGroup(ungrouped, await this.unreadOf(seatId, ungrouped.id)),
      moved_sessions: moved,
    };
  }

  private async unreadOf(seatId: number, groupId: number): Promise<number> {
    const rows = await groupsRepository.unreadByGroup(this.db, seatId, 0, false, groupId);
    return rows[0]?.unread ?? 0;
  }

  async oneClickRead(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/oneClickRead'>,
  ): Promise<CallResponse<'/v1/seat/chat/oneClickRead'>> {
    if (input.group_id !== undefined) await this.requireGroup(seatId, input.group_id);
    const cleared = await inTransaction(this.db, async (trx) => {
      const n = await sessionsRepository.clearUnreadForSeat(trx, seatId, input.group_id);
      if (n > 0) await this.events.groupsChanged(trx, seatId);
      return n;
    });
    return { cleared };
  }
}

import { ERROR_CODES, type CallRequest, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { GroupRow } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { toGroup } from './groups.presenter.js';
import { groupsRepository } from './groups.repository.js';
import { groupListOf } from './group-list.js';
import { inTransaction } from '../../lib/tx.js';
import { ListCache, type SerializedAnswer } from '../../lib/list-cache.js';
import { KnownVersions } from '../../lib/known-versions.js';
import { listVersionsRepository } from '../sessions/list-versions.repository.js';
import type { SeatEvents } from '../events/seat-events.js';

type DoGroup = CallRequest<'/v1/seat/chat/doGroup'>;

export class GroupsService {
  constructor(
    private readonly db: Db,
    private readonly events: SeatEvents,
    versions: KnownVersions = new KnownVersions(),
  ) {
    this.lists = new ListCache(versions, 4 * 1024 * 1024);
  }

  /** Group lists answered before, by the seat's list version (this instance's). */
  private readonly lists: ListCache;

  list(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/getGroupList'>,
  ): Promise<CallResponse<'/v1/seat/chat/getGroupList'>> {
    return groupListOf(this.db, seatId, input.reply === 1);
  }

  /**
   * getGroupList's answer, serialised: the 10-second poll of every console. Unchanged (the
   * seat's list version the same, no unread chat out of the last 24 hours since), it is
   * answered from the bytes of the last time: on PostgreSQL with no query while the version is
   * known (KnownVersions), else one primary-key read.
   */
  listAnswer(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/getGroupList'>,
  ): Promise<SerializedAnswer> {
    const waitingOnly = input.reply === 1;
    return this.lists.answer(
      seatId,
      `${seatId}:${waitingOnly ? 1 : 0}`,
      (since) => listVersionsRepository.forSeat(this.db, seatId, since),
      (now) => groupListOf(this.db, seatId, waitingOnly, now),
    );
  }

  async requireGroup(seatId: number, groupId: number, db: Db = this.db): Promise<GroupRow> {
    const group = await groupsRepository.findForSeat(db, seatId, groupId);
    if (!group) throw notFound();
    return group;
  }

  /** The change and the group list it leaves (groups.changed) commit together. */
  async doGroup(seatId: number, input: DoGroup): Promise<CallResponse<'/v1/seat/chat/doGroup'>> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const answer = await this.changeGroup(trx, seatId, input);
        await this.events.groupsChanged(trx, seatId);
        return answer;
      });
    } catch (err) {
      // Two racing creates of the same name: the unique index decides.
      if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.DATA_EXISTS);
      throw err;
    }
  }

  private changeGroup(trx: Db, seatId: number, input: DoGroup) {
    switch (input.type) {
      case 'add':
        return this.add(trx, seatId, input.group_name);
      case 'edit':
        return this.rename(trx, seatId, input.group_id, input.group_name);
      case 'del':
        return this.remove(trx, seatId, input.group_id);
    }
  }

  private async add(trx: Db, seatId: number, name: string) {
    if (await groupsRepository.findByName(trx, seatId, name)) {
      throw new AppError(ERROR_CODES.DATA_EXISTS);
    }
    const row = await groupsRepository.insert(trx, {
      seat_id: seatId,
      name,
      type: 'custom',
      now: Date.now(),
    });
    return { group: toGroup(row, 0), moved_sessions: 0 };
  }

  private async rename(trx: Db, seatId: number, groupId: number, name: string) {
    const group = await this.requireGroup(seatId, groupId, trx);
    if (group.type !== 'custom') throw forbidden();
    const same = await groupsRepository.findByName(trx, seatId, name);
    if (same && same.id !== group.id) throw new AppError(ERROR_CODES.DATA_EXISTS);
    await groupsRepository.rename(trx, group.id, name);
    const counted = await groupsRepository.findWithCounts(trx, seatId, group.id);
    return { group: toGroup({ ...group, name }, counted?.unread ?? 0), moved_sessions: 0 };
  }

  /** Its chats move to Ungrouped and the group goes, together or not at all. */
  private async remove(trx: Db, seatId: number, groupId: number) {
    const group = await groupsRepository.findForSeatLocked(trx, seatId, groupId);
    if (!group) throw notFound();
    if (group.type !== 'custom') throw forbidden();
    const ungrouped = await groupsRepository.findByType(trx, seatId, 'ungrouped');
    if (!ungrouped) throw new Error(`seat ${seatId} has no Ungrouped group`);
    const moved = await sessionsRepository.moveGroup(trx, seatId, group.id, ungrouped.id);
    await groupsRepository.delete(trx, group.id);
    await groupsRepository.deleteCounts(trx, group.id);
    // Its counts now hold the moved chats'.
    const after = await groupsRepository.findWithCounts(trx, seatId, ungrouped.id);
    return { group: toGroup(ungrouped, after?.unread ?? 0), moved_sessions: moved };
  }

  async oneClickRead(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/oneClickRead'>,
  ): Promise<CallResponse<'/v1/seat/chat/oneClickRead'>> {
    if (input.group_id !== undefined) await this.requireGroup(seatId, input.group_id);
    const cleared = await inTransaction(this.db, async (trx) => {
      const read = await sessionsRepository.clearUnreadForSeat(trx, seatId, input.group_id);
      // Every console of the seat drops these chats' badges at once, not at its next poll.
      await this.events.sessionsRead(trx, seatId, read.sessionIds);
      if (read.sessionIds.length > 0) await this.events.groupsChanged(trx, seatId);
      return read.messages;
    });
    return { cleared };
  }
}

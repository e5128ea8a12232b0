import {
  ERROR_CODES,
  LABELS_MAX,
  type AdminCallRequest,
  type AdminCallResponse,
  type AdminLabel,
  type CallRequest,
  type CallResponse,
  type Label,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { LabelRow } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import { CLI_ACTOR, type Actor, type AuditService } from '../admin/audit.service.js';
import type { SeatEvents } from '../events/seat-events.js';
import { labelsRepository } from './labels.repository.js';

/** Tells a queued chat's team its queue again (TeamsService), so members' Queue rows follow. */
export interface QueuedChatLabels {
  labelsChanged(db: Db, holderSeatId: number): Promise<void>;
}

const nameTaken = () => new AppError(ERROR_CODES.LABEL_NAME_TAKEN);

/** Two names are the same label's when they differ only by letter case. */
export const labelKey = (name: string) => name.toLowerCase();

const present = (row: LabelRow): Label => ({ label_id: row.id, name: row.name, color: row.color });
const presentAdmin = (row: LabelRow, chats: number | string): AdminLabel => ({
  ...present(row),
  chats: Number(chats),
});
const audited = (row: LabelRow) => ({ name: row.name, color: row.color });

/**
 * Labels (issue 35): the owner defines them (audited), members put them on customers. A seat
 * labels only a chat it may see (the isolation rule of teams); any other answers 400001, as a
 * chat that does not exist. Every change reaches the consoles: a chat's labels as session.updated
 * to the seat holding it, the owner's changes as labels.changed to every seat.
 */
export class LabelsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly events: SeatEvents,
    private readonly queues: QueuedChatLabels,
  ) {}

  async list(): Promise<CallResponse<'/v1/seat/label/list'>> {
    return { labels: (await labelsRepository.all(this.db)).map(present) };
  }

  async set(
    seatId: number,
    input: CallRequest<'/v1/seat/label/set'>,
  ): Promise<CallResponse<'/v1/seat/label/set'>> {
    const ids = [...new Set(input.label_ids)].sort((a, b) => a - b);
    return inTransaction(this.db, async (trx) => {
      const chat = await labelsRepository.visibleChat(trx, seatId, input.session_id);
      if (!chat) throw notFound();
      if ((await labelsRepository.existing(trx, ids)) !== ids.length) throw notFound();
      const changed = await labelsRepository
        .setForChat(trx, chat.id, ids, Date.now())
        .catch((err) => {
          // The chat or a label was deleted since it was read.
          if (isForeignKeyViolation(err)) throw notFound();
          throw err;
        });
      // The holder's consoles redraw the row (a queued chat's holder is its queue).
      if (changed) {
        await this.events.sessionUpdated(trx, chat.seat_id, chat.id);
        await this.queues.labelsChanged(trx, chat.seat_id);
      }
      const labels = (await labelsRepository.ofChats(trx, [chat.id])).get(chat.id) ?? [];
      return { session_id: chat.id, labels };
    });
  }

  async adminList(): Promise<AdminCallResponse<'/v1/admin/labels/list'>> {
    const rows = await labelsRepository.allWithChats(this.db);
    return { labels: rows.map((r) => presentAdmin(r, r.chats)) };
  }

  async create(input: AdminCallRequest<'/v1/admin/labels/create'>, actor: Actor = CLI_ACTOR) {
    const key = labelKey(input.name);
    const row = await this.changing(async (trx) => {
      if (await labelsRepository.findByKey(trx, key)) throw nameTaken();
      if ((await labelsRepository.count(trx)) >= LABELS_MAX) {
        throw new AppError(ERROR_CODES.OPERATION_LIMIT);
      }
      const now = Date.now();
      const made = await labelsRepository.insert(trx, {
        name: input.name,
        name_key: key,
        color: input.color,
        created_at: now,
        updated_at: now,
      });
      await this.audit.record(
        trx,
        actor,
        'label.create',
        'label',
        made.id,
        made.name,
        null,
        audited(made),
      );
      return made;
    });
    return { label: presentAdmin(row, 0) };
  }

  async update(input: AdminCallRequest<'/v1/admin/labels/update'>, actor: Actor = CLI_ACTOR) {
    const { row, chats } = await this.changing(async (trx) => {
      const before = await labelsRepository.find(trx, input.label_id);
      if (!before) throw notFound();
      const set: Parameters<typeof labelsRepository.update>[2] = {};
      if (input.name !== undefined && input.name !== before.name) {
        const key = labelKey(input.name);
        const holder =
          key === before.name_key ? undefined : await labelsRepository.findByKey(trx, key);
        if (holder) throw nameTaken();
        set.name = input.name;
        set.name_key = key;
      }
      if (input.color !== undefined && input.color !== before.color) set.color = input.color;
      let after = before;
      if (Object.keys(set).length > 0) {
        after = (await labelsRepository.update(trx, before.id, {
          ...set,
          updated_at: Date.now(),
        }))!;
        await this.audit.record(
          trx,
          actor,
          'label.update',
          'label',
          after.id,
          after.name,
          audited(before),
          audited(after),
        );
      }
      return { row: after, chats: await labelsRepository.chatsOf(trx, after.id) };
    });
    return { label: presentAdmin(row, chats) };
  }

  async remove(input: AdminCallRequest<'/v1/admin/labels/delete'>, actor: Actor = CLI_ACTOR) {
    await this.changing(async (trx) => {
      const before = await labelsRepository.find(trx, input.label_id);
      if (!before || !(await labelsRepository.remove(trx, before.id))) throw notFound();
      await this.audit.record(
        trx,
        actor,
        'label.delete',
        'label',
        before.id,
        before.name,
        audited(before),
        null,
      );
    });
    return { label_id: input.label_id };
  }

  /**
   * An owner's change, in one transaction with its audit row and labels.changed to every seat.
   * A name taken meanwhile by a racing change (the unique index decides) is 409006.
   */
  private async changing<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.db, async (trx) => {
        const result = await work(trx);
        const labels = (await labelsRepository.all(trx)).map(present);
        await this.events.labelsChanged(trx, await labelsRepository.seatIds(trx), labels);
        return result;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }
}

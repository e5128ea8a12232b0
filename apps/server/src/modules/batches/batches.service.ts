import { createHash } from 'node:crypto';
import {
  BATCH_TARGETS_MAX,
  ERROR_CODES,
  type BatchStatus,
  type CallRequest,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { BatchRow } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import type { MediaService } from '../media/media.service.js';
import { MESSAGE_MEDIA } from '../messages/send-rules.js';
import { toBatchStatus } from './batches.presenter.js';
import { batchesRepository, type TargetRow } from './batches.repository.js';

type BatchInput = CallRequest<'/v1/seat/chat/batch_message'>;

const unique = (ids: readonly number[]) => [...new Set(ids)];

/** sha256 of the request as it matters: the same targets in any order are the same batch. */
function fingerprintOf(input: BatchInput): string {
  const normal = {
    type: input.type,
    content: input.content,
    media_id: input.media_id ?? null,
    session_ids: unique(input.session_ids).sort((a, b) => a - b),
    group_ids: unique(input.group_ids).sort((a, b) => a - b),
  };
  return createHash('sha256').update(JSON.stringify(normal)).digest('hex');
}

/**
 * Batch replies: the targets are expanded and stored at once (one transaction), the messages
 * go out in the background (jobs/batch-sender.ts). The same (seat, batch_id) is one batch.
 */
export class BatchesService {
  private readonly createdListeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly media: MediaService,
  ) {}

  /** Lets the sender of this instance start at once instead of at its next poll. */
  onCreated(listener: () => void): () => void {
    this.createdListeners.add(listener);
    return () => this.createdListeners.delete(listener);
  }

  /**
   * Stores a batch and answers its status. A repeat of the same request (same batch_id and
   * payload) answers the current status and sends nothing again; the same batch_id with
   * another payload is 500002 (the batch exists), nothing changes.
   */
  async create(seatId: number, input: BatchInput): Promise<BatchStatus> {
    const fingerprint = fingerprintOf(input);
    const existing = await batchesRepository.findByClientId(this.db, seatId, input.batch_id);
    if (existing) return this.repeat(existing, fingerprint);

    const targets = await this.targets(seatId, input);
    // Media as for one message: this seat's (else 400001) and of a kind the type takes.
    if (input.type !== 'text' && input.media_id) {
      await this.media.ownedFor(this.db, seatId, input.media_id, MESSAGE_MEDIA[input.type]);
    }
    const now = Date.now();
    let batch: BatchRow;
    try {
      batch = await inTransaction(this.db, async (trx) => {
        const row = await batchesRepository.insertBatch(trx, {
          seat_id: seatId,
          batch_id: input.batch_id,
          type: input.type,
          content: input.content,
          media_id: input.media_id ?? null,
          fingerprint,
          total: targets.length,
          created_at: now,
        });
        await batchesRepository.insertItems(
          trx,
          targets.map((t) => ({
            batch_row_id: row.id,
            seat_id: seatId,
            session_id: t.id,
            send_phone: t.send_phone,
            receiver_phone: t.receiver_phone,
            status: 'pending' as const,
            msg_id: null,
            code: null,
            updated_at: now,
          })),
        );
        await batchesRepository.ensurePace(trx, seatId, now);
        return row;
      });
    } catch (err) {
      // The same batch_id sent twice at once: the first one won.
      if (!isUniqueViolation(err)) throw err;
      const winner = await batchesRepository.findByClientId(this.db, seatId, input.batch_id);
      if (!winner) throw err;
      return this.repeat(winner, fingerprint);
    }
    this.createdListeners.forEach((l) => l());
    return toBatchStatus(batch, await batchesRepository.itemsOf(this.db, batch.id));
  }

  /** Progress and per-chat results of one of the seat's batches. */
  async status(seatId: number, batchId: string): Promise<BatchStatus> {
    const batch = await batchesRepository.findByClientId(this.db, seatId, batchId);
    if (!batch) throw notFound();
    return toBatchStatus(batch, await batchesRepository.itemsOf(this.db, batch.id));
  }

  private async repeat(batch: BatchRow, fingerprint: string): Promise<BatchStatus> {
    if (batch.fingerprint !== fingerprint) {
      throw new AppError(ERROR_CODES.DATA_EXISTS, undefined, { batch_id: batch.batch_id });
    }
    return toBatchStatus(batch, await batchesRepository.itemsOf(this.db, batch.id));
  }

  /**
   * The chosen chats, then the chats of the chosen groups, each once. Any id that is not the
   * seat's (another seat's or a missing one) is 400001 for the whole request.
   */
  private async targets(seatId: number, input: BatchInput): Promise<TargetRow[]> {
    const sessionIds = unique(input.session_ids);
    const groupIds = unique(input.group_ids);
    const chosen = await batchesRepository.sessionsByIds(this.db, seatId, sessionIds);
    if (chosen.length !== sessionIds.length) throw notFound();
    if (groupIds.length > 0) {
      const found = await batchesRepository.countGroups(this.db, seatId, groupIds);
      if (found !== groupIds.length) throw notFound();
    }
    const fromGroups =
      groupIds.length > 0
        ? await batchesRepository.sessionsOfGroups(this.db, seatId, groupIds, BATCH_TARGETS_MAX + 1)
        : [];

    const byId = new Map(chosen.map((s) => [s.id, s]));
    const targets: TargetRow[] = sessionIds.map((id) => byId.get(id)!);
    const seen = new Set(sessionIds);
    for (const s of fromGroups) {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      targets.push(s);
    }
    if (targets.length === 0) throw invalidField('session_ids', 'no chats to send to');
    if (targets.length > BATCH_TARGETS_MAX) {
      throw new AppError(ERROR_CODES.OPERATION_LIMIT, undefined, { max: BATCH_TARGETS_MAX });
    }
    return targets;
  }
}

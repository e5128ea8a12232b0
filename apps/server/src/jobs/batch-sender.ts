import { ERROR_CODES } from '@parley/protocol';
import { WorkerLoop } from './worker-loop.js';
import type { Db } from '../db/database.js';
import type { BatchItemRow, BatchRow } from '../db/schema.js';
import { AppError } from '../lib/app-error.js';
import { batchesRepository } from '../modules/batches/batches.repository.js';
import type { MessagesService } from '../modules/messages/messages.service.js';
import { toBatchStatus } from '../modules/batches/batches.presenter.js';
import type { SeatEvents } from '../modules/events/seat-events.js';
import { sessionsRepository } from '../modules/sessions/sessions.repository.js';

export interface BatchSenderOptions {
  /** Messages per second per seat, across every server instance. */
  ratePerSecond: number;
  /** How often an idle sender looks for work another instance stored. */
  pollMs?: number;
  /** How long a seat's turn and an item's claim last if their holder dies. */
  leaseMs?: number;
  log: { error(obj: object, msg: string): void };
  /** Progress goes to the seat's consoles (batch.progress) through these. */
  events?: SeatEvents;
}

/** Progress of one batch is pushed at most this often, and always when it is done. */
const PROGRESS_EVERY_MS = 1000;

/** An unexpected failure (not a coded answer) is retried this often before the item fails. */
const MAX_ATTEMPTS = 5;
const RETRY_DELAY_MS = 5_000;

/** The message of a batch to a chat has this client_msg_id, so a retry can never double it. */
export function batchClientMsgId(batchRowId: number, sessionId: number): string {
  return `batch-${batchRowId}-${sessionId}`;
}

/**
 * Sends the pending items of batch replies in the background, one at a time per instance.
 *
 * Pace: each seat has a row in `batch_pace` with the time its next message may go out. A
 * sender takes the seat's turn by compare-and-set on that time (one instance wins), claims the
 * seat's oldest pending item (one statement, so two instances never claim the same item), sends
 * it through MessagesService.send with a deterministic client_msg_id, records the result, and
 * sets the seat's next time to the message's own timestamp plus 1/rate. So a seat's messages
 * are at least 1/rate apart by their timestamps, whichever instances send them. A crash leaves
 * the turn and the claim to expire after the lease; the client_msg_id then turns the resend
 * into the message already stored.
 */
export class BatchSender extends WorkerLoop {
  private readonly intervalMs: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly db: Db,
    private readonly messages: MessagesService,
    private readonly options: BatchSenderOptions,
  ) {
    super('batch sender', options.log, options.pollMs ?? 1000);
    this.intervalMs = Math.ceil(1000 / options.ratePerSecond);
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  /** One step of work; answers how long to wait before the next. */
  override async step(): Promise<number> {
    const now = Date.now();
    const due = await batchesRepository.nextDueSeat(this.db);
    if (!due) return this.pollMs;
    if (due.next_at > now) return Math.min(due.next_at - now, this.pollMs);
    const seatId = due.seat_id;
    if (!(await batchesRepository.takeTurn(this.db, seatId, due.next_at, now + this.leaseMs))) {
      return 0; // another instance took this turn
    }
    let nextAt = now;
    try {
      const item = await batchesRepository.claimNext(this.db, seatId, now, now + this.leaseMs);
      if (item) {
        const sentAt = await this.send(item);
        if (sentAt !== null) nextAt = Math.max(sentAt, now) + this.intervalMs;
      } else if (await batchesRepository.hasPending(this.db, seatId)) {
        // Items held by an instance that stopped without finishing them: wait for the lease.
        nextAt = now + this.pollMs;
      } else {
        await batchesRepository.markFinishedBatches(this.db, seatId);
      }
    } finally {
      await batchesRepository.setNextAt(this.db, seatId, nextAt);
    }
    return 0;
  }

  /** Sends one item; answers the message's timestamp, or null when nothing went out. */
  private async send(item: BatchItemRow): Promise<number | null> {
    const now = () => Date.now();
    const batch = await this.batchOf(item.batch_row_id);
    const session = await sessionsRepository.findForSeat(this.db, item.seat_id, item.session_id);
    if (!batch || !session) {
      // The chat was deleted (or changed hands) since the batch was stored.
      await this.fail(item, ERROR_CODES.DATA_NOT_FOUND);
      return null;
    }
    try {
      const message = await this.messages.send(item.seat_id, {
        send_phone: session.send_phone,
        receiver_phone: session.receiver_phone,
        type: batch.type,
        content: batch.content,
        ...(batch.media_id ? { media_id: batch.media_id } : {}),
        client_msg_id: batchClientMsgId(batch.id, item.session_id),
      });
      if (message.session_id !== item.session_id) {
        // The id was already used by a message of another chat: never send in its place.
        await this.fail(item, ERROR_CODES.DATA_EXISTS);
        return null;
      }
      await batchesRepository.finishItem(
        this.db,
        item.id,
        { status: 'sent', msg_id: message.msg_id, code: '000000' },
        now(),
      );
      await this.progress(item);
      return message.created_at;
    } catch (err) {
      if (err instanceof AppError) {
        // A rule said no (a blocked chat: 400003): this chat fails, the others go on.
        await this.fail(item, err.code);
        return null;
      }
      this.options.log.error({ err, item: item.id }, 'batch item could not be sent');
      if (item.attempts >= MAX_ATTEMPTS) await this.fail(item, ERROR_CODES.SERVICE_ERROR);
      else await batchesRepository.releaseItem(this.db, item.id, now() + RETRY_DELAY_MS);
      return null;
    }
  }

  private async fail(item: BatchItemRow, code: string): Promise<void> {
    await batchesRepository.finishItem(
      this.db,
      item.id,
      { status: 'failed', msg_id: null, code },
      Date.now(),
    );
    await this.progress(item);
  }

  private readonly progressAt = new Map<number, number>();
  /** batch.progress after an item's result, throttled per batch (the last one always goes). */
  private async progress(item: BatchItemRow): Promise<void> {
    const events = this.options.events;
    const batch = events && (await this.batchOf(item.batch_row_id));
    if (!events || !batch) return;
    const status = toBatchStatus(batch, await batchesRepository.itemsOf(this.db, batch.id));
    const now = Date.now();
    if (!status.done && now - (this.progressAt.get(batch.id) ?? 0) < PROGRESS_EVERY_MS) return;
    if (status.done) this.progressAt.delete(batch.id);
    else this.progressAt.set(batch.id, now);
    await events.batchProgress(this.db, item.seat_id, status);
  }

  // A batch's payload never changes: keep the few in progress rather than reading per item.
  private readonly batches = new Map<number, BatchRow>();
  private async batchOf(id: number): Promise<BatchRow | undefined> {
    const cached = this.batches.get(id);
    if (cached) return cached;
    const row = await batchesRepository.findById(this.db, id);
    if (row) {
      if (this.batches.size >= 100) this.batches.clear();
      this.batches.set(id, row);
    }
    return row;
  }
}

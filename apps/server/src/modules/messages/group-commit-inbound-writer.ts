import type { ChannelName, ChatMessage } from '@parley/protocol';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { GroupRow, SessionRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { currentRequestId } from '../../lib/request-context.js';
import { inTransaction } from '../../lib/tx.js';
import type { ParleyMetrics } from '../../metrics/metrics.js';
import type { SeatEvents } from '../events/seat-events.js';
import type { MediaService } from '../media/media.service.js';
import { inboundRepository } from './inbound.repository.js';
import {
  InboundVerdicts,
  writeChannelRows,
  type InboundLog,
  type InboundMessage,
  type InboundOutcome,
  type InboundWriter,
} from './inbound-writer.js';
import { toChatMessage } from './messages.presenter.js';
import { judge, type RefusalReason } from './receive-rules.js';
import { receiveOne } from './receive-one.js';

/** A message as the rules kept it: its type one of Parley's. */
export type KeptMessage = InboundMessage & { type: ChatMessage['type'] };

/** The most messages one transaction takes. */
const MAX_BATCH = 64;
/** A message's arrival waits this long for others to share its commit (a timer's turn). */
const GATHER_MS = 1;

/** Attempts at a message alone whose chat another process creates at the same time. */
const MAX_ATTEMPTS = 3;

/** Rolls back a message written alone whose key another request took meanwhile. */
export class TakenMeanwhile extends Error {}

type Answered = { ok: true; value: InboundOutcome };
export type Outcome = Answered | { ok: false; err: unknown };

/** What a message wrote, for the batch's events. */
export interface Written {
  seatId: number;
  message: ChatMessage;
  row: SessionRow;
  chatCreated: boolean;
  requestId: string | null;
}

/** What a batch wrote: each message's outcome, in order, and what its events show. */
export interface BatchWrite {
  outcomes: Outcome[];
  written: Written[];
}

export interface Queued {
  unit: KeptMessage;
  /** The chat's key: a chat is never written by two batches at once. */
  chat: string;
  requestId: string | null;
  resolve(outcome: InboundOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit for customers' messages (every channel's inbound side): the messages handed in
 * while a batch is written go in one transaction together, each answered only once it has
 * committed. The batch's messages are written, then the events of all its seats in one go:
 * the new chats, the messages and one group list per seat, not one per message. When a batch
 * fails, it runs again with a savepoint per message, so one bad message fails alone. A chat's
 * messages are never in two batches at once (the second waits): within one batch they go in
 * order, and the second finds the chat the first created.
 *
 * One implementation per database, chosen once where the app is wired (services.ts), as the
 * MessageWriter is: this one (SQLite: one writer, so one batch at a time, each message with
 * its own few statements, which cost no round trip) and BatchInboundWriter (PostgreSQL: two
 * batches in flight, a batch's messages in a fixed number of statements).
 */
export class GroupCommitInboundWriter implements InboundWriter {
  private readonly queue: Queued[] = [];
  private readonly busy = new Set<string>();
  /** Batches written at once (SQLite has one writer). */
  protected readonly inFlight: number = 1;
  private running = 0;
  private scheduled = false;

  private readonly verdicts: InboundVerdicts;

  constructor(
    protected readonly db: Db,
    protected readonly media: MediaService,
    private readonly events: SeatEvents,
    log?: InboundLog,
  ) {
    this.verdicts = new InboundVerdicts(log);
  }

  refuse(channel: ChannelName, reason: RefusalReason, detail?: Record<string, unknown>): void {
    this.verdicts.refused(channel, reason, detail);
  }

  observe(metrics: ParleyMetrics): void {
    this.verdicts.observe(metrics);
  }

  /** Judged by the receive rules first (both writers), then queued for a shared commit. */
  async write(message: InboundMessage): Promise<InboundOutcome> {
    const detail = { account: message.sendPhone, id: message.key?.externalId };
    const judged = judge(message);
    if ('refused' in judged) {
      this.refuse(message.channel, judged.refused, detail);
      return { kind: 'refused', reason: judged.refused };
    }
    this.verdicts.cleaned(message.channel, judged.cleaned);
    try {
      return await this.queued(judged.kept);
    } catch (err) {
      // A check of its own refused it (a media of another kind, a quote of another chat): the
      // caller gets the error, the log and the metric the refusal.
      if (err instanceof AppError) this.refuse(message.channel, 'invalid', detail);
      throw err;
    }
  }

  private queued(unit: KeptMessage): Promise<InboundOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        unit,
        chat: `${unit.seatId}|${unit.sendPhone}|${unit.receiverPhone}`,
        requestId: currentRequestId(),
        resolve,
        reject,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        // The webhooks that arrived together reach the queue within a timer's turn.
        setTimeout(() => {
          this.scheduled = false;
          this.pump();
        }, GATHER_MS);
      }
    });
  }

  private pump(): void {
    while (this.running < this.inFlight) {
      const batch = this.take();
      if (batch.length === 0) return;
      this.running += 1;
      void this.flush(batch).finally(() => {
        this.running -= 1;
        for (const q of batch) this.busy.delete(q.chat);
        this.pump();
      });
    }
  }

  /** Up to MAX_BATCH queued messages of chats no batch in flight holds, in order. */
  private take(): Queued[] {
    const batch: Queued[] = [];
    const chats = new Set<string>();
    for (let i = 0; i < this.queue.length && batch.length < MAX_BATCH;) {
      const q = this.queue[i]!;
      if (this.busy.has(q.chat)) {
        i += 1;
        continue;
      }
      chats.add(q.chat);
      batch.push(q);
      this.queue.splice(i, 1);
    }
    for (const chat of chats) this.busy.add(chat);
    return batch;
  }

  /**
   * The batch in one transaction, each message answered once it has committed. A message
   * that fails rolls the transaction back; the batch then runs again with a savepoint per
   * message, so that one is undone and answered alone while the others still share a commit.
   * Should that fail too (the events' statements), each message runs alone.
   */
  private async flush(batch: Queued[]): Promise<void> {
    let outcomes: Outcome[];
    try {
      outcomes = await inTransaction(this.db, (trx) => this.writeBatch(trx, batch, false)).catch(
        () => inTransaction(this.db, (trx) => this.writeBatch(trx, batch, true)),
      );
    } catch {
      for (const q of batch) await this.alone(q).then(q.resolve, q.reject);
      return;
    }
    for (const [i, q] of batch.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.ok) q.resolve(outcome.value);
      // Its chat created by another process meanwhile: alone, it writes into it.
      else if (isUniqueViolation(outcome.err)) await this.alone(q).then(q.resolve, q.reject);
      else q.reject(outcome.err);
    }
  }

  /**
   * A message in its own transaction; a key taken meanwhile rolls its work back. Another
   * process (an instance, the CLI, an operator's addSession) may have created its chat
   * meanwhile: it exists then, and the next attempt writes into it.
   */
  private async alone(q: Queued): Promise<InboundOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [outcome] = await inTransaction(this.db, (trx) => this.writeBatch(trx, [q], false));
        if (outcome!.ok) return outcome!.value;
        throw outcome!.err;
      } catch (err) {
        if (err instanceof TakenMeanwhile) return { kind: 'taken' };
        if (!isUniqueViolation(err) || attempt === MAX_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * The batch's messages (with `savepoints`, each in its own, answered by its outcome; else a
   * failure fails the batch: writeTogether), then their events, all seats' at once.
   */
  private async writeBatch(trx: Db, batch: Queued[], savepoints: boolean): Promise<Outcome[]> {
    const { outcomes, written } = savepoints
      ? await this.writeEach(trx, batch)
      : await this.writeTogether(trx, batch);
    // First contact: the chat appears, then its messages, then the seat's group counts.
    await this.events.messagesReceived(trx, written);
    return outcomes;
  }

  /**
   * The batch's messages in the transaction, any failure failing the batch (a key found taken:
   * TakenMeanwhile). Here one message after another; BatchInboundWriter writes them together.
   */
  protected async writeTogether(trx: Db, batch: Queued[]): Promise<BatchWrite> {
    const outcomes: Outcome[] = [];
    const written: Written[] = [];
    const ungrouped = new Map<number, GroupRow | undefined>();
    for (const q of batch) {
      const { outcome, done } = await this.writeOne(trx, q, ungrouped);
      outcomes.push({ ok: true, value: outcome });
      if (done) written.push(done);
    }
    // The channels' own rows of the whole batch at once.
    await writeChannelRows(
      trx,
      batch.map(({ unit }, i) => ({ hook: unit.hook, outcome: (outcomes[i] as Answered).value })),
    );
    return { outcomes, written };
  }

  /** The batch's messages, each in a savepoint of its own: one that fails is undone alone. */
  private async writeEach(trx: Db, batch: Queued[]): Promise<BatchWrite> {
    const outcomes: Outcome[] = [];
    const written: Written[] = [];
    const ungrouped = new Map<number, GroupRow | undefined>();
    for (const q of batch) {
      await sql`savepoint inbound_message`.execute(trx);
      try {
        const { outcome, done } = await this.writeOne(trx, q, ungrouped);
        await writeChannelRows(trx, [{ hook: q.unit.hook, outcome }]);
        await sql`release inbound_message`.execute(trx);
        outcomes.push({ ok: true, value: outcome });
        if (done) written.push(done);
      } catch (err) {
        await sql`rollback to inbound_message`.execute(trx);
        await sql`release inbound_message`.execute(trx);
        outcomes.push(
          err instanceof TakenMeanwhile
            ? { ok: true, value: { kind: 'taken' } }
            : { ok: false, err },
        );
      }
    }
    return { outcomes, written };
  }

  /**
   * One message, written as every inbound message is (receiveOne), its key taken last with
   * what was stored (a concurrent taker of the key waits here until this transaction ends).
   * The channel's own rows (its hook) are its caller's to write. A key found taken fails the
   * batch (TakenMeanwhile), whose messages then run alone.
   */
  private async writeOne(
    trx: Db,
    { unit, requestId }: Queued,
    ungrouped: Map<number, GroupRow | undefined>,
  ): Promise<{ outcome: InboundOutcome; done?: Written }> {
    const { seatId, key } = unit;
    const externalId = unit.externalId ?? key?.externalId;
    const got = await receiveOne(
      trx,
      this.media,
      { ...unit, ...(externalId !== undefined ? { externalId } : {}) },
      ungrouped,
    );
    if (got.blocked) {
      if (key && !(await inboundRepository.take(trx, key, null))) throw new TakenMeanwhile();
      return { outcome: { kind: 'blocked', seatId } };
    }
    const { row, session: updated, sessionCreated: chatCreated } = got;
    if (key && !(await inboundRepository.take(trx, key, row.id))) throw new TakenMeanwhile();
    const message = toChatMessage(row, this.media.urls);
    const outcome = {
      kind: 'stored' as const,
      msgId: row.id,
      message,
      seatId,
      sessionId: got.sessionId,
      chatCreated,
    };
    return {
      outcome,
      done: updated ? { seatId, message, row: updated, chatCreated, requestId } : undefined,
    };
  }
}

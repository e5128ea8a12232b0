import { performance } from 'node:perf_hooks';
import type { ChannelName } from '@parley/protocol';
import type { ParleyMetrics } from '../../metrics/metrics.js';
import type { InboundMessage, InboundOutcome, InboundWriter } from '../messages/inbound-writer.js';
import type { RefusalReason } from '../messages/receive-rules.js';
import type { TeamsService } from './teams.service.js';

/** How often a team account's message is tried again when its chat moved while it was written. */
const MOVED_TRIES = 3;

/**
 * The inbound door of team accounts (docs/decisions/2026-11-29-team-accounts.md), around the
 * database's own writer: a message to a team account (its seat is the team's queue seat) goes
 * to the chat's holder, and a message stored in the queue is routed or queued after its commit.
 * Any other account's message passes straight through: the queue seats are known by id, so it
 * costs no query.
 */
export class TeamInboundWriter implements InboundWriter {
  private metrics: ParleyMetrics | undefined;

  constructor(
    private readonly inner: InboundWriter,
    private readonly teams: TeamsService,
  ) {}

  write(message: InboundMessage): Promise<InboundOutcome> {
    // Handed on in the same turn when the seat is known to be an operator's: the database's
    // writer batches what arrives together, and a wait here would split its batches.
    // What the channel's read of the account said, else what this instance knows.
    const known = message.queueSeat ?? this.teams.queueSeatKnown(message.seatId);
    if (known === false) return this.inner.write(message);
    if (known === true) return this.toHolder(message);
    return this.teams
      .isQueueSeat(message.seatId)
      .then((queue) => (queue ? this.toHolder(message) : this.inner.write(message)));
  }

  private async toHolder(message: InboundMessage): Promise<InboundOutcome> {
    const queueSeat = message.seatId;
    for (let attempt = 1; ; attempt++) {
      const holder = await this.teams.holderOf(queueSeat, message.sendPhone, message.receiverPhone);
      if (holder !== queueSeat && message.mediaId !== undefined) {
        await this.teams.adoptMedia(message.mediaId, queueSeat, holder);
      }
      try {
        const outcome = await this.inner.write({ ...message, seatId: holder });
        if (outcome.kind === 'stored' && outcome.seatId === queueSeat) {
          const started = performance.now();
          const result = await this.teams.queuedMessage(
            queueSeat,
            outcome.sessionId,
            outcome.chatCreated,
            message.at,
          );
          if (result !== 'none') {
            this.metrics?.teamRouting.observe({ result }, (performance.now() - started) / 1000);
          }
        }
        return outcome;
      } catch (err) {
        // The chat was taken or handed over between finding its holder and writing to it.
        const now = await this.teams.holderOf(queueSeat, message.sendPhone, message.receiverPhone);
        if (attempt >= MOVED_TRIES || now === holder) throw err;
      }
    }
  }

  refuse(channel: ChannelName, reason: RefusalReason, detail?: Record<string, unknown>): void {
    this.inner.refuse(channel, reason, detail);
  }

  observe(metrics: ParleyMetrics): void {
    this.metrics = metrics;
    this.inner.observe(metrics);
  }
}

import type { ChannelName } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { currentRequestId } from '../../lib/request-context.js';
import { outboxRepository } from './outbox.repository.js';

/** The channels that deliver an outbox item (channels/registry.ts; modules import no channel). */
export interface DeliveringChannels {
  has(channel: ChannelName): boolean;
  names(): ChannelName[];
}

/**
 * Queues an operator's action for its channel inside the caller's transaction, so a message
 * the API acknowledged always has its outbox row (and a rolled-back one never has).
 */
export class OutboxWriter {
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly channels: DeliveringChannels) {}

  /** Queues when the channel has an adapter; answers whether it did. */
  async enqueue(
    trx: Db,
    channel: ChannelName,
    row: { seat_id: number; msg_id: number; kind: 'message' | 'delete' },
  ): Promise<boolean> {
    if (!this.channels.has(channel)) return false;
    await outboxRepository.insert(trx, { ...row, request_id: currentRequestId() });
    return true;
  }

  /** enqueue of several rows in one statement; answers whether any was queued. */
  async enqueueMany(
    trx: Db,
    rows: {
      channel: ChannelName;
      seat_id: number;
      msg_id: number;
      kind: 'message' | 'delete';
      request_id: string | null;
    }[],
  ): Promise<boolean> {
    const queued = rows
      .filter((r) => this.channels.has(r.channel))
      .map(({ channel: _channel, ...row }) => row);
    if (queued.length === 0) return false;
    await outboxRepository.insertMany(trx, queued);
    return true;
  }

  /** The channels whose actions are queued (a statement that writes outbox rows itself). */
  queuedChannels(): ChannelName[] {
    return this.channels.names();
  }

  /** Called once the transaction committed: the worker looks now rather than at its poll. */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  onEnqueued(listener: () => void): void {
    this.listeners.push(listener);
  }
}

import type { MessageFailReason, MessageStatus } from '@parley/protocol';
import type { ChannelRegistry } from '../channels/adapter-registry.js';
import type { DeliveryResult, OutboundItem } from '../channels/channel.js';
import { WorkerLoop } from './worker-loop.js';
import type { Db, DialectName } from '../db/database.js';
import type { MessageRow, OutboxRow } from '../db/schema.js';
import { accountsRepository } from '../modules/accounts/accounts.repository.js';
import type { StoredMedia } from '../modules/media/media.presenter.js';
import type { MediaService } from '../modules/media/media.service.js';
import { outboxRepository } from '../modules/outbox/outbox.repository.js';
import { deliveryRepository, type MessageWithChat } from '../modules/outbox/delivery.repository.js';
import { recordDeliveryStatus } from '../modules/outbox/delivery-status.js';
import type { SeatEvents } from '../modules/events/seat-events.js';

export interface OutboxWorkerOptions {
  dialect: DialectName;
  /** Attempts before an item is marked failed. */
  maxAttempts: number;
  /** First retry's delay; doubled per attempt, at most `maxRetryMs`. */
  retryBaseMs: number;
  maxRetryMs?: number;
  /** How long a claim lasts if its worker dies mid-delivery. */
  leaseMs?: number;
  pollMs?: number;
  batchSize?: number;
  log: {
    error(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    info?(obj: object, msg: string): void;
    debug?(obj: object, msg: string): void;
  };
  /** Told how each delivery attempt ended, by channel (metrics). */
  onResult?: (channel: string, result: DeliveryOutcome) => void;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'cancelled';

/**
 * Delivers the outbox: claims due rows with a lease (safe with any number of instances), hands
 * each to the adapter of its account's channel, records the channel's id and the delivery
 * status, and retries retryable failures with exponential back-off. A worker killed
 * mid-delivery leaves its claim to expire; the row is then delivered again with the same
 * idempotency key, so delivery is at-least-once (exactly-once at a receiver that honours it).
 */
export class OutboxWorker extends WorkerLoop {
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly maxRetryMs: number;
  /** Rows this worker has claimed and not yet finished. */
  private readonly inFlight = new Set<number>();
  /** Shutdown gave up waiting: what is still in flight was released to other instances. */
  private abandoned = false;

  constructor(
    private readonly db: Db,
    private readonly channels: ChannelRegistry,
    private readonly media: MediaService,
    private readonly events: SeatEvents,
    private readonly options: OutboxWorkerOptions,
  ) {
    super('outbox', options.log, options.pollMs ?? 1000);
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.batchSize = options.batchSize ?? 16;
    this.maxRetryMs = options.maxRetryMs ?? 5 * 60_000;
  }

  /** Delivers one batch of due items; answers how long to wait before the next step. */
  override async step(): Promise<number> {
    const now = Date.now();
    const rows = await outboxRepository.claimDue(
      this.db,
      this.options.dialect,
      now,
      now + this.leaseMs,
      this.batchSize,
    );
    if (rows.length > 0) {
      await Promise.all(rows.map((row) => this.handle(row)));
      return 0;
    }
    const next = await outboxRepository.nextDue(this.db);
    return next === null ? this.pollMs : Math.max(1, Math.min(next - Date.now(), this.pollMs));
  }

  /**
   * Stops taking items and waits up to `graceMs` for the deliveries in flight; the claims of
   * those still running then are released (due now), so another instance delivers them at
   * once instead of after the lease (at-least-once: the receiver's idempotency key dedupes).
   */
  async stopWithin(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, graceMs, 'late')));
    const outcome = await Promise.race([this.stop().then(() => 'stopped' as const), late]);
    clearTimeout(timer);
    if (outcome === 'stopped') return;
    this.abandoned = true;
    const ids = [...this.inFlight];
    if (ids.length === 0) return;
    await outboxRepository.release(this.db, ids, Date.now());
    this.options.log.warn({ outbox: ids }, 'outbox deliveries still running at shutdown released');
  }

  private async handle(row: OutboxRow): Promise<void> {
    this.inFlight.add(row.id);
    try {
      await this.deliver(row);
    } finally {
      this.inFlight.delete(row.id);
    }
  }

  private async deliver(row: OutboxRow): Promise<void> {
    let result: DeliveryResult;
    let item: OutboundItem | null = null;
    let found: MessageWithChat | undefined;
    const reqId = row.request_id ?? undefined;
    try {
      found = await deliveryRepository.messageWithChat(this.db, row.msg_id);
      item = found ? await this.itemOf(row, found) : null;
      if (!item) {
        // The message was deleted for all before it went out, or its chat is gone.
        await outboxRepository.finish(this.db, row.id, 'done', 'cancelled');
        this.options.onResult?.('none', 'cancelled');
        return;
      }
      const adapter = this.channels.get(item.account.channel);
      result = adapter
        ? await adapter.deliver(item)
        : { ok: false, retryable: false, error: `no adapter for ${item.account.channel}` };
    } catch (err) {
      result = { ok: false, retryable: true, error: (err as Error).message };
    }
    // Released at shutdown: another instance owns the row now.
    if (this.abandoned) return;
    const channel = item?.account.channel ?? 'none';
    const fields = { reqId, outbox: row.id, msgId: row.msg_id, kind: row.kind, channel };
    if (result.ok) {
      // The message's status first: a row seen done has its delivery recorded.
      if (row.kind === 'message') {
        await this.setStatus(row, 'sent', result.externalId, found);
      }
      await outboxRepository.finish(this.db, row.id, 'done', null);
      this.options.onResult?.(channel, 'delivered');
      // Routine, once per message sent: at debug (failures and retries stay at warn/info).
      this.options.log.debug?.({ ...fields, attempts: row.attempts }, 'outbox item delivered');
      return;
    }
    if (result.retryable && (result.throttled || row.attempts < this.options.maxAttempts)) {
      const backoff = Math.min(this.options.retryBaseMs * 2 ** (row.attempts - 1), this.maxRetryMs);
      const delay = Math.max(backoff, result.retryAfterMs ?? 0);
      await outboxRepository.retryAt(
        this.db,
        row.id,
        Date.now() + delay,
        result.error,
        result.throttled === true,
      );
      this.options.onResult?.(channel, 'retry');
      return;
    }
    this.options.onResult?.(channel, 'failed');
    this.options.log.warn({ ...fields, error: result.error }, 'outbox item failed');
    await outboxRepository.finish(this.db, row.id, 'failed', result.error.slice(0, 500));
    if (row.kind === 'message') {
      await this.setStatus(row, 'failed', null, undefined, result.failReason ?? null);
    }
  }

  private async itemOf(row: OutboxRow, found: MessageWithChat): Promise<OutboundItem | null> {
    const account = await accountsRepository.findByPhone(this.db, found.send_phone);
    if (!account) return null;
    const base = { msgId: found.id, account, receiverPhone: found.receiver_phone };
    if (row.kind === 'delete') {
      return { kind: 'delete', ...base, externalId: found.external_id };
    }
    if (found.deleted_for_all === 1) return null;
    let media: Extract<OutboundItem, { kind: 'message' }>['media'] = null;
    if (found.media_id && found.media) {
      const stored = JSON.parse(found.media) as StoredMedia;
      const bytes = await this.media.stored(found.seat_id, found.media_id);
      if (!bytes) return null;
      media = {
        media_id: stored.media_id,
        mime: stored.mime,
        size: stored.size,
        file_name: stored.file_name,
        duration_ms: stored.duration_ms,
        open: bytes.open,
      };
    }
    // A reply names its quoted message the channel's way (a retracted one is still named).
    const quoted =
      found.reply_to_id !== null
        ? await deliveryRepository.messageWithChat(this.db, found.reply_to_id)
        : undefined;
    const replyTo = quoted ? { msgId: quoted.id, externalId: quoted.external_id } : null;
    return {
      kind: 'message',
      ...base,
      type: found.type,
      content: found.content,
      media,
      replyTo,
    };
  }

  /** Records the delivery and tells the seat's consoles when the status moved. */
  private async setStatus(
    row: OutboxRow,
    status: MessageStatus,
    externalId: string | null,
    /** The message as read before delivering (saves reading it again). */
    known?: MessageRow,
    failReason: MessageFailReason | null = null,
  ) {
    await recordDeliveryStatus(this.db, this.events, {
      msgId: row.msg_id,
      status,
      externalId,
      known,
      failReason,
    });
  }
}

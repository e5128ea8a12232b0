import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import { eventsRepository, type LoggedEvent } from '../modules/events/events.repository.js';
import type { RealtimeHub } from './hub.js';

const CHANNEL = 'parley:events';

export interface FanOut {
  /** A seat's events committed here: tell every instance (this one included: `events`). */
  notify(seatId: number, events?: readonly LoggedEvent[]): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * With Redis: a notice per committed change on one pub/sub channel (the seat id); every instance
 * that holds sockets of that seat reads the new events from the log.
 */
export class RedisFanOut implements FanOut {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    url: string,
    private readonly hub: RealtimeHub | null,
    log: (err: unknown) => void = () => undefined,
  ) {
    this.pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    this.sub = new Redis(url, { lazyConnect: true });
    // ioredis reconnects by itself; its errors are reported, not thrown.
    this.pub.on('error', log);
    this.sub.on('error', log);
  }

  notify(seatId: number, events?: readonly LoggedEvent[]): void {
    this.hub?.notify(seatId, events);
    const sent = this.pub.publish(CHANNEL, String(seatId)).catch(() => undefined);
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
  }

  async start(): Promise<void> {
    await this.pub.connect();
    if (!this.hub) return;
    const hub = this.hub;
    await this.sub.connect();
    this.sub.on('message', (_channel: string, message: string) => {
      const seatId = Number(message);
      if (Number.isSafeInteger(seatId)) hub.notify(seatId);
    });
    // Notices sent while the subscription was down are lost: after a reconnect, read what
    // every connected seat may have missed.
    this.sub.on('ready', () => hub.seatIds().forEach((seatId) => hub.notify(seatId)));
    await this.sub.subscribe(CHANNEL);
  }

  /** Sends the notices still on their way, then disconnects. */
  async stop(): Promise<void> {
    await Promise.all(this.pending);
    this.sub.disconnect();
    if (this.pub.status === 'ready') await this.pub.quit().catch(() => undefined);
    else this.pub.disconnect();
  }
}

/**
 * Without Redis: this instance's changes notify its hub at once, and a poll of the seats'
 * event counters (one primary-key query for every connected seat) finds what another process
 * (the CLI, another instance on the same database) recorded.
 */
export class PollingFanOut implements FanOut {
  private timer: NodeJS.Timeout | null = null;
  private polling = false;

  constructor(
    private readonly db: Db,
    private readonly hub: RealtimeHub,
    private readonly pollMs: number,
  ) {}

  notify(seatId: number, events?: readonly LoggedEvent[]): void {
    this.hub.notify(seatId, events);
  }

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const seats = this.hub.seatIds();
      for (const row of await eventsRepository.lastSeqs(this.db, seats)) {
        const sent = this.hub.lowestSent(row.seat_id);
        if (sent !== null && Number(row.last_seq) > sent) this.hub.notify(row.seat_id);
      }
    } catch {
      // The next tick tries again.
    } finally {
      this.polling = false;
    }
  }
}

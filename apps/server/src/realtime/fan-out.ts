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

/** How soon a lost Redis connection is tried again (ms): 100, 200, ... then every second. */
export const REDIS_RETRY_MAX_MS = 1_000;

export interface RedisFanOutOptions {
  /** This instance's sockets; null: the CLI (it only publishes). */
  hub: RealtimeHub | null;
  /** While the subscription is down, the event log is read instead (the instance's sockets). */
  fallback?: { db: Db; pollMs: number };
  /** Redis went away (once per outage) or came back. */
  log?: (state: 'down' | 'up', err?: unknown) => void;
}

/**
 * With Redis: a notice per committed change on one pub/sub channel (the seat id); every instance
 * that holds sockets of that seat reads the new events from the log. While this instance's
 * subscription is down (Redis stopped, restarting, unreachable) it reads the event log as
 * PollingFanOut does, so its consoles still see other instances' events within a poll; it
 * starts without Redis and subscribes whenever Redis answers. Publishing never waits for Redis
 * (no offline queue): a notice Redis cannot take is covered by the others' poll.
 */
export class RedisFanOut implements FanOut {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly hub: RealtimeHub | null;
  private readonly poller: EventLogPoller | null;
  private timer: NodeJS.Timeout | null = null;
  /** Subscribed and connected: notices arrive, no need to read the log. */
  private live = false;
  private down = false;
  private stopped = false;

  constructor(
    url: string,
    private readonly options: RedisFanOutOptions,
  ) {
    this.hub = options.hub;
    const server = this.hub !== null;
    const common = {
      lazyConnect: true,
      // A publish while Redis is away fails at once instead of piling up.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // The server tries again for ever (an outage ends); the CLI gives up at once.
      retryStrategy: server
        ? (times: number) => Math.min(100 * times, REDIS_RETRY_MAX_MS)
        : () => null,
    };
    this.pub = new Redis(url, common);
    // The subscription is made again on every 'ready' (resubscribing is ours, not ioredis').
    this.sub = new Redis(url, { ...common, autoResubscribe: false });
    // ioredis reports connection errors as events; one unheard would end the process.
    const onError = (err: unknown) => this.wentDown(err);
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.poller =
      this.hub && options.fallback ? new EventLogPoller(options.fallback.db, this.hub) : null;
  }

  notify(seatId: number, events?: readonly LoggedEvent[]): void {
    this.hub?.notify(seatId, events);
    if (this.pub.status !== 'ready') return;
    // One notice per seat per turn: a commit's events reach the bus one publish at a time, and
    // each notice costs every other instance a read of the seat's log.
    if (this.toAnnounce.size === 0) process.nextTick(this.announce);
    this.toAnnounce.add(seatId);
  }

  private readonly toAnnounce = new Set<number>();
  private readonly announce = () => {
    const seats = [...this.toAnnounce];
    this.toAnnounce.clear();
    if (this.pub.status !== 'ready') return;
    for (const seatId of seats) {
      const sent = this.pub.publish(CHANNEL, String(seatId)).catch(() => undefined);
      this.pending.add(sent);
      void sent.finally(() => this.pending.delete(sent));
    }
  };

  /**
   * The CLI: connects or rejects. The server: resolves at once and connects in the background
   * (reading the event log until then).
   */
  async start(): Promise<void> {
    if (!this.hub) {
      await this.pub.connect();
      return;
    }
    const hub = this.hub;
    this.sub.on('message', (_channel: string, message: string) => {
      const seatId = Number(message);
      if (Number.isSafeInteger(seatId)) hub.notify(seatId);
    });
    this.sub.on('ready', () => {
      this.sub.subscribe(CHANNEL).then(
        () => {
          if (this.stopped || this.sub.status !== 'ready') return;
          this.live = true;
          if (this.down) this.options.log?.('up');
          this.down = false;
          // Notices sent while the subscription was down are lost: read what every connected
          // seat may have missed.
          hub.seatIds().forEach((seatId) => hub.notify(seatId));
        },
        (err: unknown) => this.wentDown(err),
      );
    });
    this.sub.on('close', () => {
      this.live = false;
    });
    if (this.poller && this.options.fallback) {
      const poller = this.poller;
      this.timer = setInterval(() => {
        if (!this.live) void poller.poll();
      }, this.options.fallback.pollMs);
      this.timer.unref();
    }
    this.pub.connect().catch((err: unknown) => this.wentDown(err));
    this.sub.connect().catch((err: unknown) => this.wentDown(err));
  }

  /** Sends the notices still on their way, then disconnects. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.announce();
    await Promise.all(this.pending);
    this.sub.disconnect();
    if (this.pub.status === 'ready') await this.pub.quit().catch(() => undefined);
    else this.pub.disconnect();
  }

  private wentDown(err: unknown): void {
    this.live = this.live && this.sub.status === 'ready';
    if (this.down || this.stopped) return;
    this.down = true;
    this.options.log?.('down', err);
  }
}

/**
 * Reads the seats' event counters (one primary-key query for every connected seat) and pushes
 * to the seats whose log moved past what their sockets were sent.
 */
class EventLogPoller {
  private polling = false;

  constructor(
    private readonly db: Db,
    private readonly hub: RealtimeHub,
  ) {}

  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const seats = this.hub.seatIds();
      if (seats.length === 0) return;
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

/**
 * Without Redis: this instance's changes notify its hub at once, and a poll of the seats'
 * event counters (one primary-key query for every connected seat) finds what another process
 * (the CLI, another instance on the same database) recorded.
 */
export class PollingFanOut implements FanOut {
  private timer: NodeJS.Timeout | null = null;
  private readonly poller: EventLogPoller;

  constructor(
    db: Db,
    private readonly hub: RealtimeHub,
    private readonly pollMs: number,
  ) {
    this.poller = new EventLogPoller(db, hub);
  }

  notify(seatId: number, events?: readonly LoggedEvent[]): void {
    this.hub.notify(seatId, events);
  }

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.poller.poll(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

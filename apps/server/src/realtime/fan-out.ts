import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import { eventsRepository, type LoggedEvent } from '../modules/events/events.repository.js';
import { settingsRepository } from '../modules/settings/settings.repository.js';
import type { RealtimeHub } from './hub.js';
import { serverFrame, type ServerFrame } from '@parley/protocol';

/** A seat id: every instance reads that seat's new events from the log (every release). */
const CHANNEL = 'parley:events';
/**
 * A committed change's rows, `<origin> [seat, [seq, type, data, at, request_id], ...]`, on a
 * channel of this database's own (`parley:events:rows:<scope>`): a deployment or test sharing
 * the Redis never hears them as its seats' events.
 */
const ROWS_CHANNEL = 'parley:events:rows:';
const SCOPE_KEY = 'redis_notice_scope';
/** Ephemeral frames, `<origin> [[seat, ...], frame]`, on this database's channel likewise. */
const EPHEMERAL_CHANNEL = 'parley:ephemeral:';
/**
 * A change's rows past this size (JSON characters) are not carried: the seat id alone, and the
 * others read the log (a pub/sub subscriber's output buffer stays small).
 */
export const MAX_NOTICE_CHARS = 32 * 1024;

export interface FanOut {
  /** A seat's events committed here: tell every instance (this one included: `events`). */
  notify(seatId: number, events?: readonly LoggedEvent[]): void;
  /**
   * An ephemeral frame for these seats' sockets on every instance (this one included), never
   * stored: what is missed (no Redis between instances, Redis away) is not sent again.
   */
  ephemeral(seatIds: readonly number[], frame: ServerFrame): void;
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
 * With Redis: a notice per seat per turn of committed changes. It carries the changes' rows (as
 * the log holds them) when they are few and consecutive: an instance whose sockets of that seat
 * were sent everything before them sends them as they are (RealtimeHub.notify's committed path),
 * else it reads the log, as for a notice of the seat id alone (the CLI, a large change, the
 * previous release). The previous release only hears the seat-id channel: a rows notice is
 * followed there by the seat id with a trailing space (what it reads as the seat id; this
 * release knows it was covered). While this instance's
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
  /** This instance's notices, told from the others' (it has sent its own rows already). */
  private readonly origin = randomBytes(6).toString('hex');
  /** ROWS_CHANNEL and the database's scope; null until read (then rows are not carried). */
  private rowsChannel: string | null = null;
  /** EPHEMERAL_CHANNEL and the database's scope; null until read (then they stay here). */
  private ephemeralChannel: string | null = null;

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
    // One notice per seat per turn: a commit's events reach the bus one publish at a time.
    if (this.toAnnounce.size === 0) process.nextTick(this.announce);
    const queued = this.toAnnounce.get(seatId);
    if (queued === undefined) this.toAnnounce.set(seatId, events ? [...events] : null);
    else if (queued && events) queued.push(...events);
    else this.toAnnounce.set(seatId, null);
  }

  ephemeral(seatIds: readonly number[], frame: ServerFrame): void {
    this.hub?.sendEphemeral(seatIds, frame);
    if (this.pub.status !== 'ready' || !this.ephemeralChannel || seatIds.length === 0) return;
    const sent = this.pub
      .publish(this.ephemeralChannel, `${this.origin} ${JSON.stringify([seatIds, frame])}`)
      .catch(() => undefined);
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
  }

  /** Each seat's rows committed in this turn (null: not all known, the seat id alone). */
  private readonly toAnnounce = new Map<number, LoggedEvent[] | null>();
  private readonly announce = () => {
    const seats = [...this.toAnnounce];
    this.toAnnounce.clear();
    if (this.pub.status !== 'ready' || seats.length === 0) return;
    // The turn's notices leave in one write.
    const batch = this.pub.pipeline();
    for (const [seatId, rows] of seats) {
      const carried = rows && this.rowsChannel && rowsNotice(seatId, rows);
      if (carried) {
        batch.publish(this.rowsChannel!, `${this.origin} ${carried}`);
        batch.publish(CHANNEL, `${seatId} `);
      } else {
        batch.publish(CHANNEL, String(seatId));
      }
    }
    const sent = batch.exec().catch(() => undefined);
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
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
    if (this.options.fallback) {
      // Unread (the database away): notices carry the seat id alone, as before.
      const scope = await noticeScope(this.options.fallback.db).catch(() => null);
      this.rowsChannel = scope === null ? null : ROWS_CHANNEL + scope;
      this.ephemeralChannel = scope === null ? null : EPHEMERAL_CHANNEL + scope;
    }
    const channels = this.rowsChannel ? [CHANNEL, this.rowsChannel] : [CHANNEL];
    if (this.ephemeralChannel) channels.push(this.ephemeralChannel);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.ephemeralChannel) {
        const space = message.indexOf(' ');
        if (message.slice(0, space) === this.origin) return;
        const heard = readEphemeral(message.slice(space + 1));
        if (heard) hub.sendEphemeral(heard.seatIds, heard.frame);
        return;
      }
      if (channel === this.rowsChannel) {
        const space = message.indexOf(' ');
        if (message.slice(0, space) === this.origin) return;
        const notice = readRowsNotice(message.slice(space + 1));
        if (notice) hub.notify(notice.seatId, notice.rows);
        return;
      }
      // A seat id with a trailing space came with its rows on the rows channel (when this
      // instance hears it: else it reads the log, as the previous release does).
      if (message.endsWith(' ') && this.rowsChannel) return;
      const seatId = Number(message);
      if (Number.isSafeInteger(seatId)) hub.notify(seatId);
    });
    this.sub.on('ready', () => {
      this.sub.subscribe(...channels).then(
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

/** This database's name for its rows notices: made once, kept with the other shared settings. */
async function noticeScope(db: Db): Promise<string> {
  const stored = await settingsRepository.get(db, SCOPE_KEY);
  if (stored) return stored.value;
  await settingsRepository.insertIfAbsent(
    db,
    SCOPE_KEY,
    randomBytes(9).toString('hex'),
    Date.now(),
  );
  return (await settingsRepository.get(db, SCOPE_KEY))!.value;
}

/**
 * The rows notice of one seat's rows (JSON), or null when they cannot be carried: not
 * consecutive (another instance's change between two of this turn's), or too large.
 */
function rowsNotice(seatId: number, rows: LoggedEvent[]): string | null {
  rows.sort((a, b) => Number(a.seq) - Number(b.seq));
  if (!consecutive(rows)) return null;
  const text = JSON.stringify([
    seatId,
    ...rows.map((r) => [Number(r.seq), r.type, r.data, Number(r.at), r.request_id ?? null]),
  ]);
  return text.length <= MAX_NOTICE_CHARS ? text : null;
}

/**
 * A rows notice read back: its seat and rows, or the seat alone (rows undefined: read the log)
 * when the rows are not as this release writes them; null when not even the seat is.
 */
function readRowsNotice(text: string): { seatId: number; rows: LoggedEvent[] | undefined } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || !Number.isSafeInteger(parsed[0])) return null;
  const [seatId, ...items] = parsed as [number, ...unknown[]];
  const rows: LoggedEvent[] = [];
  for (const item of items) {
    if (!Array.isArray(item)) return { seatId, rows: undefined };
    const [seq, type, data, at, requestId] = item as unknown[];
    if (
      !Number.isSafeInteger(seq) ||
      typeof type !== 'string' ||
      typeof data !== 'string' ||
      typeof at !== 'number' ||
      (requestId !== null && typeof requestId !== 'string')
    ) {
      return { seatId, rows: undefined };
    }
    rows.push({
      seat_id: seatId,
      seq: seq as number,
      type,
      data,
      at,
      request_id: requestId as string | null,
    });
  }
  return { seatId, rows: rows.length > 0 && consecutive(rows) ? rows : undefined };
}

/** An ephemeral notice read back (a frame the protocol knows, for seat ids), else null. */
function readEphemeral(text: string): { seatIds: number[]; frame: ServerFrame } | null {
  try {
    const [seatIds, frame] = JSON.parse(text) as [unknown, unknown];
    if (!Array.isArray(seatIds) || !seatIds.every((id) => Number.isSafeInteger(id))) return null;
    const parsed = serverFrame.safeParse(frame);
    return parsed.success ? { seatIds: seatIds as number[], frame: parsed.data } : null;
  } catch {
    return null;
  }
}

/** Each row's number is the one before's plus one (the hub sends them as a run). */
function consecutive(rows: readonly LoggedEvent[]): boolean {
  return rows.every((r, i) => i === 0 || Number(r.seq) === Number(rows[i - 1]!.seq) + 1);
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

  /** Without Redis, ephemeral frames reach this instance's sockets only (nothing is stored). */
  ephemeral(seatIds: readonly number[], frame: ServerFrame): void {
    this.hub.sendEphemeral(seatIds, frame);
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

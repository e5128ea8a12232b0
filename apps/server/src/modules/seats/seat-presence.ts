import type { Db } from '../../db/database.js';
import { seatsRepository } from './seats.repository.js';

/** At most one presence write per seat per instance in this long, whatever the seat does. */
export const PRESENCE_WRITE_MAX_MS = 60_000;

/**
 * Records that a seat was seen (seats.last_seen_at) on any authenticated activity: a login, a
 * call or media fetch with its token, its push socket's hello. No request waits for it or
 * fails by it: the write is started and left (a failure is logged), and each instance writes a
 * seat at most once per `intervalMs` (the push heartbeat, at most a minute), so a busy seat
 * costs one write an interval, not one a request. The owner's "online" (seen within two
 * heartbeats and a second) then holds for a seat that keeps working through the API with no
 * console open (docs/ARCHITECTURE.md, `seats.last_seen_at`).
 */
export class SeatPresence {
  /** When this instance last wrote each seat. */
  private readonly written = new Map<number, number>();
  private readonly writing = new Set<Promise<void>>();
  /** Told of a failed write (the app logs it); the request it came with has gone on. */
  onError: (err: unknown) => void = () => undefined;

  constructor(
    private readonly db: Db,
    readonly intervalMs: number,
  ) {}

  /**
   * Writes last_seen_at unless this instance wrote it for the seat within the interval. Not
   * to be awaited on a request's path; the promise (never rejected) is for tests.
   */
  seen(seatId: number, now = Date.now()): Promise<void> {
    const last = this.written.get(seatId);
    if (last !== undefined && now - last < this.intervalMs) return Promise.resolve();
    this.written.set(seatId, now);
    // Old entries go as new ones come: the map holds the seats active within an interval.
    if (this.written.size > 1_000) this.forgetBefore(now - this.intervalMs);
    const write = seatsRepository
      .seen(this.db, seatId, now)
      .catch((err: unknown) => {
        // Tried again at the seat's next activity rather than an interval later.
        if (this.written.get(seatId) === now) this.written.delete(seatId);
        this.onError(err);
      })
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
    return write;
  }

  /** Resolves when the writes started so far have ended (tests, and the app's close). */
  async settled(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  private forgetBefore(cutoff: number) {
    for (const [seatId, at] of this.written) if (at < cutoff) this.written.delete(seatId);
  }
}

/** The write interval for a push heartbeat: the heartbeat, at most PRESENCE_WRITE_MAX_MS. */
export const presenceIntervalMs = (heartbeatMs: number) =>
  Math.min(heartbeatMs, PRESENCE_WRITE_MAX_MS);

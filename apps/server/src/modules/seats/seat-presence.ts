import type { Db } from '../../db/database.js';
import { seatsRepository } from './seats.repository.js';

/** At most one presence write per seat per instance in this long, whatever the seat does. */
export const PRESENCE_WRITE_MAX_MS = 60_000;

/**
 * Records that a seat was seen (seats.last_seen_at) on any authenticated activity: a call with
 * its token, a media fetch, its push socket, a login. So that this costs no write per request,
 * each instance writes a seat at most once per `intervalMs` (the push heartbeat, at most a
 * minute): the owner's "online" (two heartbeats) then holds for a seat that keeps working
 * through the API without a console (docs/ARCHITECTURE.md, "Presence").
 */
export class SeatPresence {
  /** When this instance last wrote each seat. */
  private readonly written = new Map<number, number>();
  /** Told of a failed write (logged by the app); the request it came with goes on. */
  onError: (err: unknown) => void = () => undefined;

  constructor(
    private readonly db: Db,
    readonly intervalMs: number,
  ) {}

  /** Writes last_seen_at unless this instance wrote it for the seat within the interval. */
  async seen(seatId: number, now = Date.now()): Promise<void> {
    const last = this.written.get(seatId);
    if (last !== undefined && now - last < this.intervalMs) return;
    this.written.set(seatId, now);
    try {
      await seatsRepository.touch(this.db, [seatId], now);
    } catch (err) {
      // Tried again at the next activity rather than an interval later.
      this.written.delete(seatId);
      this.onError(err);
    }
  }
}

/** The write interval for a push heartbeat: the heartbeat, at most PRESENCE_WRITE_MAX_MS. */
export const presenceIntervalMs = (heartbeatMs: number) =>
  Math.min(heartbeatMs, PRESENCE_WRITE_MAX_MS);

import type { EventPayload, EventType } from '@parley/protocol';
import type { Db } from '../db/database.js';
import { currentRequestId } from '../lib/request-context.js';
import { afterCommit, inTransaction } from '../lib/tx.js';
import type { EventBus, ManyEvent } from '../modules/events/event-bus.js';
import { eventsRepository, type LoggedEvent } from '../modules/events/events.repository.js';

/**
 * Told that a seat has new events (they are committed and can be read); `events`: the ones
 * recorded here, as the log holds them, when the bus has them (the hub sends them without
 * reading them back).
 */
export type SeatNotifier = (seatId: number, events?: readonly LoggedEvent[]) => void;

/**
 * Records each event in the `events` table, in the caller's transaction, and tells the
 * notifier once it has committed: this instance's sockets are sent the new rows, and the
 * notifier tells the other instances (Redis) or they find them by polling.
 */
export class RecordingEventBus implements EventBus {
  private readonly watchers = new Set<SeatNotifier>();

  constructor(private notify: SeatNotifier = () => undefined) {}

  /** Also told of each seat's committed events (the admin console's live overview, Web Push). */
  watch(watcher: SeatNotifier): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** The app wires its hub after the services are built. */
  setNotifier(notify: SeatNotifier): void {
    this.notify = notify;
  }

  recorded(seatId: number, events?: readonly LoggedEvent[]): void {
    this.notify(seatId, events);
    this.watchers.forEach((watcher) => watcher(seatId, events));
  }

  async publish<T extends EventType>(
    db: Db,
    seatId: number,
    type: T,
    data: EventPayload<T>,
  ): Promise<void> {
    await inTransaction(db, async (trx) => {
      const event = {
        seat_id: seatId,
        type,
        data: JSON.stringify(data),
        at: Date.now(),
        request_id: currentRequestId(),
      };
      const seq = await eventsRepository.append(trx, event);
      afterCommit(trx, () => this.recorded(seatId, [{ ...event, seq }]));
    });
  }

  async publishMany(db: Db, events: ManyEvent[]): Promise<void> {
    if (events.length === 0) return;
    await inTransaction(db, async (trx) => {
      const at = Date.now();
      // One payload told to many seats (a team's queue to its members) is written out once.
      const texts = new Map<unknown, string>();
      const text = (data: unknown) => {
        let out = texts.get(data);
        if (out === undefined) texts.set(data, (out = JSON.stringify(data)));
        return out;
      };
      const rows = events.map((e) => ({
        seat_id: e.seatId,
        type: e.type,
        data: text(e.data),
        at,
        request_id: e.requestId,
      }));
      const seqs = await eventsRepository.appendMany(trx, rows);
      const bySeat = new Map<number, LoggedEvent[]>();
      rows.forEach((row, i) => {
        let logged = bySeat.get(row.seat_id);
        if (!logged) bySeat.set(row.seat_id, (logged = []));
        logged.push({ ...row, seq: seqs[i]! });
      });
      for (const [seatId, logged] of bySeat) afterCommit(trx, () => this.recorded(seatId, logged));
    });
  }
}

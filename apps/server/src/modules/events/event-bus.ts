import type { EventPayload, EventType } from '@parley/protocol';
import type { Db } from '../../db/database.js';

/**
 * How a change reaches the seat's open consoles (the push channel of the protocol's
 * `events.ts`). Services publish after (or inside) the transaction that made the change; the
 * realtime plugin records the event with the seat's next event id, so a console that was
 * offline resumes from the last id it saw, and fans it out to every server instance.
 */
export interface EventBus {
  /**
   * Publishes one event for one seat. With `db` a transaction, the event is recorded in it
   * and pushed only once it commits; otherwise at once.
   */
  publish<T extends EventType>(
    db: Db,
    seatId: number,
    type: T,
    data: EventPayload<T>,
  ): Promise<void>;
  /**
   * Several events at once in the transaction `db` (a group commit of sends), each with the
   * request id of the request it belongs to. Without it, SeatEvents publishes them one by one.
   */
  publishMany?(db: Db, events: ManyEvent[]): Promise<void>;
  /**
   * A bus that records events in the `events` table: events of this seat were recorded by a
   * statement of their own (a batch of sends) and have committed; push them.
   */
  recorded?(seatId: number): void;
}

/** One event of EventBus.publishMany. */
export interface ManyEvent<T extends EventType = EventType> {
  seatId: number;
  type: T;
  data: EventPayload<T>;
  requestId: string | null;
}

/** Publishes nothing: for the CLI, and until the realtime plugin is wired. */
export const silentEventBus: EventBus = {
  async publish() {
    // nothing listens
  },
};

import type { Db } from '../db/database.js';
import { eventsRepository } from '../modules/events/events.repository.js';

/**
 * Deletes push events older than the retention (a console offline longer refetches instead),
 * hourly and once at start. Every instance may run it: a delete by age is idempotent.
 */
export class EventsPruner {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly retentionHours: number,
    private readonly log: { error(obj: object, msg: string): void },
    private readonly everyMs = 3600_000,
  ) {}

  start(): void {
    void this.prune();
    this.timer = setInterval(() => void this.prune(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async prune(now = Date.now()): Promise<number> {
    try {
      return await eventsRepository.pruneBefore(this.db, now - this.retentionHours * 3600_000);
    } catch (err) {
      this.log.error({ err }, 'pruning push events failed');
      return 0;
    }
  }
}

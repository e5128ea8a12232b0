import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../../lib/app-error.js';

/** Default of PARLEY_EXPORTS_AT_ONCE. */
export const EXPORTS_AT_ONCE_DEFAULT = 2;
/** A refused export may be asked again this soon. */
export const EXPORT_RETRY_AFTER_S = 5;

/** 503 `500005` (`data.reason` `exports_busy`); the route adds Retry-After. */
export class ExportsBusy extends AppError {
  readonly retryAfterS = EXPORT_RETRY_AFTER_S;
  constructor() {
    super(ERROR_CODES.SERVER_BUSY, undefined, {
      reason: 'exports_busy',
      retry_after_ms: EXPORT_RETRY_AFTER_S * 1000,
    });
  }
}

/**
 * How many CSV exports stream at once. Each takes a core's worth of work while it runs (on
 * SQLite a worker thread of its own, on PostgreSQL the database's and this loop's turns), so
 * every export more lengthens the operators' calls on a small machine (bench/README.md,
 * export-load: 8 at once on 2 cores doubled a seat's p99, 2 did not). Beyond `max`, an export
 * is refused, coded.
 */
export class ExportGate {
  private running = 0;

  constructor(readonly max: number) {}

  /** A place for one export, or ExportsBusy; the returned function frees it (once). */
  enter(): () => void {
    if (this.running >= this.max) throw new ExportsBusy();
    this.running++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
    };
  }

  /** Exports streaming now (tests). */
  active(): number {
    return this.running;
  }
}

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
 * How many CSV exports stream at once. Each reads the database in chunks between which the
 * operators' calls get their turn; on SQLite those chunks run on the one event loop, so every
 * export more lengthens each seat call's wait. Beyond `max`, an export is refused, coded.
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

import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../../lib/app-error.js';
import type { ParleyMetrics } from '../../metrics/metrics.js';

export interface StorageLog {
  error(obj: object, msg: string): void;
  info(msg: string): void;
}

/** A condition that clears and comes back within this is not logged again. */
const REPEAT_AFTER_MS = 60_000;

/** Why the media store refused a write. */
export type StorageFault = 'full' | 'read_only';
export const STORAGE_FAULTS: readonly StorageFault[] = ['full', 'read_only'];

/** The store's trouble in a file system error, or null when the error is something else. */
export function storageFaultOf(err: unknown): StorageFault | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'read_only';
  return null;
}

/**
 * Whether the media store takes writes, as the last write found it. A failed write is answered
 * 507001 / 507002 with its reason; the log says so once when the store turns full or read-only
 * and once when it takes writes again (not once per request: a full disk under a team's
 * uploads would flood it). Metrics read the counts and the state.
 */
export class StorageHealth {
  private fault: StorageFault | null = null;
  private lastSaid: Record<StorageFault, number> = { full: -Infinity, read_only: -Infinity };
  /** The server's log (app.ts); none in the CLI, whose command reports the error itself. */
  log: StorageLog | null = null;
  /** Called on each refused write (the metrics' counter). */
  onFault: ((reason: StorageFault) => void) | null = null;

  get writable(): boolean {
    return this.fault === null;
  }

  /** A write failed: the coded refusal when the store is at fault, else null (a bug: 500001). */
  failed(err: unknown): AppError | null {
    const reason = storageFaultOf(err);
    if (reason === null) return null;
    this.onFault?.(reason);
    // Said when it starts, and again only after a quiet minute: a store at the edge of full
    // (small files pass, large ones fail) does not write a line per upload either.
    const now = Date.now();
    if (this.fault !== reason && now - this.lastSaid[reason] >= REPEAT_AFTER_MS) {
      this.lastSaid[reason] = now;
      const { code, message } = err as { code: string; message: string };
      this.log?.error(
        { err: { code, message }, reason },
        reason === 'full'
          ? 'media storage is full: uploads are refused (507001) until space is freed'
          : 'media storage cannot be written: uploads are refused (507002) until it can',
      );
    }
    this.fault = reason;
    const code =
      reason === 'full' ? ERROR_CODES.MEDIA_STORAGE_FULL : ERROR_CODES.MEDIA_STORAGE_READ_ONLY;
    return new AppError(code, undefined, { reason });
  }

  /** A write went through: the store is writable again (said once). */
  succeeded(): void {
    if (this.fault === null) return;
    this.fault = null;
    this.log?.info('media storage takes writes again');
  }

  /** The metrics: refused writes by reason (counted as they happen) and the state. */
  observe(metrics: ParleyMetrics): void {
    this.onFault = (reason) => metrics.mediaStorageErrors.inc({ reason });
    for (const reason of STORAGE_FAULTS) metrics.mediaStorageErrors.inc({ reason }, 0);
    const writable = () => this.writable;
    metrics.gauge(
      'media_storage_writable',
      'Whether the last write to the media store went through (0: full or read-only)',
      [],
      function () {
        this.set(writable() ? 1 : 0);
      },
    );
  }
}

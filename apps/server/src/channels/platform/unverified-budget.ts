import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../../lib/app-error.js';

const MB = 1024 * 1024;
/** Defaults of PARLEY_PLATFORM_UNVERIFIED_MAX_MB and PARLEY_PLATFORM_UNVERIFIED_PER_ADDRESS_MAX_MB. */
export const UNVERIFIED_MAX_BYTES_DEFAULT = 256 * MB;
/** Above one largest message (64 MB of video as base64, ~90 MB), below the whole bound. */
export const UNVERIFIED_PER_ADDRESS_MAX_BYTES_DEFAULT = 128 * MB;
/** A refused platform request may try again this soon: a held body is read in seconds. */
export const UNVERIFIED_RETRY_AFTER_S = 5;

/** Bytes one request may hold until its signature is checked; released once, when it is. */
export interface Reservation {
  release(): void;
}

/**
 * The bytes held (in memory or spilled to a temp file) for platform bodies whose signature is
 * not checked yet: the HMAC covers the whole body, so a body must be kept until its last byte.
 * Reserved before a byte is read, by the declared length (or the route's cap when chunked):
 * forged requests can hold at most `totalMax` bytes in all, and `perAddressMax` per address.
 */
export class UnverifiedBudget {
  private total = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(
    readonly totalMax: number,
    readonly perAddressMax: number,
  ) {}

  /** Reserves `bytes` for a request from `address`, or throws the coded refusal. */
  reserve(address: string, bytes: number): Reservation {
    if (bytes > this.perAddressMax || bytes > this.totalMax) {
      // Never fits, whatever else is in flight: a retry would be refused again.
      throw new AppError(ERROR_CODES.PARAMETER_ERROR, 'Parameter error: body', {
        fields: [{ path: 'body', message: 'larger than unverified bodies may hold' }],
      });
    }
    const held = this.byAddress.get(address) ?? 0;
    if (held + bytes > this.perAddressMax) {
      throw busy(ERROR_CODES.OPERATION_LIMIT, 'unverified_bytes_per_address');
    }
    if (this.total + bytes > this.totalMax) throw busy(ERROR_CODES.SERVER_BUSY, 'unverified_bytes');
    this.total += bytes;
    this.byAddress.set(address, held + bytes);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= bytes;
        const left = (this.byAddress.get(address) ?? 0) - bytes;
        if (left > 0) this.byAddress.set(address, left);
        else this.byAddress.delete(address);
      },
    };
  }

  /** Bytes reserved now (metrics, tests). */
  held(): number {
    return this.total;
  }
}

/** 429 (this address) or 503 (the whole process), with Retry-After set by the route. */
export class BudgetRefusal extends AppError {}

function busy(
  code: typeof ERROR_CODES.OPERATION_LIMIT | typeof ERROR_CODES.SERVER_BUSY,
  reason: string,
) {
  return new BudgetRefusal(code, undefined, {
    reason,
    retry_after_ms: UNVERIFIED_RETRY_AFTER_S * 1000,
  });
}

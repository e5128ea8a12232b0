import ipaddr from 'ipaddr.js';
import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../../lib/app-error.js';

const MB = 1024 * 1024;
/** Defaults of PARLEY_PLATFORM_UNVERIFIED_MAX_MB and PARLEY_PLATFORM_UNVERIFIED_PER_ADDRESS_MAX_MB. */
export const UNVERIFIED_MAX_BYTES_DEFAULT = 256 * MB;
/** Above one largest message (64 MB of video as base64, ~90 MB), below the whole bound. */
export const UNVERIFIED_PER_ADDRESS_MAX_BYTES_DEFAULT = 128 * MB;
/** Defaults of PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS, _GRACE_S and _SLOW_BAN_S. */
export const UNVERIFIED_MIN_BYTES_PER_S_DEFAULT = 64 * 1024;
export const UNVERIFIED_GRACE_MS_DEFAULT = 10_000;
export const UNVERIFIED_SLOW_BAN_MS_DEFAULT = 60_000;
/** A refused platform request may try again this soon at the latest. */
export const UNVERIFIED_RETRY_AFTER_S = 5;

export interface UnverifiedBounds {
  totalMax: number;
  perAddressMax: number;
  /** Bytes per second a body must average; its read deadline: grace + received / rate. */
  minBytesPerS: number;
  graceMs: number;
  /** An address whose body was cut for its pace is refused this long. */
  slowBanMs: number;
}

/** Bytes one request may hold until its signature is checked; released once, when it is. */
export interface Reservation {
  release(): void;
}

/** How a held body is doing: bytes come so far, and how to end its connection. */
export interface BodyProgress {
  received(): number;
  cut(): void;
}

/** What the budget tells when it cuts a slow body (the route logs it). */
export interface SlowCut {
  address: string;
  key: string;
  received: number;
  reserved: number;
  ms: number;
}

/**
 * The key of the per-address bound: an IPv4 address itself (also when written IPv4-mapped),
 * an IPv6 address by its /64, the smallest block a subscriber is given: otherwise one host
 * holds as many addresses as it likes.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const bytes = ip.toByteArray();
  const parts = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${parts.join(':')}::/64`;
}

interface Hold {
  key: string;
  address: string;
  bytes: number;
  start: number;
  progress: BodyProgress | null;
  release: () => void;
}

/**
 * The bytes held (in memory or spilled to a temp file) for platform bodies whose signature is
 * not checked yet: the HMAC covers the whole body, so a body must be kept until its last byte.
 * Reserved before a byte is read, by the declared length (or the route's cap when chunked):
 * forged requests can hold at most `totalMax` bytes in all, and `perAddressMax` per address.
 * And not for long: a body must average `minBytesPerS` after a grace (Apache's mod_reqtimeout
 * rule: the deadline moves one second per `minBytesPerS` bytes received); one that falls
 * behind loses its reservation and its connection, and its address is refused for a while, so
 * a trickle cannot hold the door by reconnecting either.
 */
export class UnverifiedBudget {
  private total = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly holds = new Set<Hold>();
  private readonly banned = new Map<string, number>();
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    readonly bounds: UnverifiedBounds,
    private readonly onCut: (cut: SlowCut) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  get totalMax() {
    return this.bounds.totalMax;
  }
  get perAddressMax() {
    return this.bounds.perAddressMax;
  }

  /** Reserves `bytes` for a request from `address`, or throws the coded refusal. */
  reserve(address: string, bytes: number, progress: BodyProgress | null = null): Reservation {
    const { totalMax, perAddressMax } = this.bounds;
    if (bytes > perAddressMax || bytes > totalMax) {
      // Never fits, whatever else is in flight: a retry would be refused again.
      throw new AppError(ERROR_CODES.PARAMETER_ERROR, 'Parameter error: body', {
        fields: [{ path: 'body', message: 'larger than unverified bodies may hold' }],
      });
    }
    const key = addressKey(address);
    const now = this.now();
    const bannedUntil = this.banned.get(key);
    if (bannedUntil !== undefined) {
      if (bannedUntil > now) {
        throw busy(ERROR_CODES.OPERATION_LIMIT, 'unverified_too_slow', bannedUntil - now);
      }
      this.banned.delete(key);
    }
    const held = this.byAddress.get(key) ?? 0;
    if (held + bytes > perAddressMax) {
      throw busy(ERROR_CODES.OPERATION_LIMIT, 'unverified_bytes_per_address', this.wait(key));
    }
    if (this.total + bytes > totalMax) {
      throw busy(ERROR_CODES.SERVER_BUSY, 'unverified_bytes', this.wait(null));
    }
    this.total += bytes;
    this.byAddress.set(key, held + bytes);
    let released = false;
    const hold: Hold = {
      key,
      address,
      bytes,
      start: now,
      progress,
      release: () => {
        if (released) return;
        released = true;
        this.holds.delete(hold);
        this.total -= bytes;
        const left = (this.byAddress.get(key) ?? 0) - bytes;
        if (left > 0) this.byAddress.set(key, left);
        else this.byAddress.delete(key);
        if (this.holds.size === 0 && this.sweep) {
          clearInterval(this.sweep);
          this.sweep = null;
        }
      },
    };
    if (bytes > 0 && progress) {
      this.holds.add(hold);
      this.sweep ??= setInterval(
        () => this.cutSlow(),
        Math.min(1_000, Math.max(50, this.bounds.graceMs / 4)),
      ).unref();
    }
    return { release: hold.release };
  }

  /** Bytes reserved now (metrics, tests). */
  held(): number {
    return this.total;
  }

  /** When a body that receives nothing more falls behind the minimum rate. */
  private deadline(h: Hold): number {
    const received = h.progress?.received() ?? 0;
    return h.start + this.bounds.graceMs + (received / this.bounds.minBytesPerS) * 1000;
  }

  /**
   * How long until room may come free: the first deadline of the bodies held (of one address,
   * or all): if they stall, they are cut by then; if they go on, they end soon.
   */
  private wait(key: string | null): number {
    let first = Infinity;
    for (const h of this.holds)
      if (key === null || h.key === key) first = Math.min(first, this.deadline(h));
    return first - this.now();
  }

  /** Ends the bodies behind the minimum rate: reservation, connection, and their address's turn. */
  cutSlow(): void {
    const now = this.now();
    for (const h of [...this.holds]) {
      if (now <= this.deadline(h)) continue;
      const received = h.progress!.received();
      h.release();
      this.banned.set(h.key, now + this.bounds.slowBanMs);
      h.progress!.cut();
      this.onCut({
        address: h.address,
        key: h.key,
        received,
        reserved: h.bytes,
        ms: now - h.start,
      });
    }
    for (const [key, until] of this.banned) if (until <= now) this.banned.delete(key);
  }
}

/** 429 (this address) or 503 (the whole process), with Retry-After set by the route. */
export class BudgetRefusal extends AppError {
  constructor(
    code: typeof ERROR_CODES.OPERATION_LIMIT | typeof ERROR_CODES.SERVER_BUSY,
    reason: string,
    readonly retryAfterS: number,
  ) {
    super(code, undefined, { reason, retry_after_ms: retryAfterS * 1000 });
  }
}

function busy(
  code: typeof ERROR_CODES.OPERATION_LIMIT | typeof ERROR_CODES.SERVER_BUSY,
  reason: string,
  waitMs: number,
) {
  const s = Math.min(UNVERIFIED_RETRY_AFTER_S, Math.max(1, Math.ceil(waitMs / 1000)));
  return new BudgetRefusal(
    code,
    reason,
    reason === 'unverified_too_slow' ? Math.max(1, Math.ceil(waitMs / 1000)) : s,
  );
}

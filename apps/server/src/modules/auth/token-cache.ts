/** What a valid token says: its seat, and until when it is valid. */
export interface CachedToken {
  seatId: number;
  account: string;
  expiresAt: number;
}

/** How long a token found valid is taken as valid without asking the database again. */
export const TOKEN_CACHE_MS = 60_000;
/** How often the database's count of ended logins is read (AuthService.checkRevocations). */
export const REVOCATION_CHECK_MS = 500;
/** Cached tokens are trusted only this long after the count was last read. */
export const REVOCATION_TRUST_MS = 1_000;
const MAX_ENTRIES = 10_000;

/**
 * Valid tokens seen in the last minute, so a console's calls (the 10-second poll, paging a
 * list) do not each look up their token: the lookup was a fifth of the database's statements
 * with 1,000 consoles. Logout, freeze and a new password forget the seat's entries here at
 * once; a change made by another process (the admin CLI, another instance) moves the
 * database's count of ended logins, which forgets them all within REVOCATION_TRUST_MS. Expiry
 * is checked on every use.
 */
export class TokenCache {
  private readonly entries = new Map<string, CachedToken & { until: number }>();
  /** Moves whenever entries are forgotten: a lookup begun before that is not cached after. */
  private forgotten = 0;

  /** Taken before a lookup, handed to set. */
  get generation(): number {
    return this.forgotten;
  }

  get(tokenHash: string, now: number): CachedToken | null {
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (entry.until <= now || entry.expiresAt <= now) {
      this.entries.delete(tokenHash);
      return null;
    }
    return entry;
  }

  /** Caches a lookup unless entries were forgotten since it began (`generation`). */
  set(tokenHash: string, token: CachedToken, now: number, generation: number): void {
    if (generation !== this.forgotten) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(tokenHash, { ...token, until: now + TOKEN_CACHE_MS });
  }

  clear(): void {
    this.forgotten += 1;
    this.entries.clear();
  }

  forgetToken(tokenHash: string): void {
    this.forgotten += 1;
    this.entries.delete(tokenHash);
  }

  forgetSeat(seatId: number): void {
    this.forgotten += 1;
    for (const [hash, entry] of this.entries) {
      if (entry.seatId === seatId) this.entries.delete(hash);
    }
  }
}

import { createHash, randomBytes } from 'node:crypto';
import { ERROR_CODES, OTHER_MESSAGES, type UserInfo } from '@parley/protocol';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { verifyPassword } from '../../lib/passwords.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { seatsRepository } from '../seats/seats.repository.js';
import { presenceIntervalMs, SeatPresence } from '../seats/seat-presence.js';
import { toUserInfo } from './auth.presenter.js';
import { authRepository } from './auth.repository.js';
import { REVOCATION_CHECK_MS, REVOCATION_TRUST_MS, TokenCache } from './token-cache.js';

/** The signed-in seat a request acts for. */
export interface AuthSeat {
  seatId: number;
  account: string;
  /** The sha256 of the token the request carried (logout ends that one). */
  tokenHash: string;
}

/** Logins just ended: the push sockets of these tokens (or of the whole seat) close. */
export interface Revocation {
  seatId: number;
  /** Null: every token of the seat. */
  tokenHash: string | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class AuthService {
  private readonly revokedListeners = new Set<(revocation: Revocation) => void>();
  private readonly movedListeners = new Set<() => void>();
  /** The count of ended logins last read, and when that read started (0: never). */
  private revocationCount: number | null = null;
  private revocationsReadAt = 0;
  /** Every authentication of a seat (a call, a media fetch, its socket, a login) is presence. */
  readonly presence: SeatPresence;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    /** Shared with SeatsService, which forgets a seat's tokens when it freezes the seat. */
    readonly tokens = new TokenCache(),
  ) {
    this.presence = new SeatPresence(db, presenceIntervalMs(config.realtime.heartbeatMs));
  }

  /** Called after logins end here (the push channel closes their sockets at once). */
  onRevoked(listener: (revocation: Revocation) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /**
   * Called when the database's count of ended logins moved (a logout, freeze or new password
   * in any process): the push channel checks its sockets' tokens.
   */
  onRevocationsMoved(listener: () => void): () => void {
    this.movedListeners.add(listener);
    return () => this.movedListeners.delete(listener);
  }

  /** Logins ended elsewhere (a seat frozen or given a new password): close their sockets. */
  announceRevoked(revocation: Revocation): void {
    this.revokedListeners.forEach((listener) => listener(revocation));
  }

  /**
   * Logout: revokes the token of the request, or every token of the seat (log out of every
   * device). Answers how many logins ended.
   */
  async logout(seat: AuthSeat, allDevices: boolean): Promise<{ revoked: number }> {
    const now = Date.now();
    const revoked = allDevices
      ? await authRepository.revokeSeatTokens(this.db, seat.seatId, now)
      : await authRepository.revokeToken(this.db, seat.tokenHash, now);
    if (allDevices) this.tokens.forgetSeat(seat.seatId);
    else this.tokens.forgetToken(seat.tokenHash);
    const revocation = { seatId: seat.seatId, tokenHash: allDevices ? null : seat.tokenHash };
    this.revokedListeners.forEach((listener) => listener(revocation));
    return { revoked };
  }

  /**
   * Each attempt takes its place in the account's and the address's throttle windows before
   * the password is checked, so guesses sent in parallel are limited like guesses in a row.
   * A success clears the account's window and gives the address its place back.
   */
  async login(accountInput: string, password: string, ip = 'unknown'): Promise<UserInfo> {
    const account = accountInput.trim();
    const now = Date.now();
    const windowStart = now - this.config.loginWindowSeconds * 1000;
    const accountKey = `account:${account}`;
    const ipKey = `ip:${ip}`;
    const byAccount = await authRepository.takeAttempt(this.db, accountKey, now, windowStart);
    const byIp = await authRepository.takeAttempt(this.db, ipKey, now, windowStart);
    if (byAccount > this.config.loginMaxFailures || byIp > this.config.loginMaxFailuresPerIp) {
      throw new AppError(ERROR_CODES.OPERATION_LIMIT);
    }
    const seat = await seatsRepository.findByAccount(this.db, account);
    if (!seat) {
      await authRepository.pruneAttempts(this.db, windowStart);
      throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    }
    if (!(await verifyPassword(seat.password_hash, password))) {
      await authRepository.pruneAttempts(this.db, windowStart);
      throw new AppError(ERROR_CODES.PASSWORD_ERROR);
    }
    // Frozen is told only to whoever knows the password.
    if (seat.frozen) throw new AppError(ERROR_CODES.ACCOUNT_FROZEN);
    await authRepository.clearAttempts(this.db, accountKey);
    await authRepository.giveBack(this.db, ipKey);

    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + Math.round(this.config.tokenTtlHours * 3600_000);
    await authRepository.insertToken(this.db, {
      token_hash: hashToken(token),
      seat_id: seat.id,
      created_at: now,
      expires_at: expiresAt,
    });
    void this.presence.seen(seat.id, now);
    const accounts = await accountsRepository.listBySeat(this.db, seat.id);
    return toUserInfo(seat, accounts, token, expiresAt);
  }

  /** Single sign-on hand-off: the same token, with the user info. */
  async tokenLogin(token: string): Promise<UserInfo> {
    const auth = await this.authenticateToken(token);
    const seat = await seatsRepository.findById(this.db, auth.seatId);
    if (!seat) throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
    const accounts = await accountsRepository.listBySeat(this.db, seat.id);
    return toUserInfo(seat, accounts, token, auth.expiresAt);
  }

  /** From the Authorization header: a raw token or `Bearer <token>`. */
  async authenticateHeader(header: string | undefined): Promise<AuthSeat> {
    const raw = (header ?? '').trim();
    const token = raw.replace(/^Bearer(\s+|$)/i, '').trim();
    if (!token) throw new AppError(ERROR_CODES.TOKEN_EXPIRED, OTHER_MESSAGES.missingAuth);
    const { seatId, account, tokenHash } = await this.authenticateToken(token);
    return { seatId, account, tokenHash };
  }

  /** A raw token (the push channel's hello): the seat, or 400002. */
  authenticate(token: string) {
    return this.authenticateToken(token);
  }

  /**
   * Reads the database's count of ended logins; when it moved (a logout, a freeze or a new
   * password here or in another process), every cached token is forgotten. Cached tokens are
   * trusted only while this runs (every REVOCATION_CHECK_MS, startRevocationChecks).
   */
  async checkRevocations(): Promise<void> {
    const startedAt = Date.now();
    const n = await authRepository.revocations(this.db);
    if (n !== this.revocationCount) {
      this.tokens.clear();
      const moved = this.revocationCount !== null;
      this.revocationCount = n;
      if (moved) this.movedListeners.forEach((listener) => listener());
    }
    this.revocationsReadAt = startedAt;
  }

  /** Checks every REVOCATION_CHECK_MS until the returned stop is called. */
  startRevocationChecks(onError: (err: unknown) => void): () => void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      this.checkRevocations()
        .catch(onError)
        .finally(() => (running = false));
    }, REVOCATION_CHECK_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Of these token hashes, the ones still valid now (the push channel checks its sockets). */
  async stillValid(tokenHashes: string[]): Promise<Set<string>> {
    if (tokenHashes.length === 0) return new Set();
    const rows = await authRepository.findValidHashes(this.db, tokenHashes, Date.now());
    return new Set(rows.map((r) => r.token_hash));
  }

  /**
   * Unknown, expired and revoked tokens all answer 400002 (the client re-logs in). A frozen
   * seat's tokens answer 200002: its open console says the account is frozen (logging in
   * again would not help), not that the login expired.
   */
  private async authenticateToken(token: string) {
    if (token.length > 256) throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
    const tokenHash = hashToken(token);
    const now = Date.now();
    const trusted = now - this.revocationsReadAt <= REVOCATION_TRUST_MS;
    const cached = trusted ? this.tokens.get(tokenHash, now) : null;
    if (cached) {
      void this.presence.seen(cached.seatId, now);
      return { ...cached, tokenHash };
    }
    // A logout or a revocation seen while the row is read must not be cached over.
    const generation = this.tokens.generation;
    const row = await authRepository.findToken(this.db, tokenHash);
    if (row?.frozen) throw new AppError(ERROR_CODES.ACCOUNT_FROZEN);
    if (!row || row.revoked_at !== null || row.expires_at <= now) {
      throw new AppError(ERROR_CODES.TOKEN_EXPIRED);
    }
    const valid = { seatId: row.seat_id, account: row.account, expiresAt: row.expires_at };
    this.tokens.set(tokenHash, valid, now, generation);
    void this.presence.seen(valid.seatId, now);
    return { ...valid, tokenHash };
  }
}

import { ACCOUNT_MAX, ERROR_CODES, NICKNAME_MAX, PASSWORD_MIN } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { SeatRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { authRepository } from '../auth/auth.repository.js';
import { seatsRepository } from './seats.repository.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { inTransaction } from '../../lib/tx.js';
import type { TokenCache } from '../auth/token-cache.js';
import type { Revocation } from '../auth/auth.service.js';
import { AuditService, CLI_ACTOR, type Actor } from '../admin/audit.service.js';

const ACCOUNT_PATTERN = /^[A-Za-z0-9_.@-]+$/;

function invalid(field: string, message: string) {
  return new AppError(ERROR_CODES.PARAMETER_ERROR, `Parameter error: ${field}`, {
    fields: [{ path: field, message }],
  });
}

export function checkSeatAccount(account: string): string {
  const value = account.trim();
  if (!value || value.length > ACCOUNT_MAX || !ACCOUNT_PATTERN.test(value)) {
    throw invalid('account', `1-${ACCOUNT_MAX} letters, digits or _ . @ -`);
  }
  return value;
}

export function checkPassword(password: string): string {
  if (password.length < PASSWORD_MIN || password.length > 256) {
    throw invalid('password', `at least ${PASSWORD_MIN} characters`);
  }
  return password;
}

export function checkNickname(nickname: string): string {
  const value = nickname.trim();
  if (!value || value.length > NICKNAME_MAX) {
    throw invalid('nickname', `1-${NICKNAME_MAX} characters`);
  }
  return value;
}

/** What the audit log keeps of a seat (never its password). */
export const seatSnapshot = (s: Pick<SeatRow, 'account' | 'nickname' | 'frozen'>) => ({
  account: s.account,
  nickname: s.nickname,
  frozen: Boolean(s.frozen),
});

/** A seat by id (the console) or by account (the CLI). */
export type SeatRef = number | string;

/**
 * Seat administration: the admin console, the CLI and the demo workspace use this one service;
 * every change is written to the audit log in its own transaction.
 */
export class SeatsService {
  constructor(
    private readonly db: Db,
    /** The server's cache of valid tokens (the CLI has none). */
    private readonly tokens?: TokenCache,
    private readonly audit: AuditService = new AuditService(db),
    /** Told when a seat's logins end here, so its push sockets close at once. */
    private readonly announceRevoked?: (revocation: Revocation) => void,
    /** Told of each seat made here (an operator's: the team door then needs no read for it). */
    private readonly created?: (seatId: number) => void,
  ) {}

  /** A seat and its three built-in groups, in one transaction. */
  async create(
    input: { account: string; password: string; nickname?: string },
    actor: Actor = CLI_ACTOR,
  ): Promise<SeatRow> {
    const account = checkSeatAccount(input.account);
    const nickname =
      input.nickname === undefined || !input.nickname.trim()
        ? account
        : checkNickname(input.nickname);
    const password_hash = await hashPassword(checkPassword(input.password));
    if (await seatsRepository.findByAccount(this.db, account)) {
      throw new AppError(ERROR_CODES.DATA_EXISTS);
    }
    const now = Date.now();
    try {
      const made = await inTransaction(this.db, async (trx) => {
        const seat = await seatsRepository.insert(trx, { account, nickname, password_hash, now });
        await groupsRepository.insertBuiltIns(trx, seat.id, now);
        await this.audit.record(
          trx,
          actor,
          'seat.create',
          'seat',
          seat.id,
          account,
          null,
          seatSnapshot(seat),
        );
        return seat;
      });
      this.created?.(made.id);
      return made;
    } catch (err) {
      // The same account created at the same moment by another request.
      if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.DATA_EXISTS);
      throw err;
    }
  }

  async require(ref: SeatRef): Promise<SeatRow> {
    const seat = await seatsRepository.findByRef(this.db, ref);
    if (!seat) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    return seat;
  }

  /** Freezing also revokes the seat's tokens: its open consoles return to login at once. */
  async setFrozen(ref: SeatRef, frozen: boolean, actor: Actor = CLI_ACTOR): Promise<SeatRow> {
    const seat = await this.require(ref);
    const after = { ...seat, frozen: frozen ? 1 : 0 };
    await inTransaction(this.db, async (trx) => {
      await seatsRepository.setFrozen(trx, seat.id, frozen);
      if (frozen) await authRepository.revokeSeatTokens(trx, seat.id, Date.now());
      await this.audit.record(
        trx,
        actor,
        frozen ? 'seat.freeze' : 'seat.unfreeze',
        'seat',
        seat.id,
        seat.account,
        seatSnapshot(seat),
        seatSnapshot(after),
      );
    });
    if (frozen) this.loginsEnded(seat.id);
    return after;
  }

  async setNickname(ref: SeatRef, nickname: string, actor: Actor = CLI_ACTOR): Promise<SeatRow> {
    const value = checkNickname(nickname);
    const seat = await this.require(ref);
    const after = { ...seat, nickname: value };
    await inTransaction(this.db, async (trx) => {
      await seatsRepository.setNickname(trx, seat.id, value);
      await this.audit.record(
        trx,
        actor,
        'seat.update',
        'seat',
        seat.id,
        seat.account,
        seatSnapshot(seat),
        seatSnapshot(after),
      );
    });
    return after;
  }

  async resetPassword(ref: SeatRef, password: string, actor: Actor = CLI_ACTOR): Promise<SeatRow> {
    const hash = await hashPassword(checkPassword(password));
    const seat = await this.require(ref);
    await inTransaction(this.db, async (trx) => {
      await seatsRepository.setPassword(trx, seat.id, hash);
      await authRepository.revokeSeatTokens(trx, seat.id, Date.now());
      await authRepository.clearAttempts(trx, `account:${seat.account}`);
      // The password itself is never logged: only that it changed.
      await this.audit.record(
        trx,
        actor,
        'seat.reset_password',
        'seat',
        seat.id,
        seat.account,
        null,
        null,
      );
    });
    this.loginsEnded(seat.id);
    return seat;
  }

  list() {
    return seatsRepository.list(this.db);
  }

  private loginsEnded(seatId: number) {
    this.tokens?.forgetSeat(seatId);
    this.announceRevoked?.({ seatId, tokenHash: null });
  }
}

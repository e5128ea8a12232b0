import { ACCOUNT_MAX, ERROR_CODES, PASSWORD_MIN } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { SeatRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { hashPassword } from '../../lib/passwords.js';
import { authRepository } from '../auth/auth.repository.js';
import { seatsRepository } from './seats.repository.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { inTransaction } from '../../lib/tx.js';
import type { TokenCache } from '../auth/token-cache.js';

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

/** Seat administration (used by the CLI and the demo workspace). */
export class SeatsService {
  constructor(
    private readonly db: Db,
    /** The server's cache of valid tokens (the CLI has none). */
    private readonly tokens?: TokenCache,
  ) {}

  /** A seat and its three built-in groups, in one transaction. */
  async create(input: { account: string; password: string; nickname?: string }): Promise<SeatRow> {
    const account = checkSeatAccount(input.account);
    const password_hash = await hashPassword(checkPassword(input.password));
    const nickname = (input.nickname ?? '').trim() || account;
    if (await seatsRepository.findByAccount(this.db, account)) {
      throw new AppError(ERROR_CODES.DATA_EXISTS);
    }
    const now = Date.now();
    return inTransaction(this.db, async (trx) => {
      const seat = await seatsRepository.insert(trx, { account, nickname, password_hash, now });
      await groupsRepository.insertBuiltIns(trx, seat.id, now);
      return seat;
    });
  }

  async require(account: string): Promise<SeatRow> {
    const seat = await seatsRepository.findByAccount(this.db, account.trim());
    if (!seat) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    return seat;
  }

  /** Freezing also revokes the seat's tokens: its open consoles return to login. */
  async setFrozen(account: string, frozen: boolean): Promise<SeatRow> {
    const seat = await this.require(account);
    await inTransaction(this.db, async (trx) => {
      await seatsRepository.setFrozen(trx, seat.id, frozen);
      if (frozen) await authRepository.revokeSeatTokens(trx, seat.id, Date.now());
    });
    if (frozen) this.tokens?.forgetSeat(seat.id);
    return { ...seat, frozen: frozen ? 1 : 0 };
  }

  async resetPassword(account: string, password: string): Promise<SeatRow> {
    const seat = await this.require(account);
    const hash = await hashPassword(checkPassword(password));
    await inTransaction(this.db, async (trx) => {
      await seatsRepository.setPassword(trx, seat.id, hash);
      await authRepository.revokeSeatTokens(trx, seat.id, Date.now());
      await authRepository.clearAttempts(trx, `account:${seat.account}`);
    });
    this.tokens?.forgetSeat(seat.id);
    return seat;
  }

  list() {
    return seatsRepository.list(this.db);
  }
}

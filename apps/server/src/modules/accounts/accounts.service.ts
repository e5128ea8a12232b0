import { ERROR_CODES, PHONE_PATTERN } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { PhoneAccountRow } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { accountsRepository } from './accounts.repository.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { seatsRepository } from '../seats/seats.repository.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import { messagesRepository } from '../messages/messages.repository.js';
import { inTransaction } from '../../lib/tx.js';

/** Phone accounts (send_phone) rented to seats. */
export class AccountsService {
  constructor(private readonly db: Db) {}

  async add(input: {
    phone: string;
    label?: string;
    channel?: PhoneAccountRow['channel'];
  }): Promise<PhoneAccountRow> {
    const send_phone = input.phone.trim();
    if (!PHONE_PATTERN.test(send_phone)) throw new AppError(ERROR_CODES.INVALID_PHONE_FORMAT);
    if (await accountsRepository.findByPhone(this.db, send_phone)) {
      throw new AppError(ERROR_CODES.DATA_EXISTS);
    }
    return accountsRepository.insert(this.db, {
      send_phone,
      label: (input.label ?? '').trim(),
      channel: input.channel ?? 'platform',
      now: Date.now(),
    });
  }

  /**
   * Assign an account to a seat. Its existing chats follow it to the new seat's Ungrouped
   * group, so no seat keeps chats of an account it no longer holds.
   */
  async assign(phone: string, seatAccount: string): Promise<{ moved: number }> {
    const account = await accountsRepository.findByPhone(this.db, phone.trim());
    if (!account) throw new AppError(ERROR_CODES.DATA_NOT_FOUND);
    const seat = await seatsRepository.findByAccount(this.db, seatAccount.trim());
    if (!seat) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    if (account.seat_id === seat.id) return { moved: 0 };
    return inTransaction(this.db, async (trx) => {
      await accountsRepository.assign(trx, account.id, seat.id);
      const ungrouped = await groupsRepository.findByType(trx, seat.id, 'ungrouped');
      if (!ungrouped) throw new Error(`seat ${seat.account} has no Ungrouped group`);
      const moved = await sessionsRepository.handOverAccount(
        trx,
        account.send_phone,
        seat.id,
        ungrouped.id,
      );
      await messagesRepository.handOverAccount(trx, account.send_phone, seat.id);
      return { moved };
    });
  }

  list() {
    return accountsRepository.listAll(this.db);
  }
}

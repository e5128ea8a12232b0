import type { UserInfo } from '@parley/protocol';
import type { PhoneAccountRow, SeatRow } from '../../db/schema.js';
import { toPhoneAccount } from '../accounts/accounts.presenter.js';

export function toUserInfo(
  seat: SeatRow,
  accounts: PhoneAccountRow[],
  token: string,
  expiresAt: number,
): UserInfo {
  return {
    token,
    seat_id: seat.id,
    account: seat.account,
    nickname: seat.nickname,
    phone_accounts: accounts.map(toPhoneAccount),
    expires_at: expiresAt,
  };
}

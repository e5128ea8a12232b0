import type { CallResponse } from '@parley/protocol';
import type { TelegramProfileRow } from '../../db/schema.js';

type TgUserInfo = NonNullable<CallResponse<'/v1/seat/tg/userInfo'>>;

export function toTgUserInfo(
  row: Pick<TelegramProfileRow, 'username' | 'first_name' | 'last_name' | 'photo_url'>,
): TgUserInfo {
  return {
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    photo_url: row.photo_url,
  };
}

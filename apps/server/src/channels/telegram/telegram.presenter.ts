import type { CallResponse } from '@parley/protocol';
import type { TelegramProfileRow } from '../../db/schema.js';
import type { MediaUrls } from '../../modules/media/media-urls.js';

type TgUserInfo = NonNullable<CallResponse<'/v1/seat/tg/userInfo'>>;

/**
 * A photo the channel downloaded is a media of the seat: its URL is signed for the seat that
 * reads it (the Bot API's own file URL carries the bot's token and is never shown).
 */
export function toTgUserInfo(
  row: Pick<TelegramProfileRow, 'username' | 'first_name' | 'last_name' | 'photo_url'> & {
    photo_media_id?: string | null;
  },
  photo?: { seatId: number; urls: MediaUrls },
): TgUserInfo {
  return {
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    photo_url:
      row.photo_media_id && photo
        ? photo.urls.urlsFor(photo.seatId, row.photo_media_id, false).url
        : row.photo_url,
  };
}

import type { CallResponse, TelegramStatus } from '@parley/protocol';
import type { TelegramBotRow, TelegramProfileRow } from '../../db/schema.js';
import { maskSecret } from '../../lib/mask-secret.js';
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

/** A poll newer than this is "polling"; older is "stalled" (a long-poll lasts under a minute). */
export const TELEGRAM_STALLED_MS = 90_000;

const nOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A bound bot as the admin console shows it (its account's `telegram` field). */
export function toTelegramStatus(
  bot: Pick<
    TelegramBotRow,
    | 'bot_id'
    | 'bot_username'
    | 'token'
    | 'created_at'
    | 'last_poll_at'
    | 'last_error'
    | 'last_error_at'
  >,
  now: number,
): TelegramStatus {
  const lastPoll = nOrNull(bot.last_poll_at);
  const lastErrorAt = nOrNull(bot.last_error_at);
  const state: TelegramStatus['state'] =
    lastErrorAt !== null && (lastPoll === null || lastErrorAt >= lastPoll)
      ? 'error'
      : lastPoll === null
        ? 'starting'
        : now - lastPoll > TELEGRAM_STALLED_MS
          ? 'stalled'
          : 'polling';
  return {
    bot_id: bot.bot_id,
    bot_username: bot.bot_username ?? '',
    token: maskSecret(bot.token ?? ''),
    state,
    last_poll_at: lastPoll,
    last_error: bot.last_error,
    last_error_at: lastErrorAt,
    bound_at: Number(bot.created_at ?? 0),
  };
}

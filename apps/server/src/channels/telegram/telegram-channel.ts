import type { Readable } from 'node:stream';
import { assertNever, type MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { PhoneAccountRow } from '../../db/schema.js';
import type { ChannelCredentials } from '../../modules/accounts/channel-credentials.js';
import { telegramBotsRepository } from './telegram-bots.repository.js';
import { telegramRepository } from './telegram.repository.js';
import type { ChannelAdapter, DeliveryResult, OutboundItem, OutboundMedia } from '../channel.js';
import { BotApi, BotApiError, type UploadFile } from './bot-api.js';
import { chatIdOf } from './telegram-inbound.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Which Bot API method sends a media message, and under which field the file goes. */
function methodFor(type: MessageType, media: OutboundMedia): { method: string; field: string } {
  switch (type) {
    case 'image':
      return { method: 'sendPhoto', field: 'photo' };
    case 'audio':
      // Telegram plays OGG/Opus as a voice note; other audio goes as a music file.
      return media.mime === 'audio/ogg'
        ? { method: 'sendVoice', field: 'voice' }
        : { method: 'sendAudio', field: 'audio' };
    case 'video':
      return { method: 'sendVideo', field: 'video' };
    case 'file':
    case 'text':
      return { method: 'sendDocument', field: 'document' };
    default:
      // A new message type fails to compile here until Telegram is told how to send it.
      return assertNever(type, 'message type');
  }
}

/**
 * Maps a Bot API failure onto the outbox's terms: a rate limit (429) waits what Telegram
 * asks; 5xx and network failures are tried again; any other refusal (400 bad request, 403
 * the user blocked the bot, 401 the token was revoked) will not change by retrying.
 */
export function deliveryFailure(err: unknown): DeliveryResult & { ok: false } {
  if (err instanceof BotApiError) {
    const error = `Telegram ${err.errorCode}: ${err.description}`;
    if (err.errorCode === 429) {
      return {
        ok: false,
        retryable: true,
        error,
        ...(err.retryAfterSeconds !== null ? { retryAfterMs: err.retryAfterSeconds * 1000 } : {}),
      };
    }
    return { ok: false, retryable: err.errorCode >= 500 || err.status >= 500, error };
  }
  const reason = err instanceof Error ? err.message : String(err);
  return { ok: false, retryable: true, error: `Telegram unreachable: ${reason}` };
}

/**
 * Telegram's message id within the chat from a message's external id: an operator's delivered
 * message keeps `message_id`, a customer's keeps `chat_id:message_id` (its inbound key).
 */
function telegramMessageId(externalId: string | null | undefined): number | null {
  const id = externalId?.split(':').pop();
  return id && /^[0-9]{1,15}$/.test(id) ? Number(id) : null;
}

/** The 'telegram' channel: operator messages and retractions through the account's bot. */
export class TelegramChannel implements ChannelAdapter {
  readonly channel = 'telegram' as const;

  constructor(
    private readonly db: Db,
    private readonly apiUrl: string,
    /** The bot token of each account (checked with getMe when bound). */
    readonly credentials?: ChannelCredentials,
  ) {}

  /** A bot cannot write first: only to a customer whose profile it has (who wrote to it). */
  async canOpenChat(db: Db, account: PhoneAccountRow, receiverPhone: string): Promise<boolean> {
    return !!(await telegramRepository.find(db, account.send_phone, receiverPhone));
  }

  async deliver(item: OutboundItem): Promise<DeliveryResult> {
    const bot = await telegramBotsRepository.findByPhone(this.db, item.account.send_phone);
    if (!bot) {
      return { ok: false, retryable: false, error: 'no Telegram bot is bound to this account' };
    }
    const profile = await telegramRepository.find(
      this.db,
      item.account.send_phone,
      item.receiverPhone,
    );
    const chatId = chatIdOf(item.receiverPhone, profile?.tg_chat_id);
    const api = new BotApi(this.apiUrl, bot.token);
    try {
      if (item.kind === 'delete') {
        // Never delivered: there is nothing to retract on Telegram.
        if (item.externalId === null) return { ok: true, externalId: null };
        await api.call<boolean>('deleteMessage', {
          chat_id: chatId,
          message_id: Number(item.externalId),
        });
        return { ok: true, externalId: item.externalId };
      }
      // A reply quotes the customer's or the bot's message by Telegram's id of it (Bot API
      // `reply_to_message_id`); one Telegram never had is sent unquoted, and one it no longer
      // has (the customer deleted it: a bot is not told) too, rather than refused for good.
      const quoted = telegramMessageId(item.replyTo?.externalId);
      const reply =
        quoted !== null ? { reply_to_message_id: quoted, allow_sending_without_reply: true } : {};
      if (item.type === 'text' || !item.media) {
        const sent = await api.call<{ message_id: number }>('sendMessage', {
          chat_id: chatId,
          text: item.content,
          ...reply,
        });
        return { ok: true, externalId: String(sent.message_id) };
      }
      const { method, field } = methodFor(item.type, item.media);
      const file: UploadFile = {
        field,
        bytes: await readAll(await item.media.open()),
        fileName: item.media.file_name,
        mime: item.media.mime,
      };
      const params: Record<string, unknown> = { chat_id: chatId, ...reply };
      if (item.content) params.caption = item.content;
      if (item.media.duration_ms && (field === 'voice' || field === 'audio' || field === 'video')) {
        params.duration = Math.round(item.media.duration_ms / 1000);
      }
      const sent = await api.call<{ message_id: number }>(method, params, {
        file,
        timeoutMs: 120_000,
      });
      return { ok: true, externalId: String(sent.message_id) };
    } catch (err) {
      return deliveryFailure(err);
    }
  }
}

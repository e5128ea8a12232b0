import { inboundRepository, type InboundKey } from '../../modules/messages/inbound.repository.js';
import { CUSTOMER_NAME_MAX, type MediaKind, type MessageType } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { MediaService } from '../../modules/media/media.service.js';
import type { MessagesService } from '../../modules/messages/messages.service.js';
import {
  channelRows,
  type ChannelRows,
  type InboundWriter,
} from '../../modules/messages/inbound-writer.js';
import { telegramRepository } from './telegram.repository.js';
import { translationRepository } from '../../modules/translation/translation.repository.js';
import { toListedCode } from '../../translation/languages.js';
import { BotApi, type TgFileRef, type TgMessage, type TgUpdate } from './bot-api.js';
import { tgMessage, tgUpdate } from './telegram-update.js';

/**
 * The customer number of a Telegram user in Parley: their private chat id (= user id) in
 * decimal, left-padded with zeros to the 5 digits a number needs. Reversible, stable, and
 * never a real phone number of the user (a bot never learns it).
 */
export function customerNumberOf(chatId: number | string): string {
  return String(chatId).padStart(5, '0');
}

/** The chat id behind a customer number (the recorded one when the profile has it). */
export function chatIdOf(customerNumber: string, recorded: string | null | undefined): string {
  if (recorded) return recorded;
  const digits = customerNumber.replace(/^\+/, '').replace(/^0+(?=[0-9])/, '');
  return digits;
}

/**
 * The name a Telegram user shows: first and last name, else @username (null: neither). What
 * the seat sees for the customer unless it gave them a remark.
 */
export function telegramDisplayName(user: {
  first_name?: string | null;
  last_name?: string | null;
  username?: string | null;
}): string | null {
  const full = [user.first_name, user.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  if (full) return full.slice(0, CUSTOMER_NAME_MAX);
  return user.username ? `@${user.username}` : null;
}

interface Picked {
  file: TgFileRef;
  kind: MediaKind;
  type: MessageType;
  fallbackName: string;
}

/** The one file of a message and the media kind it should be, or null for text. */
function pickFile(msg: TgMessage): Picked | null {
  if (msg.photo?.length) {
    // Telegram lists the sizes small to large: take the largest.
    const file = msg.photo[msg.photo.length - 1]!;
    return { file, kind: 'image', type: 'image', fallbackName: 'photo.jpg' };
  }
  if (msg.voice)
    return { file: msg.voice, kind: 'audio', type: 'audio', fallbackName: 'voice.ogg' };
  if (msg.audio) return { file: msg.audio, kind: 'audio', type: 'audio', fallbackName: 'audio' };
  if (msg.video)
    return { file: msg.video, kind: 'video', type: 'video', fallbackName: 'video.mp4' };
  if (msg.video_note) {
    return { file: msg.video_note, kind: 'video', type: 'video', fallbackName: 'video.mp4' };
  }
  if (msg.animation) {
    return { file: msg.animation, kind: 'video', type: 'video', fallbackName: 'animation.mp4' };
  }
  if (msg.document) return { file: msg.document, kind: 'file', type: 'file', fallbackName: 'file' };
  if (msg.sticker)
    return { file: msg.sticker, kind: 'image', type: 'image', fallbackName: 'sticker.webp' };
  return null;
}

export interface InboundLog {
  warn(obj: object, msg: string): void;
}

/** A customer's photo is asked again after this long (one may have been set meanwhile). */
const PHOTO_ASK_MS = 60 * 60_000;
/** The customers remembered as asked (then forgotten at once: a few more asks). */
const PHOTO_ASKED_MAX = 10_000;

export type InboundOutcome = 'stored' | 'duplicate' | 'ignored' | 'blocked' | 'refused';

/** Telegram's own rows of a customer's message: the profile link, the app's language. */
interface TgRows {
  sendPhone: string;
  receiverPhone: string;
  fields: Parameters<typeof telegramRepository.upsertLinks>[1][number]['fields'];
  /** The customer's app language as Parley lists it (null: none it lists). */
  language: string | null;
}

/**
 * Telegram's own rows of a batch's messages, in its transaction, in two statements whatever its
 * size: the customers' profile links (a customer's last message in the batch gives its fields,
 * its last language given the language) and the language of each chat a message opened.
 */
const telegramRows: ChannelRows<TgRows> = {
  async write(trx, messages) {
    const links = new Map<string, TgRows>();
    for (const { rows } of messages) {
      const key = `${rows.sendPhone}|${rows.receiverPhone}`;
      const language_code = rows.fields.language_code ?? links.get(key)?.fields.language_code;
      links.set(key, {
        ...rows,
        fields: { ...rows.fields, ...(language_code ? { language_code } : {}) },
      });
    }
    await telegramRepository.upsertLinks(trx, [...links.values()], Date.now());
    await translationRepository.setCustomerLanguages(
      trx,
      messages.flatMap(({ rows, outcome }) =>
        outcome.kind === 'stored' && outcome.chatCreated && rows.language
          ? [{ seatId: outcome.seatId, sessionId: outcome.sessionId, language: rows.language }]
          : [],
      ),
    );
  },
};

/** A Telegram message's id in the inbound keys: its chat's id and its own. */
const inboundIdOf = (msg: TgMessage) => `${msg.chat.id}:${msg.message_id}`;

/** Turns a bot's updates into chats and messages of the seat holding its account. */
export class TelegramInbound {
  /** When each customer (account|customer) was last asked for a photo by this instance. */
  private readonly photoAsked = new Map<string, number>();
  /** The customers' photos being fetched (settled: the poller's stop waits for them). */
  private readonly photos = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly apiUrl: string,
    private readonly messages: MessagesService,
    /** The door every customer's message comes in by. */
    private readonly inbound: InboundWriter,
    private readonly media: MediaService,
    private readonly log: InboundLog,
  ) {}

  /**
   * A poll's updates, each parsed and judged alone, handed to the door together (one commit
   * for all, as a webhook's delivery is) in their order: answers each one's fate, in order (a
   * rejection: it could not be stored, the database failed). An update that does not fit
   * Telegram's shape is refused (logged and counted) and answered as handled, so the bot's
   * next updates still come.
   */
  async handle(
    bot: { send_phone: string; token: string },
    updates: TgUpdate[],
  ): Promise<PromiseSettledResult<InboundOutcome>[]> {
    const judged = updates.map((u) => this.parse(bot, u));
    // The account and the updates' messages seen before: one read for the whole poll, not two
    // per update (each a round trip on PostgreSQL, in the poller's cycle).
    const ids = judged.flatMap((j) => (typeof j === 'string' ? [] : [inboundIdOf(j)]));
    const known = ids.length
      ? inboundRepository.accountAndTakenMany(this.db, 'telegram', bot.send_phone, ids)
      : Promise.resolve(undefined);
    // Made ready side by side (downloads), then written in the updates' order: a chat's
    // messages reach the door in the order the customer sent them.
    const ready = await Promise.allSettled(
      judged.map(async (j) => (typeof j === 'string' ? j : this.message(bot, j, await known))),
    );
    return Promise.allSettled(
      ready.map((r) => {
        if (r.status === 'rejected') return Promise.reject(r.reason);
        return typeof r.value === 'function' ? r.value() : r.value;
      }),
    );
  }

  /**
   * One update parsed and judged alone: a customer's message in a private chat, or already
   * answered (refused: not Telegram's shape; ignored: not a customer's message).
   */
  private parse(
    bot: { send_phone: string; token: string },
    update: TgUpdate,
  ): InboundOutcome | TgMessage {
    const parsed = tgUpdate.safeParse(update);
    const msg = parsed.success ? tgMessage.safeParse(parsed.data.message) : null;
    if (parsed.success && parsed.data.message === undefined) return 'ignored';
    if (!msg?.success) {
      this.inbound.refuse('telegram', 'bad_shape', {
        account: bot.send_phone,
        update: parsed.success ? parsed.data.update_id : undefined,
      });
      return 'refused';
    }
    const data = msg.data as TgMessage;
    // Only what a customer writes to the bot in a private chat becomes a chat.
    if (data.chat.type !== 'private' || !data.from || data.from.is_bot) return 'ignored';
    return data;
  }

  /** A customer's message made ready for the door (its write), or already answered. */
  private async message(
    bot: { send_phone: string; token: string },
    msg: TgMessage,
    known: Awaited<ReturnType<typeof inboundRepository.accountAndTakenMany>>,
  ): Promise<InboundOutcome | (() => Promise<InboundOutcome>)> {
    const api = new BotApi(this.apiUrl, bot.token);
    const key: InboundKey = {
      channel: 'telegram',
      sendPhone: bot.send_phone,
      externalId: inboundIdOf(msg),
    };
    if (known?.taken.has(key.externalId)) return 'duplicate';

    const account = known?.account;
    if (!account || account.seat_id === null) {
      this.inbound.refuse('telegram', 'no_seat', { account: bot.send_phone });
      return 'ignored';
    }
    const seatId = account.seat_id;
    const customer = customerNumberOf(msg.chat.id);
    let content = msg.text ?? msg.caption ?? '';
    let mediaId: string | undefined;
    let type: MessageType = 'text';
    const picked = pickFile(msg);
    if (picked) {
      // Downloaded before the transaction: a slow file never holds the database.
      const stored = await this.download(api, seatId, picked);
      if (stored) {
        mediaId = stored.mediaId;
        type = stored.kind === picked.kind ? picked.type : 'file';
      } else {
        content = content || `[${picked.type}]`;
      }
    }
    if (!picked && !content) return 'ignored'; // a service message (joined, pinned, ...)

    const from = msg.from!;
    const queueSeat = known!.queueSeat;
    return () =>
      this.write(api, bot, msg, from, { seatId, queueSeat, key, customer, content, type, mediaId });
  }

  /** Through the door (its own rows with it), then the customer's photo once it is stored. */
  private async write(
    api: BotApi,
    bot: { send_phone: string },
    msg: TgMessage,
    from: NonNullable<TgMessage['from']>,
    m: {
      seatId: number;
      queueSeat: boolean;
      key: InboundKey;
      customer: string;
      content: string;
      type: MessageType;
      mediaId: string | undefined;
    },
  ): Promise<InboundOutcome> {
    const { seatId, queueSeat, key, customer, content, type, mediaId } = m;
    const outcome = await this.inbound.write({
      channel: 'telegram',
      seatId,
      queueSeat,
      key,
      sendPhone: bot.send_phone,
      receiverPhone: customer,
      content,
      type,
      ...(mediaId ? { mediaId } : {}),
      at: Math.min(msg.date * 1000, Date.now()),
      customerName: telegramDisplayName(from) ?? undefined,
      // Telegram's id of it, as an operator's delivered message keeps it: a reply names
      // either by it (Bot API `reply_to_message_id` / `reply_to_message`).
      externalId: String(msg.message_id),
      ...(msg.reply_to_message
        ? {
            replyTo: {
              externalId: String(msg.reply_to_message.message_id),
              inboundId: `${msg.chat.id}:${msg.reply_to_message.message_id}`,
            },
          }
        : {}),
      hook: channelRows(telegramRows, {
        sendPhone: bot.send_phone,
        receiverPhone: customer,
        fields: {
          tg_chat_id: String(msg.chat.id),
          username: from.username ?? null,
          first_name: from.first_name || null,
          last_name: from.last_name ?? null,
          ...(from.language_code ? { language_code: from.language_code } : {}),
        },
        language: toListedCode(from.language_code),
      }),
    });
    if (outcome.kind === 'stored') {
      // After the message, outside the poll's cycle: the bot's next updates do not wait for a
      // read and a Bot API call of a new customer's photo.
      const photo = this.fetchPhoto(api, seatId, bot.send_phone, customer, from.id)
        .catch((err: unknown) =>
          this.log.warn({ err, account: bot.send_phone }, 'telegram profile photo not fetched'),
        )
        .finally(() => this.photos.delete(photo));
      this.photos.add(photo);
    }
    return outcome.kind === 'stored'
      ? 'stored'
      : outcome.kind === 'blocked'
        ? 'blocked'
        : outcome.kind === 'taken'
          ? 'duplicate'
          : 'refused';
  }

  /** Once the photos being fetched have their fate (the poller's stop). */
  async settled(): Promise<void> {
    while (this.photos.size) await Promise.allSettled([...this.photos]);
  }

  /** Stores a customer's file, checked by its bytes; null when it cannot be had. */
  private async download(api: BotApi, seatId: number, picked: Picked) {
    try {
      const info = await api.call<{ file_path?: string }>('getFile', {
        file_id: picked.file.file_id,
      });
      if (!info.file_path) return null;
      const fileName = picked.file.file_name ?? picked.fallbackName;
      const durationMs = picked.file.duration ? picked.file.duration * 1000 : undefined;
      try {
        const row = await this.media.storeStream(seatId, await api.download(info.file_path), {
          kind: picked.kind,
          fileName,
          durationMs,
        });
        return { mediaId: row.media_id, kind: row.kind };
      } catch (err) {
        // Bytes that are not what Telegram called them still reach the operator, as a file.
        if (!(err instanceof AppError) || picked.kind === 'file') throw err;
        const row = await this.media.storeStream(seatId, await api.download(info.file_path), {
          kind: 'file',
          fileName,
        });
        return { mediaId: row.media_id, kind: row.kind };
      }
    } catch (err) {
      this.log.warn({ err, file: picked.file.file_id }, 'telegram file not stored');
      return null;
    }
  }

  /**
   * The customer's profile photo, once: the largest size of their newest photo. A customer is
   * asked at most once an hour by an instance (a customer without a photo would otherwise cost
   * a read and a Bot API call with every message).
   */
  private async fetchPhoto(
    api: BotApi,
    seatId: number,
    sendPhone: string,
    customer: string,
    userId: number,
  ) {
    const asked = `${sendPhone}|${customer}`;
    const now = Date.now();
    if (now - (this.photoAsked.get(asked) ?? -Infinity) < PHOTO_ASK_MS) return;
    if (this.photoAsked.size >= PHOTO_ASKED_MAX) this.photoAsked.clear();
    this.photoAsked.set(asked, now);
    const profile = await telegramRepository.find(this.db, sendPhone, customer);
    if (!profile || profile.photo_media_id) return;
    try {
      const photos = await api.call<{ total_count: number; photos: TgFileRef[][] }>(
        'getUserProfilePhotos',
        { user_id: userId, limit: 1 },
      );
      const sizes = photos.photos[0];
      if (!sizes?.length) return;
      const stored = await this.download(api, seatId, {
        file: sizes[sizes.length - 1]!,
        kind: 'image',
        type: 'image',
        fallbackName: 'photo.jpg',
      });
      if (stored?.kind === 'image') {
        await telegramRepository.upsert(
          this.db,
          { sendPhone, receiverPhone: customer },
          { photo_media_id: stored.mediaId },
          Date.now(),
        );
        // The chat's face: its rows, header and card show the photo from now on.
        await this.messages.updateCustomer({
          sendPhone,
          receiverPhone: customer,
          avatarMediaId: stored.mediaId,
        });
      }
    } catch (err) {
      this.log.warn({ err, account: sendPhone }, 'telegram profile photo not fetched');
    }
  }
}

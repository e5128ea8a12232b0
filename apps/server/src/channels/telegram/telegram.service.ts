import { ERROR_CODES, PHONE_PATTERN, type CallRequest, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { TelegramProfileRow } from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import type { MediaUrls } from '../../modules/media/media-urls.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { sessionsRepository } from '../../modules/sessions/sessions.repository.js';
import { telegramDisplayName } from './telegram-inbound.js';
import { toTgUserInfo } from './telegram.presenter.js';
import { telegramRepository, type ProfileFields } from './telegram.repository.js';

export interface ProfileInput {
  accountPhone: string;
  customerPhone: string;
  username?: string;
  firstName?: string;
  lastName?: string;
  photoUrl?: string;
  chatId?: string;
}

/** Telegram usernames: 5-32 letters, digits and underscores (a leading @ is dropped). */
const USERNAME = /^[A-Za-z0-9_]{5,32}$/;
const CHAT_ID = /^-?[0-9]{1,20}$/;
const NAME_MAX = 128;

function cleanName(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!trimmed) throw invalidField(field, 'required');
  if (trimmed.length > NAME_MAX) throw invalidField(field, `at most ${NAME_MAX} characters`);
  return trimmed;
}

function cleanPhotoUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  let url: URL | null = null;
  try {
    url = new URL(trimmed);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || trimmed.length > 1024) {
    throw invalidField('photo_url', 'an http(s) URL');
  }
  return trimmed;
}

/** Validates a profile to record; every given field must be well-formed. */
export function profileFields(input: ProfileInput): ProfileFields {
  const fields: ProfileFields = {};
  if (input.username !== undefined) {
    const username = input.username.trim().replace(/^@/, '');
    if (!USERNAME.test(username)) throw invalidField('username', '5-32 letters, digits or _');
    fields.username = username;
  }
  const first = cleanName('first_name', input.firstName);
  if (first !== undefined) fields.first_name = first;
  const last = cleanName('last_name', input.lastName);
  if (last !== undefined) fields.last_name = last;
  const photo = cleanPhotoUrl(input.photoUrl);
  if (photo !== undefined) fields.photo_url = photo;
  if (input.chatId !== undefined) {
    const chatId = input.chatId.trim();
    if (!CHAT_ID.test(chatId)) throw invalidField('tg_chat_id', 'an integer');
    fields.tg_chat_id = chatId;
  }
  return fields;
}

/** Customers reached through the platform's Telegram accounts. */
export class TelegramService {
  constructor(
    private readonly db: Db,
    private readonly urls?: MediaUrls,
  ) {}

  /**
   * The Telegram profile of a chat's customer: null for a chat of a non-Telegram account or
   * one whose customer has no recorded profile; another seat's chat answers 400001.
   */
  async userInfo(
    seatId: number,
    input: CallRequest<'/v1/seat/tg/userInfo'>,
  ): Promise<CallResponse<'/v1/seat/tg/userInfo'>> {
    const row = await telegramRepository.findForSession(this.db, seatId, input.session_id);
    if (!row) throw notFound();
    if (row.channel !== 'telegram' || row.profile_id === null) return null;
    return toTgUserInfo(row, this.urls ? { seatId, urls: this.urls } : undefined);
  }

  /** Records (or updates) what a Telegram account knows of a customer. */
  async record(input: ProfileInput): Promise<TelegramProfileRow> {
    const accountPhone = input.accountPhone.trim();
    const customerPhone = input.customerPhone.trim();
    for (const phone of [accountPhone, customerPhone]) {
      if (!PHONE_PATTERN.test(phone)) throw new AppError(ERROR_CODES.INVALID_PHONE_FORMAT);
    }
    const fields = profileFields(input);
    const account = await accountsRepository.findByPhone(this.db, accountPhone);
    if (!account) throw notFound();
    if (account.channel !== 'telegram') {
      throw invalidField('account', `${accountPhone} is not a Telegram account`);
    }
    const profile = await telegramRepository.upsert(
      this.db,
      { sendPhone: accountPhone, receiverPhone: customerPhone },
      fields,
      Date.now(),
    );
    // The chat shows the recorded name, as it shows the one a message brings.
    const name = telegramDisplayName(profile);
    if (account.seat_id !== null && name) {
      await sessionsRepository.setCustomer(
        this.db,
        { seatId: account.seat_id, sendPhone: accountPhone, receiverPhone: customerPhone },
        { customer_name: name },
      );
    }
    return profile;
  }
}

import { RECENT_WINDOW_MS, type CallRequest, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { invalidField } from '../../lib/app-error.js';
import { toAddressBookEntry } from './address-book.presenter.js';
import { addressBookRepository, type BookKey } from './address-book.repository.js';

/** Cursors are opaque to clients: base64url of [receiver_phone, session_id]. */
export function encodeBookCursor(key: BookKey): string {
  return Buffer.from(JSON.stringify([key.receiverPhone, key.id])).toString('base64url');
}

export function decodeBookCursor(cursor: string): BookKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      value[0].length <= 32 &&
      Number.isSafeInteger(value[1]) &&
      (value[1] as number) > 0
    ) {
      return { receiverPhone: value[0], id: value[1] as number };
    }
  } catch {
    // fall through
  }
  throw invalidField('cursor', 'invalid cursor');
}

export class AddressBookService {
  constructor(private readonly db: Db) {}

  /**
   * Every chat of the seat (one entry per account and customer), by customer number, with its
   * group; filtered by number or remark; `total` counts all matches, not only this page.
   */
  async list(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/addressBook'>,
  ): Promise<CallResponse<'/v1/seat/chat/addressBook'>> {
    const after = input.cursor ? decodeBookCursor(input.cursor) : null;
    const filter = { seatId, keyword: input.keyword || undefined };
    const [rows, total] = await Promise.all([
      addressBookRepository.page(this.db, filter, after, input.page_size + 1),
      addressBookRepository.count(this.db, filter),
    ]);
    const page = rows.slice(0, input.page_size);
    const last = page[page.length - 1];
    const recentSince = Date.now() - RECENT_WINDOW_MS;
    return {
      list: page.map((row) => toAddressBookEntry(row, recentSince)),
      total,
      next_cursor:
        rows.length > input.page_size && last
          ? encodeBookCursor({ receiverPhone: last.receiver_phone, id: last.id })
          : null,
    };
  }
}

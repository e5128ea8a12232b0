import { z } from 'zod';
import { RECENT_WINDOW_MS, id, type CallRequest, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { MediaUrls } from '../media/media-urls.js';
import { toAddressBookEntry } from './address-book.presenter.js';
import { addressBookRepository, type BookKey } from './address-book.repository.js';

/** The address book's keyset: [receiver_phone, session_id]. */
const bookKey = z.tuple([z.string().max(32), id]);
const toBookKey = ([receiverPhone, id]: [string, number]): BookKey => ({ receiverPhone, id });

export class AddressBookService {
  constructor(
    private readonly db: Db,
    private readonly urls: MediaUrls,
  ) {}

  /**
   * Every chat of the seat (one entry per account and customer), by customer number, with its
   * group; filtered by number, remark or the customer's name; `total` counts all matches, not only this page.
   */
  async list(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/addressBook'>,
  ): Promise<CallResponse<'/v1/seat/chat/addressBook'>> {
    const after = input.cursor ? toBookKey(decodeCursor(input.cursor, bookKey)) : null;
    const filter = { seatId, keyword: input.keyword || undefined, sessionId: input.session_id };
    const [rows, total] = await Promise.all([
      addressBookRepository.page(this.db, filter, after, input.page_size + 1),
      addressBookRepository.count(this.db, filter),
    ]);
    const page = rows.slice(0, input.page_size);
    const last = page[page.length - 1];
    const recentSince = Date.now() - RECENT_WINDOW_MS;
    return {
      list: page.map((row) => toAddressBookEntry(row, recentSince, this.urls)),
      total,
      next_cursor:
        rows.length > input.page_size && last ? encodeCursor([last.receiver_phone, last.id]) : null,
    };
  }
}

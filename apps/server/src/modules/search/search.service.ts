import { z } from 'zod';
import { RECENT_WINDOW_MS, id, type CallRequest, type CallResponse } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import type { MediaUrls } from '../media/media-urls.js';
import { toSearchHits } from './search.presenter.js';
import { searchRepository } from './search.repository.js';

/** The search's keyset: [last msg_id of the page]. */
const searchKey = z.tuple([id]);

export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly urls: MediaUrls,
  ) {}

  /**
   * Messages of all the seat's chats containing the word (at least SEARCH_WORD_MIN characters,
   * checked by the schema), newest first, keyset-paged by message id.
   */
  async searchMessages(
    seatId: number,
    input: CallRequest<'/v1/seat/chat/searchMessage'>,
  ): Promise<CallResponse<'/v1/seat/chat/searchMessage'>> {
    const beforeId = input.cursor ? decodeCursor(input.cursor, searchKey)[0] : null;
    const rows = await searchRepository.page(this.db, {
      seatId,
      keyword: input.keyword,
      beforeId,
      limit: input.page_size + 1,
    });
    const page = rows.slice(0, input.page_size);
    const sessionIds = [...new Set(page.map((m) => m.session_id))];
    const sessions = await searchRepository.sessionsByIds(this.db, seatId, sessionIds);
    const last = page[page.length - 1];
    return {
      list: toSearchHits(page, sessions, Date.now() - RECENT_WINDOW_MS, this.urls),
      next_cursor: rows.length > input.page_size && last ? encodeCursor([last.id]) : null,
    };
  }
}

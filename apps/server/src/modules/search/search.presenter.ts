import type { CallResponse } from '@parley/protocol';
import type { MessageRow, SessionRow } from '../../db/schema.js';
import type { MediaUrls } from '../media/media-urls.js';
import { toChatMessage } from '../messages/messages.presenter.js';
import { toSessionItem } from '../sessions/sessions.presenter.js';

type SearchHit = CallResponse<'/v1/seat/chat/searchMessage'>['list'][number];

/** Each hit with its chat; a hit whose chat is not the seat's (never expected) is dropped. */
export function toSearchHits(
  messages: MessageRow[],
  sessions: SessionRow[],
  recentSince: number,
  urls: MediaUrls,
): SearchHit[] {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const hits: SearchHit[] = [];
  for (const m of messages) {
    const session = byId.get(m.session_id);
    if (session) {
      hits.push({
        message: toChatMessage(m, urls),
        session: toSessionItem(session, recentSince, urls),
      });
    }
  }
  return hits;
}

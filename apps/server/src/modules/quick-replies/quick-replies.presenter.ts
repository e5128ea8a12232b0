import type { QuickReply } from '@parley/protocol';
import type { QuickReplyRow } from '../../db/schema.js';

/** A quick reply or material; `media` is its image or audio (signed), null for text. */
export function toQuickReply(row: QuickReplyRow, media: QuickReply['media']): QuickReply {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    content: row.content,
    media_id: row.media_id,
    media,
    updated_at: row.updated_at,
  };
}

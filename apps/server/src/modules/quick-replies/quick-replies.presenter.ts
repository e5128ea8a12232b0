import type { QuickReply } from '@parley/protocol';
import type { QuickReplyRow } from '../../db/schema.js';

export function toQuickReply(row: QuickReplyRow): QuickReply {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    content: row.content,
    media_id: row.media_id,
    // Media of materials is served once uploads land.
    media: null,
    updated_at: row.updated_at,
  };
}

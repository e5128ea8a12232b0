import { SANDBOX_PATHS, type SandboxEntry } from '@parley/protocol';
import type { MediaUrls } from '../../modules/media/media-urls.js';
import { previewOf } from '../../modules/messages/messages.presenter.js';
import type { SandboxEntryWithMedia } from './sandbox.repository.js';

/** What the sandbox's media signatures are over (apart from a seat's: MediaUrls.signFor). */
export const SANDBOX_SCOPE = 'sandbox';

/** The URL of a media an entry shows: signed for the entry (retracted, it stops serving). */
export function sandboxMediaUrl(urls: MediaUrls, entryId: number, mediaId: string): string {
  const { exp, sig } = urls.signFor(SANDBOX_SCOPE, entryId, mediaId);
  return `${SANDBOX_PATHS.media}/${encodeURIComponent(mediaId)}?entry=${entryId}&exp=${exp}&sig=${sig}`;
}

/**
 * An entry as the customer's page gets it: a retracted one keeps no content or media; media
 * comes as a signed URL (the entry's own: it stops working once the entry is retracted).
 */
export function toEntry(row: SandboxEntryWithMedia, urls: MediaUrls): SandboxEntry {
  const media = row.media_id !== null && row.deleted === 0;
  return {
    id: row.id,
    direction: row.direction,
    type: row.type,
    content: row.deleted === 1 ? '' : row.content,
    media_url: media ? sandboxMediaUrl(urls, row.id, row.media_id!) : null,
    file_name: media ? row.file_name : null,
    size: media ? row.size : null,
    duration_ms: media ? row.duration_ms : null,
    deleted: row.deleted === 1,
    blocked: row.blocked === 1,
    created_at: row.created_at,
    quote: quoteOf(row),
  };
}

/** A reply's quote: the quoted message as the chat shows it now (retracted: no preview). */
function quoteOf(row: SandboxEntryWithMedia): SandboxEntry['quote'] {
  if (row.reply_to_msg_id === null || row.quote_direction === null || row.quote_type === null) {
    return null;
  }
  const deleted = row.quote_deleted === 1;
  return {
    id: row.quote_entry_id,
    direction: row.quote_direction,
    type: row.quote_type,
    preview: deleted
      ? ''
      : previewOf({
          type: row.quote_type,
          content: row.quote_content ?? '',
          media: row.quote_media,
        }),
    deleted,
  };
}

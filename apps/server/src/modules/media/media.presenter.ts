import type { Media, MediaKind } from '@parley/protocol';
import type { MediaRow } from '../../db/schema.js';
import type { MediaUrls } from './media-urls.js';

/**
 * The fields of a media kept with a message (`messages.media`, JSON): media never change, so
 * a message presents its media without another query. URLs are not stored: they are signed
 * for the reading seat each time.
 */
export interface StoredMedia {
  media_id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  file_name: string;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  has_thumb: boolean;
}

export function toStoredMedia(row: MediaRow): StoredMedia {
  return {
    media_id: row.media_id,
    kind: row.kind,
    mime: row.mime,
    size: row.size,
    file_name: row.file_name,
    duration_ms: row.duration_ms,
    width: row.width,
    height: row.height,
    has_thumb: row.thumb_sha256 !== null,
  };
}

/** The protocol's media object, its URLs signed for `seatId`. */
export function toMedia(stored: StoredMedia, seatId: number, urls: MediaUrls): Media {
  return {
    media_id: stored.media_id,
    ...urls.urlsFor(seatId, stored.media_id, stored.has_thumb),
    mime: stored.mime,
    size: stored.size,
    file_name: stored.file_name,
    duration_ms: stored.duration_ms,
    width: stored.width,
    height: stored.height,
  };
}

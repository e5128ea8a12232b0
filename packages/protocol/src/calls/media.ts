import { z } from 'zod';
import { media } from '../entities.js';

/**
 * Uploads are the one call that is not a JSON body: `POST /v1/seat/chat/upload` as
 * `multipart/form-data` with the token in `Authorization`, a `kind` field and one `file` part.
 * The answer is the usual `{ code, msg, data }` envelope with `data` a `media`; its `media_id`
 * then goes into `message`, `batch_message` or `quickReplyDoType`.
 */
export const UPLOAD_PATH = '/v1/seat/chat/upload' as const;

export const mediaKind = z.enum(['image', 'audio', 'video', 'file']);
export type MediaKind = z.infer<typeof mediaKind>;

/** The non-file fields of the upload form (form fields arrive as strings). */
export const uploadFields = z.object({
  kind: mediaKind,
  /** Length of a recorded voice note or video, when the client knows it. */
  duration_ms: z.coerce
    .number()
    .int()
    .nonnegative()
    .max(24 * 3600 * 1000)
    .optional(),
});
export const uploadResponse = media;

/**
 * Media are served by `GET /v1/seat/media/{media_id}` (and `.../thumb` for an image's
 * thumbnail) through the signed `url` / `thumb_url` of the `media` object: only the seat that
 * owns the media can open them, without sending its token from an `<img>` tag.
 */
export const MEDIA_PATH_PREFIX = '/v1/seat/media/' as const;

import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ERROR_MESSAGES } from '@parley/protocol';
import { contentDisposition } from '../../lib/file-name.js';
import type { MediaService, ServedMedia } from './media.service.js';
import { parseRange } from './range.js';

/** Nothing served from here may run: a stored HTML or SVG opened directly is inert. */
export const MEDIA_CSP = "default-src 'none'; sandbox";

/**
 * Sends a media GET's answer (the seat's media and the customer sandbox's alike): the safe
 * type or an attachment, `nosniff`, the sandboxing CSP, an ETag (304), one byte range (206,
 * 416), and no file opened for HEAD.
 */
export function sendMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  served: ServedMedia,
  media: MediaService,
) {
  const etag = `"${served.sha256}"`;
  reply
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', MEDIA_CSP)
    .header('cache-control', 'private, max-age=86400')
    .header('accept-ranges', 'bytes')
    .header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();

  const range = parseRange(request.headers.range, served.size);
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${served.size}`)
      .type('application/json; charset=utf-8')
      .send({
        code: ERROR_CODES.PARAMETER_ERROR,
        msg: `${ERROR_MESSAGES['100001']}: range`,
        data: { fields: [{ path: 'range', message: 'outside the file' }] },
      });
  }
  reply
    .type(served.contentType)
    .header(
      'content-disposition',
      contentDisposition(served.inline ? 'inline' : 'attachment', served.fileName),
    );
  const body = (slice?: { start: number; end: number }) =>
    request.method === 'HEAD' ? null : media.read(served.sha256, slice);
  if (!range) return reply.header('content-length', served.size).send(body());
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${served.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(body(range));
}

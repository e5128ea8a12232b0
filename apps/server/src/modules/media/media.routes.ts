import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ERROR_MESSAGES, MEDIA_PATH_PREFIX, UPLOAD_PATH } from '@parley/protocol';
import { invalidField } from '../../lib/app-error.js';
import { contentDisposition } from '../../lib/file-name.js';
import { CODED_CALL, sendSuccess } from '../../plugins/errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { MediaService } from './media.service.js';
import { parseRange } from './range.js';
import { readUploadForm } from './upload-form.js';

/** Nothing served from here may run: a stored HTML or SVG opened directly is inert. */
const MEDIA_CSP = "default-src 'none'; sandbox";

/**
 * POST /v1/seat/chat/upload (multipart, token in Authorization) and the signed GETs of
 * /v1/seat/media/{media_id}[/thumb].
 */
export async function mediaRoutes(app: FastifyInstance, auth: AuthService, media: MediaService) {
  // Multipart parsing only in this scope: every other call stays JSON.
  await app.register(async (scope) => {
    // Past the cap the file part is cut and read to its end (our spool counts and refuses).
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.post(UPLOAD_PATH, CODED_CALL, async (request, reply) => {
      const seat = await auth.authenticateHeader(request.headers.authorization);
      if (!request.isMultipart()) {
        throw invalidField('file', 'send multipart/form-data with a file part');
      }
      const form = await readUploadForm(request, media);
      return sendSuccess(reply, await media.upload(seat.seatId, form));
    });
  });

  const serve = (variant: 'original' | 'thumb') =>
    async function (request: FastifyRequest, reply: FastifyReply) {
      const { media_id: mediaId } = request.params as { media_id: string };
      const served = await media.open(mediaId, request.query as Record<string, unknown>, variant);
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
      // HEAD (routed here too) needs the headers only: no file is opened.
      const body = (slice?: { start: number; end: number }) =>
        request.method === 'HEAD' ? null : media.read(served.sha256, slice);
      if (!range) return reply.header('content-length', served.size).send(body());
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${served.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(body(range));
    };

  // GET and HEAD in one route: Fastify's own HEAD would read the whole file to discard it.
  const methods = ['GET', 'HEAD'];
  app.route({ method: methods, url: `${MEDIA_PATH_PREFIX}:media_id`, handler: serve('original') });
  app.route({
    method: methods,
    url: `${MEDIA_PATH_PREFIX}:media_id/thumb`,
    handler: serve('thumb'),
  });
}

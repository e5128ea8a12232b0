import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_PATH_PREFIX, UPLOAD_PATH } from '@parley/protocol';
import { invalidField } from '../../lib/app-error.js';
import { CODED_CALL, sendSuccess } from '../../plugins/errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { MediaService } from './media.service.js';
import { sendMedia } from './media-reply.js';
import { readUploadForm } from './upload-form.js';

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
      return sendMedia(request, reply, served, media);
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

import type { FastifyInstance } from 'fastify';
import { PLATFORM_PATHS } from '@parley/protocol';
import { sendSuccess } from '../../plugins/errors.js';
import type { PlatformRequestKind, PlatformService } from './platform.service.js';

/**
 * The messaging platform's API (docs/platform-api.md). Its own scope: the body is kept as raw
 * bytes, whatever its type, because the signature covers exactly those bytes.
 */
export async function platformRoutes(
  app: FastifyInstance,
  platform: PlatformService,
  bodyLimit: number,
) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) =>
      done(null, body),
    );
    const routes: Array<[string, PlatformRequestKind]> = [
      [PLATFORM_PATHS.message, 'message'],
      [PLATFORM_PATHS.receipt, 'receipt'],
      [PLATFORM_PATHS.deletion, 'deletion'],
    ];
    for (const [url, kind] of routes) {
      scope.post(url, { bodyLimit }, async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const data = await platform.handle(kind, {
          body,
          contentType: request.headers['content-type'],
          headers: request.headers,
        });
        return sendSuccess(reply, data);
      });
    }
  });
}

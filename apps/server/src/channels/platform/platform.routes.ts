import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PLATFORM_PATHS } from '@parley/protocol';
import { sendSuccess } from '../../plugins/errors.js';
import { rateLimitConfig } from '../../plugins/rate-limit.js';
import { BodyTooLargeError } from './platform-signature.js';
import type { PlatformRequestKind, PlatformService } from './platform.service.js';

/** A receipt or a deletion is a few hundred bytes of JSON. */
const SMALL_BODY_LIMIT = 64 * 1024;

/**
 * The messaging platform's API (docs/platform-api.md). Its own scope: the body is kept as raw
 * bytes, whatever its type, because the signature covers exactly those bytes. Limits come
 * before work: signature headers and declared size before any byte is read, the HMAC while
 * reading, and only a body whose signature holds is held whole in memory.
 */
export async function platformRoutes(
  app: FastifyInstance,
  platform: PlatformService,
  limits: { messageBodyLimit: number; perMinute: number },
) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', async (request: FastifyRequest, payload: Readable) => {
      const limit = request.routeOptions.bodyLimit;
      if (Number(request.headers['content-length'] ?? 0) > limit) throw new BodyTooLargeError();
      return platform.readBody(payload, request.headers, limit);
    });
    scope.addHook('onRequest', async (request) => platform.admit(request.headers));
    const routes: Array<[string, PlatformRequestKind, number]> = [
      [PLATFORM_PATHS.message, 'message', limits.messageBodyLimit],
      [PLATFORM_PATHS.receipt, 'receipt', SMALL_BODY_LIMIT],
      [PLATFORM_PATHS.deletion, 'deletion', SMALL_BODY_LIMIT],
    ];
    for (const [url, kind, bodyLimit] of routes) {
      scope.post(
        url,
        { bodyLimit, config: rateLimitConfig(limits.perMinute) },
        async (request, reply) => {
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const data = await platform.handle(kind, {
            body,
            contentType: request.headers['content-type'],
            headers: request.headers,
          });
          return sendSuccess(reply, data);
        },
      );
    }
  });
}

import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PLATFORM_PATHS } from '@parley/protocol';
import { sendSuccess } from '../../plugins/errors.js';
import { rateLimitConfig } from '../../plugins/rate-limit.js';
import { BodyTooLargeError } from './platform-signature.js';
import type { PlatformRequestKind, PlatformService } from './platform.service.js';
import {
  BudgetRefusal,
  UNVERIFIED_RETRY_AFTER_S,
  type Reservation,
  type UnverifiedBudget,
} from './unverified-budget.js';

/** A receipt or a deletion is a few hundred bytes of JSON. */
const SMALL_BODY_LIMIT = 64 * 1024;

/**
 * The messaging platform's API (docs/platform-api.md). Its own scope: the body is kept as raw
 * bytes, whatever its type, because the signature covers exactly those bytes. Limits come
 * before work: signature headers, declared size and the unverified-bytes budget before any
 * byte is read, the HMAC while reading, and only a body whose signature holds is held whole in
 * memory.
 */
export async function platformRoutes(
  app: FastifyInstance,
  platform: PlatformService,
  limits: { messageBodyLimit: number; perMinute: number },
  budget: UnverifiedBudget,
) {
  const reservations = new WeakMap<FastifyRequest, Reservation>();
  const release = async (request: FastifyRequest) => reservations.get(request)?.release();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', async (request: FastifyRequest, payload: Readable) => {
      try {
        return await platform.readBody(payload, request.headers, request.routeOptions.bodyLimit);
      } finally {
        // Verified (kept as the request's body) or refused: no longer unverified either way.
        await release(request);
      }
    });
    scope.addHook('onRequest', async (request, reply) => {
      platform.admit(request.headers);
      const limit = request.routeOptions.bodyLimit;
      const declared = request.headers['content-length'];
      if (Number(declared ?? 0) > limit) throw new BodyTooLargeError();
      // Chunked: as much as the route takes; neither header: no body. Reserved before a byte
      // is read.
      const chunked = request.headers['transfer-encoding'] !== undefined;
      const bytes = declared !== undefined ? Number(declared) : chunked ? limit : 0;
      try {
        reservations.set(request, budget.reserve(request.ip, bytes));
      } catch (err) {
        if (err instanceof BudgetRefusal) {
          // Answered at once; the connection closes rather than reading what was sent.
          reply.header('retry-after', String(UNVERIFIED_RETRY_AFTER_S));
          reply.header('connection', 'close');
        }
        throw err;
      }
    });
    scope.addHook('onResponse', release);
    scope.addHook('onRequestAbort', release);
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

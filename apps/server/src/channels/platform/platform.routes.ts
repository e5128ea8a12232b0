import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PLATFORM_PATHS } from '@parley/protocol';
import { sendSuccess } from '../../plugins/errors.js';
import { rateLimitConfig } from '../../plugins/rate-limit.js';
import { BodyTooLargeError } from './platform-signature.js';
import type { PlatformRequestKind, PlatformService } from './platform.service.js';
import { BudgetRefusal, type Reservation, type UnverifiedBudget } from './unverified-budget.js';

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
  // Refused before their body was read: answered while the body is drained (bounded), so the
  // client reads the answer before the connection closes instead of a reset.
  const refusedEarly = new WeakSet<FastifyRequest>();
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
      try {
        platform.admit(request.headers);
        const limit = request.routeOptions.bodyLimit;
        const declared = request.headers['content-length'];
        if (Number(declared ?? 0) > limit) throw new BodyTooLargeError();
        // Chunked: as much as the route takes; neither header: no body. Reserved before a
        // byte is read; the socket's bytes read since tell the body's pace.
        const chunked = request.headers['transfer-encoding'] !== undefined;
        const bytes = declared !== undefined ? Number(declared) : chunked ? limit : 0;
        // (An injected request has no real socket, and no pace to keep.)
        const socket = request.raw.socket as Socket | undefined;
        const base = socket?.bytesRead;
        const progress =
          socket && typeof base === 'number'
            ? { received: () => socket.bytesRead - base, cut: () => socket.destroy() }
            : null;
        reservations.set(request, budget.reserve(request.ip, bytes, progress));
      } catch (err) {
        if (err instanceof BudgetRefusal) {
          reply.header('retry-after', String(err.retryAfterS));
        }
        reply.header('connection', 'close');
        refusedEarly.add(request);
        throw err;
      }
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      if (!refusedEarly.has(request) || typeof payload !== 'string') return payload;
      const answer = Buffer.from(payload);
      reply.header('content-length', answer.length);
      return answerWhileDraining(request.raw, answer, request.routeOptions.bodyLimit);
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

/** How long a refused request's body is drained at most before its connection closes. */
const DRAIN_MS = 5_000;

/**
 * The whole answer at once, then the request's body read and dropped until it ends, `maxBytes`
 * were dropped or DRAIN_MS passed; only then does the answer end and the connection close.
 * Closing with unread bytes would make the kernel reset the connection, and a client still
 * sending would lose the answer it had not read yet (Apache's and nginx's lingering close).
 */
function answerWhileDraining(request: IncomingMessage, answer: Buffer, maxBytes: number) {
  const out = new PassThrough();
  out.write(answer);
  let dropped = 0;
  const done = () => {
    clearTimeout(timer);
    request.off('data', drop);
    out.end();
  };
  const drop = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) done();
  };
  const timer = setTimeout(done, DRAIN_MS).unref();
  if (request.complete || request.destroyed) {
    done();
  } else {
    request.on('data', drop);
    request.once('end', done);
    request.once('close', done);
    request.resume();
  }
  return out;
}

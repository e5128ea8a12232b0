import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { runWithRequestId } from '../lib/request-context.js';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What a proxy's id may look like: it goes into log lines, so nothing that could forge one. */
const ACCEPTED = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Fastify's `genReqId`: the proxy's X-Request-Id when proxies are trusted (PARLEY_TRUST_PROXY)
 * and it looks like an id, else a fresh UUID. Without a trusted proxy a client could pick the
 * id of another request's log lines.
 */
export function requestIdGenerator(trustProxy: boolean | string) {
  return (req: IncomingMessage): string => {
    if (trustProxy !== false) {
      const given = req.headers[REQUEST_ID_HEADER];
      if (typeof given === 'string' && ACCEPTED.test(given)) return given;
    }
    return randomUUID();
  };
}

/**
 * Echoes the request id in the answer, and runs the handler inside it (lib/request-context.ts)
 * once the body is read (a body parser's stream events would lose the context).
 */
export function registerRequestId(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => runWithRequestId(request.id, done));
}

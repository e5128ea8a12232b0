import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_CODES, ERROR_MESSAGES, SUCCESS_CODE, type ErrorCode } from '@parley/protocol';
import { SerializedAnswer } from '../lib/list-cache.js';
import { AppError, httpStatusOf } from '../lib/app-error.js';
import { isDatabaseUnavailable } from '../lib/db-errors.js';
import type { DatabaseAvailability } from '../db/availability.js';
import { parseJsonBody } from '../lib/json-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A call of the console's protocol (docs/api.md, "HTTP status"): every answer the server
     * produced is HTTP 200 and the outcome is the envelope's code. Its clients read the code;
     * a 4xx for a wrong password or a duplicate name is normal use, not a failed resource.
     */
    codedCall?: boolean;
  }
}

/** Route options of a call of the console's protocol. */
export const CODED_CALL = { config: { codedCall: true } } as const;

/** An unexpected fault (a bug, the database gone): HTTP 500 on every route. */
const FAULT_STATUS = 500;

function statusOf(reply: FastifyReply, code: ErrorCode): number {
  return reply.request.routeOptions.config?.codedCall ? 200 : httpStatusOf(code);
}

export function sendCoded(
  reply: FastifyReply,
  code: ErrorCode,
  msg?: string,
  data: unknown = null,
  status: number = statusOf(reply, code),
) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ code, msg: msg ?? ERROR_MESSAGES[code], data });
}

export function sendSuccess(reply: FastifyReply, data: unknown) {
  // Serialised before (a list answered from its cached bytes): sent as it is.
  if (data instanceof SerializedAnswer) {
    return reply
      .status(200)
      .header('content-type', 'application/json; charset=utf-8')
      .send(data.body);
  }
  return reply.status(200).send({ code: SUCCESS_CODE, msg: 'success', data });
}

function bodyError(message: string): AppError {
  return new AppError(ERROR_CODES.PARAMETER_ERROR, `${ERROR_MESSAGES['100001']}: body`, {
    fields: [{ path: 'body', message }],
  });
}

/** `data` of a 500005 answered because the database could not be reached. */
export const DATABASE_UNAVAILABLE = { reason: 'database unavailable' } as const;

/** Told of the requests that failed for want of the database (set once it is opened). */
export interface FaultWatch {
  database: DatabaseAvailability | null;
}

/**
 * JSON bodies: an empty body counts as `{}` (the client strips empty fields), malformed or
 * too deeply nested JSON is a coded 100001 (lib/json-body.ts); every error becomes
 * `{ code, msg, data }` and never carries a stack. A request that failed because the database
 * could not be reached answers 500005 with its reason (try again), not the 500001 of a fault.
 */
export function registerErrorHandling(app: FastifyInstance): FaultWatch {
  const watch: FaultWatch = { database: null };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      done(null, parseJsonBody(text));
    } catch (err) {
      done(err as AppError, undefined);
    }
  });

  app.setErrorHandler((err: Error, request, reply) => {
    if (err instanceof AppError) {
      return sendCoded(reply, err.code, err.message, err.data);
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own request errors: unsupported content type, body too large, bad encoding.
      request.log.info({ err: { message: err.message, code: (err as { code?: string }).code } });
      const e = bodyError(err.message);
      return sendCoded(reply, e.code, e.message, e.data);
    }
    if (isDatabaseUnavailable(err)) {
      // Said once by the watch when it goes away; each request's own line shows 500005.
      if (!watch.database?.failed(err)) request.log.warn({ err }, 'database unavailable');
      return sendCoded(reply, ERROR_CODES.SERVER_BUSY, undefined, DATABASE_UNAVAILABLE);
    }
    request.log.error({ err }, 'unhandled error');
    return sendCoded(reply, ERROR_CODES.SERVICE_ERROR, undefined, null, FAULT_STATUS);
  });
  return watch;
}

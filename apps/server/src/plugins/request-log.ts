import {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { SUCCESS_CODE, type CallPath } from '@parley/protocol';

/** The group-list poll every console makes each 10 s: routine, not news. */
const POLL_PATH: CallPath = '/v1/seat/chat/getGroupList';
/** `{"code":"100005",...`: the envelope's code, read off the serialized answer's start. */
const ENVELOPE_CODE = /^\{"code":"?(\d{3,6})/;
const SUCCESS_START = '{"code":"000000"';
const codes = new WeakMap<FastifyReply, string>();

/**
 * One log line per request, once it is answered, instead of Fastify's two (incoming,
 * completed): method, path, HTTP status, the envelope's code when it is not a success, and
 * the time taken. Polls, health checks, static files, media and the sandbox page's polls
 * (every GET) log at debug, so the default level shows what a person needs.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const path = request.url.split('?', 1)[0]!;
    const quiet = request.method === 'GET' || request.method === 'HEAD' || path === POLL_PATH;
    const level = error ? 'error' : quiet ? 'debug' : 'info';
    // Nothing is built for a line the level leaves out (most requests under load).
    if (!(request.log as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level)) {
      return;
    }
    const code = failureCode(codes.get(reply));
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const fields = { method: request.method, path, status: reply.statusCode, code, ms };
    const line = `${request.method} ${path} ${reply.statusCode}${code ? ` ${code}` : ''} ${ms} ms`;
    if (error) return request.log.error({ ...fields, err: error }, line);
    request.log[level](fields, line);
  }
}

const failureCode = (code: string | undefined) =>
  code === '000000' || code === '200' ? undefined : code;

/** The envelope code the answer carried, when it was a coded JSON answer (metrics read it). */
export function envelopeCodeOf(reply: FastifyReply): string | undefined {
  return codes.get(reply);
}

/** Notes each answer's envelope code for the request's log line. */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload === 'string') {
      // A success starts with its code: only other answers are matched.
      const code = payload.startsWith(SUCCESS_START)
        ? SUCCESS_CODE
        : ENVELOPE_CODE.exec(payload)?.[1];
      if (code) codes.set(reply, code);
    }
    done(null, payload);
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CALLS, type CallPath, type CallRequest, type CallResponse } from '@parley/protocol';
import { parseBody, type ParseOptions } from '../lib/validate.js';
import type { SerializedAnswer } from '../lib/list-cache.js';
import type { AuthSeat, AuthService } from '../modules/auth/auth.service.js';
import { CODED_CALL, sendSuccess } from './errors.js';
import { rateLimitConfig } from './rate-limit.js';

export type AuthedHandler<P extends CallPath> = (
  input: CallRequest<P>,
  seat: AuthSeat,
  request: FastifyRequest,
) => Promise<CallResponse<P> | SerializedAnswer>;
export type PublicHandler<P extends CallPath> = (
  input: CallRequest<P>,
  request: FastifyRequest,
) => Promise<CallResponse<P>>;

/** The seat each authenticated request was sent by (set before its body is read). */
const seats = new WeakMap<FastifyRequest, AuthSeat>();

/**
 * Registers the POST routes of the protocol's calls. Each request goes: authenticate (when the
 * call needs it), validate the body with the call's schema, run the handler, wrap the answer.
 */
export class CallRegistry {
  private readonly registered = new Set<CallPath>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: AuthService,
    /** Requests per minute per address on the calls that need no token (0: no limit). */
    private readonly publicPerMinute = 0,
  ) {}

  authed<P extends CallPath>(path: P, handler: AuthedHandler<P>, options: ParseOptions = {}) {
    this.register(path, true, async (request) => {
      const seat = seats.get(request)!;
      const input = parseBody<CallRequest<P>>(CALLS[path].request, request.body, options);
      return handler(input, seat, request);
    });
  }

  public<P extends CallPath>(path: P, handler: PublicHandler<P>) {
    this.register(path, false, async (request) => {
      const input = parseBody<CallRequest<P>>(CALLS[path].request, request.body);
      return handler(input, request);
    });
  }

  isRegistered(path: CallPath) {
    return this.registered.has(path);
  }

  private register(
    path: CallPath,
    authRequired: boolean,
    run: (request: FastifyRequest) => Promise<unknown>,
  ) {
    if (this.registered.has(path)) throw new Error(`call ${path} registered twice`);
    // The protocol says which calls need a token; a route may not disagree.
    if (CALLS[path].auth !== authRequired) throw new Error(`call ${path}: auth mismatch`);
    this.registered.add(path);
    this.app.post(
      path,
      {
        config: {
          ...CODED_CALL.config,
          ...(!authRequired && rateLimitConfig(this.publicPerMinute)),
        },
        // The token is checked before the body is read: a stranger's body is never parsed.
        ...(authRequired && {
          onRequest: async (request: FastifyRequest) => {
            seats.set(request, await this.auth.authenticateHeader(request.headers.authorization));
          },
        }),
      },
      async (request, reply) => sendSuccess(reply, await run(request)),
    );
  }
}

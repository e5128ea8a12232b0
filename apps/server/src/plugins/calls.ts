import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CALLS, type CallPath, type CallRequest, type CallResponse } from '@parley/protocol';
import { parseBody, type ParseOptions } from '../lib/validate.js';
import type { AuthSeat, AuthService } from '../modules/auth/auth.service.js';
import { CODED_CALL, sendSuccess } from './errors.js';

export type AuthedHandler<P extends CallPath> = (
  input: CallRequest<P>,
  seat: AuthSeat,
  request: FastifyRequest,
) => Promise<CallResponse<P>>;
export type PublicHandler<P extends CallPath> = (
  input: CallRequest<P>,
  request: FastifyRequest,
) => Promise<CallResponse<P>>;

/**
 * Registers the POST routes of the protocol's calls. Each request goes: authenticate (when the
 * call needs it), validate the body with the call's schema, run the handler, wrap the answer.
 */
export class CallRegistry {
  private readonly registered = new Set<CallPath>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: AuthService,
  ) {}

  authed<P extends CallPath>(path: P, handler: AuthedHandler<P>, options: ParseOptions = {}) {
    this.register(path, true, async (request) => {
      const seat = await this.auth.authenticateHeader(request.headers.authorization);
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
    this.app.post(path, CODED_CALL, async (request, reply) =>
      sendSuccess(reply, await run(request)),
    );
  }
}

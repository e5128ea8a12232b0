import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
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

/** A protocol's table of calls: each has its request schema and says whether it needs a token. */
interface CallTable {
  [path: string]: { request: ZodType; auth: boolean };
}

/** Turns the Authorization header into who sent the request, or throws its coded refusal. */
interface Authenticator<Principal> {
  authenticateHeader(header: string | undefined): Promise<Principal>;
}

/**
 * Registers the POST routes of one table of calls (the seat's CALLS, the administrator's
 * ADMIN_CALLS). Each request goes: authenticate (when the call needs it), validate the body
 * with the call's schema, run the handler, wrap the answer.
 */
export class CallRoutes<Calls extends CallTable, Principal> {
  private readonly registered = new Set<keyof Calls & string>();
  /** Who sent each authenticated request (set before its body is read). */
  private readonly principals = new WeakMap<FastifyRequest, Principal>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly calls: Calls,
    private readonly auth: Authenticator<Principal>,
    /** Requests per minute per address on the calls that need no token (0: no limit). */
    private readonly publicPerMinute = 0,
  ) {}

  isRegistered(path: keyof Calls & string) {
    return this.registered.has(path);
  }

  /**
   * The calls of the table without a route yet (checked once all are registered); a call a
   * channel's folder registered with a registry of its own counts as routed.
   */
  missing(): (keyof Calls & string)[] {
    return Object.keys(this.calls).filter(
      (p) => !this.registered.has(p) && !this.app.hasRoute({ method: 'POST', url: p }),
    );
  }

  protected route<I>(
    path: keyof Calls & string,
    authRequired: boolean,
    options: ParseOptions,
    run: (input: I, principal: Principal | undefined, request: FastifyRequest) => Promise<unknown>,
  ) {
    if (this.registered.has(path)) throw new Error(`call ${path} registered twice`);
    // The protocol says which calls need a token; a route may not disagree.
    const call = this.calls[path]!;
    if (call.auth !== authRequired) throw new Error(`call ${path}: auth mismatch`);
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
            const principal = await this.auth.authenticateHeader(request.headers.authorization);
            this.principals.set(request, principal);
          },
        }),
      },
      async (request, reply) => {
        const input = parseBody<I>(call.request, request.body, options);
        return sendSuccess(reply, await run(input, this.principals.get(request), request));
      },
    );
  }
}

/** The seat's calls (CALLS). */
export class CallRegistry extends CallRoutes<typeof CALLS, AuthSeat> {
  /**
   * Told of each seat call but the list reads once it has run, before it is answered
   * (whatever it changed).
   */
  onCalled: ((seatId: number) => void) | null = null;

  constructor(app: FastifyInstance, auth: AuthService, publicPerMinute = 0) {
    super(app, CALLS, auth, publicPerMinute);
  }

  authed<P extends CallPath>(path: P, handler: AuthedHandler<P>, options: ParseOptions = {}) {
    this.route<CallRequest<P>>(path, true, options, async (input, seat, request) => {
      try {
        return await handler(input, seat!, request);
      } finally {
        this.onCalled?.(seat!.seatId);
      }
    });
  }

  /** A call that only reads the seat's lists (answered from the list cache): no onCalled. */
  listRead<P extends CallPath>(path: P, handler: AuthedHandler<P>) {
    this.route<CallRequest<P>>(path, true, {}, (input, seat, request) =>
      handler(input, seat!, request),
    );
  }

  public<P extends CallPath>(path: P, handler: PublicHandler<P>) {
    this.route<CallRequest<P>>(path, false, {}, (input, _seat, request) => handler(input, request));
  }
}

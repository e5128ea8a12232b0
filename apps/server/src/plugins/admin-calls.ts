import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_CALLS,
  type AdminCallPath,
  type AdminCallRequest,
  type AdminCallResponse,
} from '@parley/protocol';
import { parseBody, type ParseOptions } from '../lib/validate.js';
import type { AdminAuthService, AuthAdmin } from '../modules/admin/admin-auth.service.js';
import { CODED_CALL, sendSuccess } from './errors.js';
import { rateLimitConfig } from './rate-limit.js';

export type AdminHandler<P extends AdminCallPath> = (
  input: AdminCallRequest<P>,
  admin: AuthAdmin,
  request: FastifyRequest,
) => Promise<AdminCallResponse<P>>;

const admins = new WeakMap<FastifyRequest, AuthAdmin>();

/**
 * The administrator's calls (ADMIN_CALLS), registered like the seat's CallRegistry: the admin
 * token is checked before the body is read (a seat's token is unknown here: 400002), the body
 * is validated with the call's schema, and the answer wrapped in the envelope.
 */
export class AdminCallRegistry {
  private readonly registered = new Set<AdminCallPath>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: AdminAuthService,
    private readonly publicPerMinute = 0,
  ) {}

  authed<P extends AdminCallPath>(path: P, handler: AdminHandler<P>, options: ParseOptions = {}) {
    this.register(path, true, async (request) => {
      const input = parseBody<AdminCallRequest<P>>(
        ADMIN_CALLS[path].request,
        request.body,
        options,
      );
      return handler(input, admins.get(request)!, request);
    });
  }

  public<P extends AdminCallPath>(
    path: P,
    handler: (input: AdminCallRequest<P>, request: FastifyRequest) => Promise<AdminCallResponse<P>>,
  ) {
    this.register(path, false, async (request) => {
      const input = parseBody<AdminCallRequest<P>>(ADMIN_CALLS[path].request, request.body);
      return handler(input, request);
    });
  }

  /** Every admin call has its route (checked once all are registered). */
  missing(): AdminCallPath[] {
    return (Object.keys(ADMIN_CALLS) as AdminCallPath[]).filter((p) => !this.registered.has(p));
  }

  private register(
    path: AdminCallPath,
    authRequired: boolean,
    run: (request: FastifyRequest) => Promise<unknown>,
  ) {
    if (this.registered.has(path)) throw new Error(`call ${path} registered twice`);
    if (ADMIN_CALLS[path].auth !== authRequired) throw new Error(`call ${path}: auth mismatch`);
    this.registered.add(path);
    this.app.post(
      path,
      {
        config: {
          ...CODED_CALL.config,
          ...(!authRequired && rateLimitConfig(this.publicPerMinute)),
        },
        ...(authRequired && {
          onRequest: async (request: FastifyRequest) => {
            admins.set(request, await this.auth.authenticateHeader(request.headers.authorization));
          },
        }),
      },
      async (request, reply) => sendSuccess(reply, await run(request)),
    );
  }
}

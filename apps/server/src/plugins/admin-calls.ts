import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_CALLS,
  type AdminCallPath,
  type AdminCallRequest,
  type AdminCallResponse,
} from '@parley/protocol';
import type { ParseOptions } from '../lib/validate.js';
import type { AdminAuthService, AuthAdmin } from '../modules/admin/admin-auth.service.js';
import { CallRoutes } from './calls.js';

export type AdminHandler<P extends AdminCallPath> = (
  input: AdminCallRequest<P>,
  admin: AuthAdmin,
  request: FastifyRequest,
) => Promise<AdminCallResponse<P>>;

/**
 * The administrator's calls (ADMIN_CALLS), registered as the seat's are: the admin token is
 * checked before the body is read (a seat's token is unknown here: 400002), the body is
 * validated with the call's schema, and the answer wrapped in the envelope.
 */
export class AdminCallRegistry extends CallRoutes<typeof ADMIN_CALLS, AuthAdmin> {
  constructor(app: FastifyInstance, auth: AdminAuthService, publicPerMinute = 0) {
    super(app, ADMIN_CALLS, auth, publicPerMinute);
  }

  authed<P extends AdminCallPath>(path: P, handler: AdminHandler<P>, options: ParseOptions = {}) {
    this.route<AdminCallRequest<P>>(path, true, options, (input, admin, request) =>
      handler(input, admin!, request),
    );
  }

  public<P extends AdminCallPath>(
    path: P,
    handler: (input: AdminCallRequest<P>, request: FastifyRequest) => Promise<AdminCallResponse<P>>,
  ) {
    this.route<AdminCallRequest<P>>(path, false, {}, (input, _admin, request) =>
      handler(input, request),
    );
  }
}

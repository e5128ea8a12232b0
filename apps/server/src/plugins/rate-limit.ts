import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../lib/app-error.js';

/**
 * Per-address request limits on the routes that need no seat token (@fastify/rate-limit,
 * counted in this instance's memory). Only routes that ask for it are limited: see
 * `rateLimitConfig`. An address over its limit gets 500003 and a Retry-After header.
 */
export async function registerRateLimit(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(ERROR_CODES.OPERATION_LIMIT, undefined, {
        retry_after_ms: context.ttl,
      }),
  });
}

/** Route config that limits a route to `perMinute` requests per client address (0: none). */
export function rateLimitConfig(perMinute: number): FastifyContextConfig {
  return perMinute > 0 ? { rateLimit: { max: perMinute, timeWindow: 60_000 } } : {};
}

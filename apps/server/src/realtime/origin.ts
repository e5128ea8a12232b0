import type { FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@parley/protocol';
import { AppError } from '../lib/app-error.js';

/** `https://chat.example.com` as browsers send it in Origin: scheme, host, port if not default. */
export function normalizeOrigin(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Whether a socket's Origin may open it: the server's own (the origin's host is the request's
 * Host, as the console served from here sends it; through a proxy that forwards Host, or
 * X-Forwarded-Host when the proxy is trusted), one of `allowed` (PARLEY_ALLOWED_ORIGINS), or no
 * Origin at all: browsers always send one on a WebSocket, so only programs (the CLI, benches)
 * come without, and the token in the first frame is what they need.
 */
export function originAllowed(
  origin: string | undefined,
  host: string,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  if (allowed.includes('*')) return true;
  const normalized = normalizeOrigin(origin);
  if (normalized === null) return false;
  if (allowed.includes(normalized)) return true;
  // The Host read with the origin's scheme, so a default port (":443") compares equal.
  const url = new URL(normalized);
  try {
    return host !== '' && new URL(`${url.protocol}//${host}`).host === url.host;
  } catch {
    return false;
  }
}

/**
 * onRequest of the push sockets: another site's page is refused (403, 400003
 * `origin_not_allowed`) before the upgrade, so it never holds a socket of ours.
 */
export function checkOrigin(allowed: readonly string[]) {
  return async (request: FastifyRequest) => {
    if (!originAllowed(request.headers.origin, request.host, allowed)) {
      throw new AppError(ERROR_CODES.PERMISSION_FAILED, 'Origin not allowed', {
        reason: 'origin_not_allowed',
      });
    }
  };
}

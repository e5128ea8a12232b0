import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The console's Content-Security-Policy: scripts only from our own origin (the built bundle;
 * no inline script, no eval), nothing may frame it, no plugins. Styles allow 'unsafe-inline'
 * because Mantine writes its CSS variables into <style> tags at run time; a style cannot run
 * code. blob: and data: serve local previews (images picked before upload, voice notes).
 * No `upgrade-insecure-requests`: a LAN install over plain HTTP must keep working.
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every response (API, console, media, errors) through @fastify/helmet:
 * the CSP above, `nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, and the
 * cross-origin isolation headers. HSTS only when the request came over TLS (directly or
 * through a proxy Fastify trusts): over plain HTTP it would mean nothing.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: false,
    // Media and avatars are same-origin; nothing is embedded from elsewhere.
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    return payload;
  });
}

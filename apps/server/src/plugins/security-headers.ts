import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

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
 * Security headers on every response (API, console, media, errors), as helmet sets them: the
 * CSP above, `nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, and the
 * cross-origin isolation headers. They never vary by request, so helmet writes them once at
 * start and each response gets the same set (helmet per request re-read its options: a tenth
 * of a user-list call). HSTS only when the request came over TLS (directly or through a proxy
 * Fastify trusts): over plain HTTP it would mean nothing.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  const headers = helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done(null, payload);
  });
}

/** The headers helmet sets with our options, collected from one run of its middleware. */
function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  } as unknown as ServerResponse;
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: false,
    // Media and avatars are same-origin; nothing is embedded from elsewhere.
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, res, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

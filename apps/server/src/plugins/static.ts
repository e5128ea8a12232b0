import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@parley/protocol';
import { webDirExists, type Config } from '../config.js';
import { sendCoded } from './errors.js';

const NOT_BUILT =
  'Parley: the web app is not built. Run `npm run build`, or set PARLEY_WEB_DIR. The API is up under /v1.\n';

function isGetOutsideApi(method: string, url: string) {
  const api = url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
  return (method === 'GET' || method === 'HEAD') && !api;
}

/** The build writes `.br` and `.gz` beside each text file (apps/web/scripts/precompress.mjs). */
const ENCODINGS = { br: '.br', gzip: '.gz' } as const;
type Encoding = keyof typeof ENCODINGS;

/** index.html in the best encoding the browser accepts that the build wrote. */
async function readIndex(root: string, request: FastifyRequest) {
  const file = path.join(root, 'index.html');
  // As @fastify/static does: `*` stands for gzip.
  const accepted = String(request.headers['accept-encoding'] ?? '').replace(/\*/g, 'gzip');
  const tried = new Set<Encoding>();
  for (;;) {
    const left = (Object.keys(ENCODINGS) as Encoding[]).filter((e) => !tried.has(e));
    const encoding = accepted ? negotiate(accepted.toLowerCase(), left) : null;
    if (!encoding) return { body: await readFile(file), encoding: null };
    try {
      return { body: await readFile(file + ENCODINGS[encoding]), encoding };
    } catch {
      tried.add(encoding);
    }
  }
}

/**
 * The built web app with history-mode fallback: a GET that is not /v1/*, /healthz or an
 * existing file answers index.html. Anything else unmatched is a coded 404001.
 *
 * Text files go out precompressed (brotli or gzip, as the browser accepts; `Vary:
 * Accept-Encoding`). The hashed files under /assets/ are cached for a year; index.html, which
 * names them, is revalidated on every load (`no-cache`) so a new build is picked up at once.
 */
export async function registerStatic(app: FastifyInstance, config: Config) {
  const built = webDirExists(config);
  const root = path.resolve(config.webDir);
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const { body, encoding } = await readIndex(root, request);
    reply
      .status(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  };

  if (built) {
    await app.register(async (scope) => {
      // A directory or unreadable path under the web root is a client route too.
      scope.setErrorHandler(async (err: { statusCode?: number }, request, reply) => {
        if (isGetOutsideApi(request.method, request.url) && (err.statusCode ?? 500) < 500) {
          return sendIndex(request, reply);
        }
        throw err;
      });
      await scope.register(fastifyStatic, {
        root,
        index: false,
        preCompressed: true,
        setHeaders(res, filePath: string) {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          }
        },
      });
    });
  } else {
    app.log.warn({ webDir: config.webDir }, 'web app not built; serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    if (!isGetOutsideApi(request.method, request.url)) {
      return sendCoded(reply, ERROR_CODES.ROUTE_NOT_FOUND);
    }
    if (!built) return reply.status(200).type('text/plain; charset=utf-8').send(NOT_BUILT);
    return sendIndex(request, reply);
  });
}

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_CODES } from '@parley/protocol';
import { webDirExists, type Config } from '../config.js';
import { sendCoded } from './errors.js';

const NOT_BUILT =
  'Parley: the web app is not built. Run `npm run build`, or set PARLEY_WEB_DIR. The API is up under /v1.\n';

function isGetOutsideApi(method: string, url: string) {
  const api = url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');
  return (method === 'GET' || method === 'HEAD') && !api;
}

/**
 * The built web app with history-mode fallback: a GET that is not /v1/*, /healthz or an
 * existing file answers index.html. Anything else unmatched is a coded 404001.
 */
export async function registerStatic(app: FastifyInstance, config: Config) {
  const built = webDirExists(config);
  const root = path.resolve(config.webDir);
  const sendIndex = async (reply: FastifyReply) =>
    reply
      .status(200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await readFile(path.join(root, 'index.html')));

  if (built) {
    await app.register(async (scope) => {
      // A directory or unreadable path under the web root is a client route too.
      scope.setErrorHandler(async (err: { statusCode?: number }, request, reply) => {
        if (isGetOutsideApi(request.method, request.url) && (err.statusCode ?? 500) < 500) {
          return sendIndex(reply);
        }
        throw err;
      });
      await scope.register(fastifyStatic, {
        root,
        index: false,
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
    return sendIndex(reply);
  });
}

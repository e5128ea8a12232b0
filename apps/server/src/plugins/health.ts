import type { FastifyInstance } from 'fastify';
import type { DatabaseAvailability } from '../db/availability.js';
import { ERROR_CODES } from '@parley/protocol';
import { sendCoded } from './errors.js';

/**
 * After the grace, how long every new request is refused with a coded 503 before the listener
 * closes: a client (or nginx, proxy_next_upstream) told so goes elsewhere instead of finding
 * the port closed under a request it had already written.
 */
export const REFUSE_BEFORE_CLOSE_MS = 1_000;

export interface Health {
  /** SIGTERM: the health check answers 503 from now on, so a load balancer stops sending here. */
  startDraining(): void;
  /** After the grace: every new request is answered 503 `500005` with `Connection: close`. */
  startRefusing(): void;
  readonly draining: boolean;
  /** From now on the check asks the database too (503 "database unavailable" when away). */
  watchDatabase(database: DatabaseAvailability): void;
}

export function registerHealth(app: FastifyInstance): Health {
  let draining = false;
  let refusing = false;
  app.addHook('onRequest', async (request, reply) => {
    if (!refusing || request.url === '/healthz') return;
    reply.header('connection', 'close').header('retry-after', '1');
    return sendCoded(reply, ERROR_CODES.SERVER_BUSY, undefined, null, 503);
  });
  // Answers given while draining carry `Connection: close`: the client's next request opens a
  // new connection (through the balancer, to another instance), and no keep-alive connection is
  // left idle for the listener's close to cut under a request being written.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  let database: DatabaseAvailability | null = null;
  app.get('/healthz', async (_request, reply) => {
    if (draining) return reply.status(503).send({ status: 'draining' });
    if (database && !(await database.check())) {
      return reply.status(503).send({ status: 'database unavailable' });
    }
    return { status: 'ok' };
  });
  return {
    watchDatabase: (watched) => {
      database = watched;
    },
    startDraining: () => {
      draining = true;
    },
    startRefusing: () => {
      draining = true;
      refusing = true;
    },
    get draining() {
      return draining;
    },
  };
}

/**
 * SIGTERM, as seen from outside (docs/deploy.md, "Stopping and rolling restarts"): /healthz
 * answers 503 for `graceMs` while every request is still served; then new requests are refused
 * with a coded 503 for REFUSE_BEFORE_CLOSE_MS; then the app closes (the listener, push sockets
 * told to reconnect, background jobs, the database). Answers once closed.
 */
export async function drainAndClose(
  app: FastifyInstance,
  health: Health,
  graceMs: number,
): Promise<void> {
  health.startDraining();
  await new Promise((resolve) => setTimeout(resolve, graceMs));
  health.startRefusing();
  await new Promise((resolve) => setTimeout(resolve, REFUSE_BEFORE_CLOSE_MS));
  await app.close();
}

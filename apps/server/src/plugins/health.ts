import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DatabaseAvailability } from '../db/availability.js';
import { ERROR_CODES, RETRY_SAFE_PATHS } from '@parley/protocol';
import { sendCoded } from './errors.js';

/**
 * After the grace, how long new requests that a balancer may pass elsewhere are refused with a
 * coded 503 before the listener closes: nginx (proxy_next_upstream http_503, max_fails=1) sends
 * such a request to the other instance and then sends nothing here for its fail_timeout, so no
 * new connection waits in the kernel's backlog when the port closes.
 */
export const REFUSE_BEFORE_CLOSE_MS = 1_000;

/**
 * Past REFUSE_BEFORE_CLOSE_MS, the port closes once nothing is pending on it (looked at every
 * CLOSE_POLL_MS)...
 */
const CLOSE_POLL_MS = 5;
/** Logged when the port closes with connections or requests still pending on it. */
export const DRAIN_LIMIT_TEXT = 'drain limit reached: closing the port with connections pending';
/** ...or this much later at the latest (taken from PARLEY_SHUTDOWN_TIMEOUT_MS). */
export const CLOSE_QUIET_MAX_MS = 4_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RETRY_SAFE = new Set(RETRY_SAFE_PATHS);

/**
 * What a draining instance refuses: reads (GET, HEAD: the page, media, push sockets) and the
 * calls safe to send twice, which nginx passes on. Any other call is still served: refused, it
 * would reach the console as an error, as nginx does not send it twice.
 */
function refusable(method: string, url: string): boolean {
  if (method === 'GET' || method === 'HEAD') return url !== '/healthz';
  const q = url.indexOf('?');
  return RETRY_SAFE.has(q === -1 ? url : url.slice(0, q));
}

export interface Health {
  /** SIGTERM: the health check answers 503 from now on, so a load balancer stops sending here. */
  startDraining(): void;
  /** After the grace: new reads and retry-safe calls are answered 503 `500005` with `Connection: close`. */
  startRefusing(): void;
  readonly draining: boolean;
  /**
   * Connections accepted whose first request is not read yet, plus requests read and not yet
   * answered (push sockets, once upgraded, are neither): what closing the port would cut.
   */
  readonly pending: number;
  /** From now on the check asks the database too (503 "database unavailable" when away). */
  watchDatabase(database: DatabaseAvailability): void;
}

export function registerHealth(app: FastifyInstance): Health {
  let draining = false;
  let refusing = false;
  let inFlight = 0;
  const fresh = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    fresh.add(socket);
    socket.once('close', () => fresh.delete(socket));
  });
  app.server.on('upgrade', (req: IncomingMessage) => fresh.delete(req.socket));
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    fresh.delete(req.socket);
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!refusing || !refusable(request.method, request.url)) return;
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
    get pending() {
      return fresh.size + inFlight;
    },
  };
}

/**
 * SIGTERM, as seen from outside (docs/deploy.md, "Stopping and rolling restarts"): /healthz
 * answers 503 for `graceMs` while every request is still served; then new reads and retry-safe
 * calls are refused with a coded 503 for REFUSE_BEFORE_CLOSE_MS; then the app closes (the listener, push sockets
 * told to reconnect, background jobs, the database). Answers once closed.
 */
export async function drainAndClose(
  app: FastifyInstance,
  health: Health,
  graceMs: number,
): Promise<void> {
  health.startDraining();
  await sleep(graceMs);
  // Connections still arriving (a client not behind a balancer, an event loop slow to accept
  // under load) would wait in the kernel's backlog and be reset as the port closes: close once
  // that queue was just emptied, every accepted connection's request was read, and no request is in
  // flight (its client's next one is refused with a 503 rather than finding the port closed),
  // or at most CLOSE_QUIET_MAX_MS later.
  health.startRefusing();
  await sleep(REFUSE_BEFORE_CLOSE_MS);
  const latest = Date.now() + CLOSE_QUIET_MAX_MS;
  for (;;) {
    await sleep(CLOSE_POLL_MS);
    // Just after the event loop's poll phase, which accepted every connection the kernel had
    // queued: nothing pending now means nothing queued but what arrived since, microseconds.
    await new Promise((resolve) => setImmediate(resolve));
    if (health.pending === 0) break;
    if (Date.now() >= latest) {
      // An instance too busy to drain in time (clients not behind a balancer, a loaded machine):
      // the connections not yet read, and those still in the kernel's queue, will be reset.
      app.log.warn({ pending: health.pending }, DRAIN_LIMIT_TEXT);
      break;
    }
  }
  await app.close();
}

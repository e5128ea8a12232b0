import { readFileSync } from 'node:fs';
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
 * Past REFUSE_BEFORE_CLOSE_MS, the port closes once the kernel's accept queue is empty and no
 * connection came for this long...
 */
export const CLOSE_QUIET_MS = 100;
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
  /** From now on the check asks the database too (503 "database unavailable" when away). */
  watchDatabase(database: DatabaseAvailability): void;
}

export function registerHealth(app: FastifyInstance): Health {
  let draining = false;
  let refusing = false;
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
  // that queue is empty and no connection was accepted for CLOSE_QUIET_MS (its request read),
  // or at most CLOSE_QUIET_MAX_MS later.
  let lastConnection = Date.now();
  const seen = () => (lastConnection = Date.now());
  app.server.on('connection', seen);
  health.startRefusing();
  await sleep(REFUSE_BEFORE_CLOSE_MS);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const latest = Date.now() + CLOSE_QUIET_MAX_MS;
  while (Date.now() < latest) {
    const quiet = Date.now() - lastConnection >= CLOSE_QUIET_MS;
    if (quiet && (acceptQueue(port) ?? 0) === 0) break;
    await sleep(20);
  }
  app.server.off('connection', seen);
  await app.close();
}

/**
 * Connections of `port` the kernel completed but the app has not accepted yet (Linux: a
 * listening socket's rx_queue in /proc/net/tcp and tcp6); null where that is not known.
 */
export function acceptQueue(port: number): number | null {
  let total: number | null = null;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    total ??= 0;
    for (const line of text.split('\n').slice(1)) {
      // sl local_address(ip:port, hex) rem_address st(0A: LISTEN) tx_queue:rx_queue ...
      const f = line.trim().split(/\s+/);
      if (f[3] !== '0A' || parseInt(f[1]?.split(':')[1] ?? '', 16) !== port) continue;
      total += parseInt(f[4]?.split(':')[1] ?? '0', 16);
    }
  }
  return total;
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
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
 * Past REFUSE_BEFORE_CLOSE_MS, the port closes at the first moment nothing accepted is unread
 * (looked at every CLOSE_POLL_MS)...
 */
const CLOSE_POLL_MS = 5;
/** A turn of the event loop this short had no time to be descheduled in (see afterFreshPoll). */
const FRESH_POLL_MS = 2;
/** Past the limit, how many more looks an empty poll is waited for before the port closes anyway. */
const FRESH_POLL_MAX_LOOKS = 100;
/** Logged when the port closes with connections not yet read, or closes them unanswered. */
export const DRAIN_LIMIT_TEXT = 'drain limit reached: closing the port with connections pending';
/**
 * Logged as the listener closes (its `time`), with what was accepted and not yet answered, and
 * whether the poll just before found the kernel's accept queue empty.
 */
export const PORT_CLOSED_TEXT = 'drain: port closed';
/** Logged once every request accepted was answered, before the app closes. */
export const DRAINED_TEXT = 'drain: every request accepted answered';
/**
 * ...or this much later at the latest; the requests accepted are answered within the same
 * limit (and a second past the port's close), taken from PARLEY_SHUTDOWN_TIMEOUT_MS.
 */
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
  /** Connections accepted whose first request is not read yet. */
  readonly unread: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /**
   * Unread connections plus requests read and not yet answered (push sockets, once upgraded,
   * are neither): what closing the connections now would cut.
   */
  readonly pending: number;
  /**
   * Closes the keep-alive connections waiting for their client's next request (idle since
   * before the signal: every answer since said `Connection: close`); answers how many.
   */
  closeIdle(): number;
  /** From now on the check asks the database too (503 "database unavailable" when away). */
  watchDatabase(database: DatabaseAvailability): void;
}

export function registerHealth(app: FastifyInstance): Health {
  let draining = false;
  let refusing = false;
  let inFlight = 0;
  const fresh = new Set<Socket>();
  // Every HTTP connection (not upgraded) with its requests read and not yet answered.
  const open = new Map<Socket, number>();
  let accepted = 0;
  app.server.on('connection', (socket: Socket) => {
    accepted += 1;
    fresh.add(socket);
    open.set(socket, 0);
    socket.once('close', () => {
      fresh.delete(socket);
      open.delete(socket);
    });
  });
  app.server.on('upgrade', (req: IncomingMessage) => {
    fresh.delete(req.socket);
    open.delete(req.socket);
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    fresh.delete(socket);
    inFlight += 1;
    if (open.has(socket)) open.set(socket, open.get(socket)! + 1);
    res.once('close', () => {
      inFlight -= 1;
      const n = open.get(socket);
      if (n !== undefined) open.set(socket, n - 1);
    });
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
    get unread() {
      return fresh.size;
    },
    get accepted() {
      return accepted;
    },
    get pending() {
      return fresh.size + inFlight;
    },
    closeIdle: () => {
      let closed = 0;
      for (const [socket, requests] of open) {
        if (requests > 0 || fresh.has(socket)) continue;
        socket.destroy();
        closed += 1;
      }
      return closed;
    },
  };
}

const immediate = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits CLOSE_POLL_MS, then one turn of the event loop; answers whether that turn's poll phase
 * found the kernel's accept queue empty, as far as can be known: it accepted nothing (libuv
 * accepts one connection per turn, so a turn that accepted one may have left others queued),
 * and it ran at most FRESH_POLL_MS ago (on a loaded machine the process is often descheduled
 * between a poll and the code after it, and connections queue meanwhile).
 */
async function afterEmptyPoll(health: Health): Promise<boolean> {
  await sleep(CLOSE_POLL_MS);
  await immediate();
  const accepted = health.accepted;
  const before = performance.now();
  await immediate();
  return performance.now() - before <= FRESH_POLL_MS && health.accepted === accepted;
}

/**
 * SIGTERM, as seen from outside (docs/deploy.md, "Stopping and rolling restarts"): /healthz
 * answers 503 for `graceMs` while every request is still served; then new reads and retry-safe
 * calls are refused with a coded 503 for REFUSE_BEFORE_CLOSE_MS; then the port closes, at a
 * moment nothing accepted is unread; then every request accepted is answered; then the app
 * closes (push sockets told to reconnect, background jobs, the database). Answers once closed.
 */
export async function drainAndClose(
  app: FastifyInstance,
  health: Health,
  graceMs: number,
): Promise<void> {
  health.startDraining();
  await sleep(graceMs);
  health.startRefusing();
  await sleep(REFUSE_BEFORE_CLOSE_MS);
  // Stop accepting first, and only that: a connection still in the kernel's accept queue when
  // the listener closes is reset, so the port closes just after a poll that found the queue
  // empty, with every connection accepted before read (nothing queued then but what arrived in
  // that instant). Requests still in flight do not hold the port open: their clients' next
  // requests find it closed (refused: a balancer passes them on) rather than racing its close.
  const latest = Date.now() + CLOSE_QUIET_MAX_MS;
  // Counted in looks, not time: a process starved for seconds has no time of its own to count.
  let looksPastLimit = 0;
  let empty = false;
  for (;;) {
    empty = await afterEmptyPoll(health);
    if (empty && health.unread === 0) break;
    // Past the limit (connections keep coming, or the event loop is starved): the port closes
    // at the next empty poll anyway, as what was accepted is still read and answered below.
    // None in FRESH_POLL_MAX_LOOKS more looks: closed as it is (what is queued is reset).
    if (Date.now() >= latest && (empty || ++looksPastLimit >= FRESH_POLL_MAX_LOOKS)) {
      app.log.warn({ unread: health.unread, emptyQueue: empty }, DRAIN_LIMIT_TEXT);
      break;
    }
  }
  stopListening(app.server);
  const closed = { unread: health.unread, pending: health.pending, emptyQueue: empty };
  app.log.info(closed, PORT_CLOSED_TEXT);
  // Every connection accepted is read and answered (Connection: close) before the app closes:
  // closing it would cut a request its client has written. Nothing new arrives now. Within the
  // same limit, and a second more to read what was accepted as the port closed past it.
  const answerBy = Math.max(latest, Date.now() + 1_000);
  for (;;) {
    const recent = await afterEmptyPoll(health);
    if (recent && health.pending === 0) break;
    if (Date.now() >= answerBy) {
      // Requests still running finish while the app closes (it waits for them before the
      // database closes); a connection still unread now is closed with the idle ones.
      app.log.warn({ unread: health.unread, pending: health.pending }, DRAIN_LIMIT_TEXT);
      break;
    }
  }
  // Just after a recent poll: a keep-alive connection idle since before the signal whose client
  // wrote on it has been read, and is no longer idle.
  const cut = health.unread;
  const idle = health.closeIdle();
  app.log.info({ cut, idle, inFlight: health.pending - health.unread }, DRAINED_TEXT);
  await app.close();
}

/**
 * Closes the listening socket alone. `http.Server#close` would also close every connection
 * with no request being read at that moment, among them those accepted whose request has not
 * been read yet; the app's close calls it later, once there are none.
 */
function stopListening(server: Server): void {
  NetServer.prototype.close.call(server);
}

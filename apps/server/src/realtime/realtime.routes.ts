import websocket from '@fastify/websocket';
import { ERROR_CODES, PUSH_CLOSE, REALTIME_PATH, clientHello } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { checkOrigin } from './origin.js';
import type { Db } from '../db/database.js';
import { helloFault } from './hello-fault.js';
import { AppError } from '../lib/app-error.js';
import { hashToken, type AuthService } from '../modules/auth/auth.service.js';
import { seatsRepository } from '../modules/seats/seats.repository.js';
import { PollingFanOut, RedisFanOut, type FanOut } from './fan-out.js';
import { RealtimeHub, send, type Connection } from './hub.js';
import { lateBeats } from './late-beat.js';
import type { RecordingEventBus } from './recording-event-bus.js';

/** A socket must say hello (token, last event id) this soon after opening. */
const HELLO_TIMEOUT_MS = 10_000;

export interface Realtime {
  hub: RealtimeHub;
  fanOut: FanOut;
}

/**
 * The push channel at REALTIME_PATH: hello -> ready/reset -> missed events -> live events, a
 * heartbeat that drops dead sockets and closes those whose token expired or was revoked.
 */
export async function registerRealtime(
  app: FastifyInstance,
  config: Config,
  db: Db,
  auth: AuthService,
  bus: RecordingEventBus,
): Promise<Realtime> {
  const { heartbeatMs, redisUrl, pollMs } = config.realtime;
  const hub = new RealtimeHub(db);
  const fanOut: FanOut = redisUrl
    ? new RedisFanOut(redisUrl, {
        hub,
        fallback: { db, pollMs },
        log: (state, err) =>
          state === 'down'
            ? app.log.warn({ err }, 'redis unreachable: reading the event log until it returns')
            : app.log.info('redis connected: notices between instances again'),
      })
    : new PollingFanOut(db, hub, pollMs);
  bus.setNotifier((seatId, events) => fanOut.notify(seatId, events));
  // A logout on this instance closes its sockets at once; one made by another instance or the
  // CLI moves the database's count of ended logins, read every half second: the sockets' tokens
  // are checked then (with or without Redis).
  auth.onRevoked(({ seatId, tokenHash }) => hub.expireTokens(seatId, tokenHash));
  auth.onRevocationsMoved(() => void checkTokens());

  await app.register(websocket, {
    options: { maxPayload: 4096 },
    // Shutting down: every socket is told to reconnect at once (to another instance) and resume.
    preClose: async () => {
      for (const client of app.websocketServer.clients) {
        client.close(PUSH_CLOSE.SERVICE_RESTART, 'server restarting');
      }
    },
  });

  // Another site's page is refused before the upgrade (403), so it never holds a socket.
  const socketRoute = {
    websocket: true,
    onRequest: checkOrigin(config.realtime.allowedOrigins ?? []),
  } as const;
  app.get(REALTIME_PATH, socketRoute, (socket) => {
    let conn: Connection | null = null;
    let hello = false;
    let closed = false;
    const timer = setTimeout(() => socket.close(4000, 'hello expected'), HELLO_TIMEOUT_MS);
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      if (conn) hub.leave(conn);
    });
    socket.on('pong', () => {
      if (conn) conn.alive = true;
    });
    socket.on('message', (raw) => {
      if (hello) return; // the client says nothing after its hello
      hello = true;
      clearTimeout(timer);
      void (async () => {
        let input;
        try {
          input = clientHello.parse(JSON.parse(String(raw)));
        } catch {
          const err = new AppError(ERROR_CODES.PARAMETER_ERROR);
          send(socket, { kind: 'error', code: err.code, msg: err.message });
          return socket.close(4000, 'bad hello');
        }
        let seatId: number;
        try {
          seatId = (await auth.authenticate(input.token)).seatId;
        } catch (err) {
          if (!(err instanceof AppError)) {
            const fault = helloFault(err);
            send(socket, fault.frame);
            return socket.close(fault.close, fault.reason);
          }
          send(socket, { kind: 'error', code: err.code, msg: err.message });
          return socket.close(4001, 'not signed in');
        }
        if (closed) return;
        const joined = await hub.join(
          { socket, seatId, tokenHash: hashToken(input.token) },
          input.last_event_id,
          heartbeatMs,
        );
        if (closed) hub.leave(joined);
        else conn = joined;
        // Seen as its socket opens, not only at the next heartbeat (up to one heartbeat later).
        if (!closed) await seatsRepository.touch(db, [seatId], Date.now());
      })().catch((err: unknown) => {
        app.log.error({ err }, 'push socket hello failed');
        socket.close(1011, 'server error');
      });
    });
  });

  let beat: NodeJS.Timeout | null = null;
  let checking = false;
  let checkAgain = false;
  // Closes the sockets whose token expired or was revoked. A check asked for while one runs
  // runs again after it: the revocation may have landed after that one read the tokens.
  const checkTokens = async (): Promise<void> => {
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = true;
    try {
      do {
        checkAgain = false;
        const conns = hub.connections();
        const valid = await auth.stillValid([...new Set(conns.map((c) => c.tokenHash))]);
        for (const conn of conns) if (!valid.has(conn.tokenHash)) hub.expire(conn);
      } while (checkAgain);
    } catch (err) {
      app.log.error({ err }, 'push token check failed');
    } finally {
      checking = false;
    }
  };
  const isLate = lateBeats(heartbeatMs);
  const heartbeat = async () => {
    // A late beat drops nobody: the pongs may be waiting unread behind a held loop.
    const late = isLate();
    const conns = hub.connections();
    for (const conn of conns) {
      if (!conn.alive && !late) {
        conn.socket.terminate();
        hub.leave(conn);
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
      send(conn.socket, { kind: 'ping', at: Date.now() });
    }
    await checkTokens();
  };

  app.addHook('onReady', async () => {
    await fanOut.start();
    beat = setInterval(() => void heartbeat(), heartbeatMs);
    beat.unref();
  });
  app.addHook('preClose', async () => {
    if (beat) clearInterval(beat);
    await hub.settle();
  });
  // After the requests in flight have finished: the events they record still reach the
  // consoles now on other instances.
  app.addHook('onClose', async () => fanOut.stop());
  return { hub, fanOut };
}

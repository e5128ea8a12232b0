import {
  ADMIN_OVERVIEW_DEBOUNCE_MS,
  ADMIN_PUSH_CLOSE,
  ADMIN_REALTIME_PATH,
  ERROR_CODES,
  adminClientHello,
  type AdminChangeScope,
  type AdminServerFrame,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { helloFault } from './hello-fault.js';
import { lateBeats } from './late-beat.js';
import { checkOrigin } from './origin.js';
import { AppError } from '../lib/app-error.js';
import type { AdminAuthService } from '../modules/admin/admin-auth.service.js';
import type { AdminConsoleService } from '../modules/admin/admin-console.service.js';
import type { AuditService } from '../modules/admin/audit.service.js';
import type { PushSocket } from './hub.js';
import type { RealtimeHub } from './hub.js';
import type { RecordingEventBus } from './recording-event-bus.js';

const HELLO_TIMEOUT_MS = 10_000;
/** How often the overview's fingerprint is read while an admin console is open (changes made by other processes and instances). */
export const ADMIN_POLL_MS = 2_000;
const OPEN = 1;

interface AdminConnection {
  socket: PushSocket;
  adminId: number;
  tokenHash: string;
  tzOffsetMin: number;
  alive: boolean;
}

function send(socket: PushSocket, frame: AdminServerFrame): void {
  if (socket.readyState === OPEN) socket.send(JSON.stringify(frame));
}

const SCOPES_OF: Record<string, AdminChangeScope[]> = {
  admin: ['audit'],
  seat: ['seats', 'audit'],
  account: ['accounts', 'seats', 'audit'],
  outbox: ['outbox', 'audit'],
  glossary: ['translation', 'audit'],
  engine_route: ['translation', 'audit'],
  label: ['labels', 'audit'],
};

export interface AdminRealtime {
  /** Something changed: a new overview (and these lists) go out, debounced. */
  poke(scopes?: AdminChangeScope[]): void;
  /** Sends what is pending now (tests). */
  flush(): Promise<void>;
  connections(): number;
}

/**
 * The admin push channel at ADMIN_REALTIME_PATH: hello (admin token) -> ready -> an overview
 * snapshot, then a new one whenever the numbers may have changed: at once (debounced) for
 * messages and deliveries recorded on this instance and admin actions, and within
 * ADMIN_POLL_MS for changes made elsewhere (the fingerprint moved). Lists changed: admin.changed.
 */
export function registerAdminRealtime(
  app: FastifyInstance,
  config: Config,
  deps: {
    adminAuth: AdminAuthService;
    adminConsole: AdminConsoleService;
    audit: AuditService;
    bus: RecordingEventBus;
    hub: RealtimeHub;
  },
): AdminRealtime {
  const { adminAuth, adminConsole, audit, bus, hub } = deps;
  const heartbeatMs = config.realtime.heartbeatMs;
  const conns = new Set<AdminConnection>();
  adminConsole.setPresence(() => new Set(hub.seatIds()), heartbeatMs);

  let timer: NodeJS.Timeout | null = null;
  let pendingScopes = new Set<AdminChangeScope>();
  let overviewDue = false;
  let sending: Promise<void> = Promise.resolve();
  let lastFingerprint = '';
  let lastTeamsPrint = '';

  const sendNow = async () => {
    timer = null;
    const scopes = [...pendingScopes];
    pendingScopes = new Set();
    const withOverview = overviewDue;
    overviewDue = false;
    if (conns.size === 0) return;
    const at = Date.now();
    if (scopes.length) {
      for (const c of conns)
        send(c.socket, { kind: 'event', type: 'admin.changed', data: { scopes }, at });
    }
    if (withOverview) {
      const byTz = new Map<number, AdminConnection[]>();
      for (const c of conns) byTz.set(c.tzOffsetMin, [...(byTz.get(c.tzOffsetMin) ?? []), c]);
      for (const [tz, list] of byTz) {
        const data = await adminConsole.overview(tz);
        for (const c of list)
          send(c.socket, { kind: 'event', type: 'admin.overview', data, at: data.at });
      }
    }
  };
  const schedule = () => {
    if (timer || conns.size === 0) return;
    timer = setTimeout(() => {
      sending = sending
        .then(sendNow)
        .catch((err: unknown) => app.log.error({ err }, 'admin push failed'));
    }, ADMIN_OVERVIEW_DEBOUNCE_MS);
    timer.unref();
  };
  const poke = (scopes: AdminChangeScope[] = []) => {
    overviewDue = true;
    scopes.forEach((s) => pendingScopes.add(s));
    schedule();
  };

  // A team's queue or assignment changed (team.* events): the owner's team view and the
  // accounts list (its chats) are refetched, live.
  bus.watch((_seatId, events) =>
    poke(events?.some((e) => e.type.startsWith('team.')) ? ['accounts'] : []),
  );
  audit.onRecorded((targetType) => poke(SCOPES_OF[targetType] ?? ['audit']));
  adminAuth.onRevoked((adminId, tokenHash) => {
    for (const c of [...conns]) {
      if (c.adminId === adminId && (tokenHash === null || c.tokenHash === tokenHash)) expire(c);
    }
  });

  function expire(c: AdminConnection) {
    const err = new AppError(ERROR_CODES.TOKEN_EXPIRED);
    send(c.socket, { kind: 'error', code: err.code, msg: err.message });
    c.socket.close(ADMIN_PUSH_CLOSE.TOKEN_EXPIRED, 'token expired');
    conns.delete(c);
  }

  // Another site's page is refused before the upgrade (403), so it never holds a socket.
  const socketRoute = {
    websocket: true,
    onRequest: checkOrigin(config.realtime.allowedOrigins ?? []),
  } as const;
  app.get(ADMIN_REALTIME_PATH, socketRoute, (socket) => {
    let conn: AdminConnection | null = null;
    let hello = false;
    let closed = false;
    const helloTimer = setTimeout(
      () => socket.close(ADMIN_PUSH_CLOSE.BAD_HELLO, 'hello expected'),
      HELLO_TIMEOUT_MS,
    );
    socket.on('close', () => {
      closed = true;
      clearTimeout(helloTimer);
      if (conn) conns.delete(conn);
    });
    socket.on('pong', () => {
      if (conn) conn.alive = true;
    });
    socket.on('message', (raw) => {
      if (hello) return;
      hello = true;
      clearTimeout(helloTimer);
      void (async () => {
        let input;
        try {
          input = adminClientHello.parse(JSON.parse(String(raw)));
        } catch {
          const err = new AppError(ERROR_CODES.PARAMETER_ERROR);
          send(socket, { kind: 'error', code: err.code, msg: err.message });
          return socket.close(ADMIN_PUSH_CLOSE.BAD_HELLO, 'bad hello');
        }
        let admin;
        try {
          admin = await adminAuth.authenticate(input.token);
        } catch (err) {
          if (!(err instanceof AppError)) {
            const fault = helloFault(err);
            send(socket, fault.frame);
            return socket.close(fault.close, fault.reason);
          }
          send(socket, { kind: 'error', code: err.code, msg: err.message });
          return socket.close(ADMIN_PUSH_CLOSE.TOKEN_EXPIRED, 'not signed in');
        }
        if (closed) return;
        // Joined before anything is sent, so a logout from now on closes it.
        const joined: AdminConnection = {
          socket,
          adminId: admin.adminId,
          tokenHash: admin.tokenHash,
          tzOffsetMin: input.tz_offset_min,
          alive: true,
        };
        conn = joined;
        conns.add(joined);
        send(socket, { kind: 'ready', heartbeat_ms: heartbeatMs });
        const data = await adminConsole.overview(input.tz_offset_min);
        if (closed || !conns.has(joined)) return;
        send(socket, { kind: 'event', type: 'admin.overview', data, at: data.at });
        // A logout while the token was being checked found no socket to close: check again.
        const valid = await adminAuth.stillValid([joined.tokenHash]);
        if (!valid.has(joined.tokenHash) && conns.has(joined)) expire(joined);
      })().catch((err: unknown) => {
        app.log.error({ err }, 'admin push socket hello failed');
        socket.close(1011, 'server error');
      });
    });
  });

  // Changes made by other processes (the CLI) and instances: the fingerprint moves.
  let polling = false;
  const poll = async () => {
    if (polling || conns.size === 0) return;
    polling = true;
    try {
      const print = `${await adminConsole.fingerprint()}|${hub.seatIds().sort().join(',')}`;
      // Teams changed on another instance: their view too.
      const teams = await adminConsole.teamsFingerprint();
      const teamsMoved = lastTeamsPrint !== '' && teams !== lastTeamsPrint;
      lastTeamsPrint = teams;
      if (print !== lastFingerprint) {
        if (lastFingerprint !== '') poke(teamsMoved ? ['accounts'] : []);
        lastFingerprint = print;
      } else if (teamsMoved) poke(['accounts']);
    } catch (err) {
      app.log.error({ err }, 'admin overview poll failed');
    } finally {
      polling = false;
    }
  };
  let checking = false;
  const isLate = lateBeats(heartbeatMs);
  const heartbeat = async () => {
    // A late beat drops nobody: the pongs may be waiting unread behind a held loop.
    const late = isLate();
    for (const c of [...conns]) {
      if (!c.alive && !late) {
        c.socket.terminate();
        conns.delete(c);
        continue;
      }
      c.alive = false;
      c.socket.ping();
      send(c.socket, { kind: 'ping', at: Date.now() });
    }
    // After the pings: a write waiting for the database never holds the verdict back into
    // the next beat, which would judge the ping just sent.
    await adminConsole
      .markSeen(hub.seatIds())
      .catch((err: unknown) => app.log.error({ err }, 'seat presence failed'));
    if (checking || conns.size === 0) return;
    checking = true;
    try {
      const list = [...conns];
      const valid = await adminAuth.stillValid([...new Set(list.map((c) => c.tokenHash))]);
      for (const c of list) if (!valid.has(c.tokenHash)) expire(c);
    } catch (err) {
      app.log.error({ err }, 'admin push token check failed');
    } finally {
      checking = false;
    }
  };
  let pollTimer: NodeJS.Timeout | null = null;
  let beat: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    pollTimer = setInterval(() => void poll(), ADMIN_POLL_MS);
    pollTimer.unref();
    beat = setInterval(() => void heartbeat(), heartbeatMs);
    beat.unref();
  });
  app.addHook('preClose', async () => {
    if (pollTimer) clearInterval(pollTimer);
    if (beat) clearInterval(beat);
    if (timer) clearTimeout(timer);
    await sending;
  });

  return {
    poke,
    async flush() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
        sending = sending.then(sendNow);
      }
      await sending;
    },
    connections: () => conns.size,
  };
}

import { createHash, timingSafeEqual } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHANNEL_NAMES, ERROR_CODES, type CallPath } from '@parley/protocol';
import type { DatabaseHandle } from '../db/database.js';
import { metricsRepository } from '../metrics/metrics.repository.js';
import { sharedRead, type ParleyMetrics } from '../metrics/metrics.js';
import type { RealtimeHub } from '../realtime/hub.js';
import { sendCoded } from './errors.js';
import { envelopeCodeOf } from './request-log.js';

export const METRICS_PATH = '/metrics';
const LOGIN: CallPath = '/v1/seat/chat/login';
const LOGIN_FAILURES: Record<string, string> = {
  [ERROR_CODES.PASSWORD_ERROR]: 'password',
  [ERROR_CODES.USER_NOT_FOUND]: 'unknown_account',
  [ERROR_CODES.ACCOUNT_FROZEN]: 'frozen',
};

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Bearer token check in constant time (both sides hashed first: equal lengths). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/**
 * Times every answer by route pattern and result code, and counts refused logins (read off
 * the login call's code, so the auth service stays as it is).
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: ParleyMetrics) {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const code = envelopeCodeOf(reply) ?? String(reply.statusCode);
    metrics.requestDuration.observe(
      { method: request.method, route, code },
      reply.elapsedTime / 1000,
    );
    if (route !== LOGIN) return;
    const reason = LOGIN_FAILURES[code];
    if (reason) metrics.loginFailures.inc({ reason });
    else if (code === ERROR_CODES.OPERATION_LIMIT) metrics.loginThrottled.inc();
  });
}

/** Each event frame sent: counted, and a debug line with the request that caused it. */
export function observePushes(
  hub: RealtimeHub,
  log: FastifyBaseLogger,
  metrics: ParleyMetrics | null,
) {
  hub.onSent = (event) => {
    metrics?.pushEventsSent.inc({ type: event.type });
    const reqId = event.request_id ?? undefined;
    log.debug(
      { reqId, seat: event.seat_id, event: event.seq, type: event.type },
      'push event sent',
    );
  };
}

/**
 * GET /metrics in Prometheus' text format, for the bearer token PARLEY_METRICS_TOKEN only
 * (docs/decisions/2026-11-24-operations.md); the states are read here, at scrape time.
 * Without a token the path is off: a coded 404, not the web app's page.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: ParleyMetrics | null,
  token: string | null,
  sources: { database: DatabaseHandle; hub: RealtimeHub },
) {
  if (!metrics || !token) {
    app.get(METRICS_PATH, async (_request, reply) =>
      sendCoded(reply, ERROR_CODES.ROUTE_NOT_FOUND, undefined, null, 404),
    );
    return;
  }
  const { database, hub } = sources;
  metrics.gauge('push_sockets_open', 'Push sockets signed in on this instance', [], function () {
    this.set(hub.connections().length);
  });

  const backlog = sharedRead(() => metricsRepository.outboxBacklog(database.db));
  const byChannel = (
    status: 'pending' | 'failed',
    value: (row: { items: number; oldest: number | null }) => number,
  ) =>
    async function (this: { set(labels: { channel: string }, v: number): void }) {
      const rows = await backlog();
      for (const channel of new Set([...CHANNEL_NAMES, ...rows.map((r) => r.channel)])) {
        const row = rows.find((r) => r.channel === channel && r.status === status);
        this.set({ channel }, row ? value(row) : 0);
      }
    };
  metrics.gauge(
    'outbox_pending',
    'Outbox items waiting for delivery, by channel',
    ['channel'],
    byChannel('pending', (r) => r.items),
  );
  metrics.gauge(
    'outbox_failed',
    'Outbox items given up (attempts exhausted or refused), by channel',
    ['channel'],
    byChannel('failed', (r) => r.items),
  );
  metrics.gauge(
    'outbox_oldest_pending_age_seconds',
    'Age of the oldest outbox item still waiting, by channel (0: none waiting)',
    ['channel'],
    byChannel('pending', (r) => (r.oldest === null ? 0 : (Date.now() - r.oldest) / 1000)),
  );

  // Read as the scrape begins: the scrape's own queries (the outbox gauges) queue for a
  // connection while the gauges are collected, and an idle server would show one waiting.
  const pool = database.poolStats;
  let poolAtScrape = pool?.() ?? null;
  if (pool) {
    metrics.gauge(
      'db_pool_connections',
      'PostgreSQL pool connections by state (total, idle, waiting: requests queued for one)',
      ['state'],
      function () {
        const now = poolAtScrape ?? pool();
        this.set({ state: 'total' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
      },
    );
  }
  const file = database.file;
  if (file) {
    metrics.gauge(
      'sqlite_wal_bytes',
      'Size of the SQLite write-ahead log (grows while a reader holds back checkpoints)',
      [],
      async function () {
        this.set(
          await stat(`${file}-wal`).then(
            (s) => s.size,
            () => 0,
          ),
        );
      },
    );
  }

  app.get(METRICS_PATH, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer');
      return sendCoded(reply, ERROR_CODES.TOKEN_EXPIRED, 'Metrics token required', null, 401);
    }
    poolAtScrape = pool?.() ?? null;
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}

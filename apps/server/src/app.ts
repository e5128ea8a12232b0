import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { BatchSender } from './jobs/batch-sender.js';
import { CHANNEL_MODULES, type ChannelJobs } from './channels/registry.js';
import { OutboxWorker } from './jobs/outbox-worker.js';
import { LISTEN_TEXT } from './start-banner.js';
import { EventsPruner } from './jobs/events-pruner.js';
import { registerRealtime, type Realtime } from './realtime/realtime.routes.js';
import { RecordingEventBus } from './realtime/recording-event-bus.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { mutesRoutes } from './modules/mutes/mutes.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { labelsRoutes } from './modules/labels/labels.routes.js';
import { ListVersionFeed } from './lib/list-version-feed.js';
import { watchListChanges } from './lib/sqlite-list-changes.js';
import { listVersionsRepository } from './modules/sessions/list-versions.repository.js';
import { addressBookRoutes } from './modules/address-book/address-book.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { batchesRoutes } from './modules/batches/batches.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { quickRepliesRoutes } from './modules/quick-replies/quick-replies.routes.js';
import { notImplementedRoutes } from './modules/not-implemented/not-implemented.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { translationRoutes } from './modules/translation/translation.routes.js';
import { CallRegistry } from './plugins/calls.js';
import { AdminCallRegistry } from './plugins/admin-calls.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { adminExportRoutes } from './modules/admin/admin-export.routes.js';
import { registerAdminRealtime, type AdminRealtime } from './realtime/admin-realtime.js';
import { registerDb } from './plugins/db.js';
import { DatabaseAvailability, quietWhileDatabaseAway } from './db/availability.js';
import { RequestLog, registerRequestLog } from './plugins/request-log.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerRateLimit } from './plugins/rate-limit.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerHealth, type Health } from './plugins/health.js';
import { observePushes, registerMetricsRoute, registerRequestMetrics } from './plugins/metrics.js';
import { registerRequestId, requestIdGenerator } from './plugins/request-id.js';
import { ParleyMetrics } from './metrics/metrics.js';
import { registerApiDocs } from './plugins/api-docs.js';
import { registerLoadLog } from './plugins/load-log.js';
import { registerStatic } from './plugins/static.js';
import { createServices, type Services } from './services.js';
import { autoLoadDemo } from './demo/auto-load.js';
import type { DemoResult } from './demo/demo.js';

export interface ParleyContext {
  config: Config;
  database: DatabaseHandle;
  services: Services;
  /** Background jobs of this instance (tests stop and start them to stage a crash). */
  jobs: {
    batchSender: BatchSender;
    outboxWorker: OutboxWorker;
    eventsPruner: EventsPruner;
  } & ChannelJobs;
  /** This instance's push sockets and fan-out. */
  realtime: Realtime;
  /** The admin console's push sockets. */
  adminRealtime: AdminRealtime;
  /** What the start did about the demo workspace (buildApp's `autoLoadDemo`). */
  demo: DemoResult;
  /** The health check's state (main drains it on SIGTERM). */
  health: Health;
  /** Prometheus metrics; null when PARLEY_METRICS_TOKEN is not set (nothing is collected). */
  metrics: ParleyMetrics | null;
}

export interface BuildOptions {
  /**
   * Load the demo workspace as PARLEY_DEMO says (demo/auto-load.ts) before the services are
   * made: the customer sandbox is on with it. `main` asks for it; tests load it themselves.
   */
  autoLoadDemo?: boolean;
  /** Where JSON log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database and services behind the routes (used by main, the demo and tests). */
    parley: ParleyContext;
  }
}

/** The CLI command that makes an administrator (README, "Admin CLI"). */
export const ADMIN_CREATE_COMMAND =
  "npm run parley -- admin:create <account> --password '<password>' (in the container: node apps/server/dist/cli/main.js admin:create …)";

/** Starts listening as configured (main; tests that need a real socket). Answers the address. */
export function listen(app: FastifyInstance, config: Config): Promise<string> {
  return app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
}

export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      hooks: {
        // Fastify says "Server listening at" once per network interface: at debug; the start
        // banner (main.ts) says where Parley listens, once.
        logMethod(args, method, level) {
          const quiet =
            level === 30 && typeof args[0] === 'string' && args[0].startsWith(LISTEN_TEXT);
          if (quiet) return this.debug(args[0] as string);
          return method.apply(this, args);
        },
      },
      ...(options.logStream && { stream: options.logStream }),
      ...(config.logFormat === 'pretty' && !options.logStream
        ? {
            transport: {
              target: 'pino-pretty',
              // The request line already says it all in its message.
              options: {
                translateTime: 'HH:MM:ss',
                ignore: 'pid,hostname,reqId,method,path,status,code,ms',
              },
            },
          }
        : {}),
    },
    // One line per request instead of two (plugins/request-log.ts).
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    // X-Request-Id from a trusted proxy, else a UUID; echoed and logged (plugins/request-id.ts).
    genReqId: requestIdGenerator(config.trustProxy),
    // Large enough for a 4096-character message with room to spare.
    bodyLimit: 1024 * 1024,
    // While closing, requests are refused by the health plugin with the coded 503 envelope.
    return503OnClosing: false,
  });

  // Order matters and is kept visible: errors, health (its drain hook covers every route),
  // request id, request log, metrics, security headers, rate limits, db, the demo, services,
  // auth + calls, media, the API document, static.
  const faults = registerErrorHandling(app);
  const health = registerHealth(app);
  registerRequestId(app);
  registerRequestLog(app);
  const metrics = config.ops.metricsToken ? new ParleyMetrics() : null;
  if (metrics) registerRequestMetrics(app, metrics);
  await registerSecurityHeaders(app);
  await registerRateLimit(app);
  const database = await registerDb(app, config);
  // PostgreSQL away (stopped, restarted, its connections cut): calls answer 500005, the health
  // check 503, and service resumes with the first connection that opens again.
  const availability = new DatabaseAvailability(database.db, app.log);
  faults.database = availability;
  health.watchDatabase(availability);
  database.onConnectionError((err) => availability.failed(err));
  app.addHook('preClose', async () => availability.stop());
  const jobLog = quietWhileDatabaseAway(app.log, availability);
  const demo = options.autoLoadDemo
    ? await autoLoadDemo(config, database)
    : { loaded: false, sessions: 0, messages: 0 };
  const bus = new RecordingEventBus();
  const services = await createServices(
    database.db,
    config,
    app.log,
    bus,
    metrics?.translationMeter() ?? null,
  );
  // A server's start (main): an install upgraded from before the admin console, or one whose
  // demo was never loaded, has no administrator; nothing else would say how to make one.
  if (options.autoLoadDemo && (await services.adminAuth.count()) === 0) {
    app.log.warn(
      { command: ADMIN_CREATE_COMMAND },
      `no administrator yet: create one for the admin console (/admin) with ${ADMIN_CREATE_COMMAND}`,
    );
  }
  const calls = new CallRegistry(app, services.auth, config.rateLimit.public);
  authRoutes(calls, services.auth);
  groupsRoutes(calls, services.groups);
  sessionsRoutes(calls, services.sessions);
  messagesRoutes(calls, services.messages);
  quickRepliesRoutes(calls, services.quickReplies);
  batchesRoutes(calls, services.batches);
  translationRoutes(calls, services.translation);
  await mediaRoutes(app, services.auth, services.media);
  searchRoutes(calls, services.search);
  addressBookRoutes(calls, services.addressBook);
  pushRoutes(calls, services.push);
  mutesRoutes(calls, services.mutes);
  teamsRoutes(calls, services.teams, services.teamPresence);
  labelsRoutes(calls, services.labels);
  // Customers' messages notified to the seats' devices once committed, off the request.
  bus.watch((seatId, events) => services.push.committed(seatId, events));
  app.addHook('preClose', async () => services.push.idle());
  const adminCalls = new AdminCallRegistry(app, services.adminAuth, config.rateLimit.public);
  // Each channel: its inbound routes or polling, its calls, its outbound adapter, its jobs.
  const channelJobs: Record<string, unknown> = {};
  for (const channel of CHANNEL_MODULES) {
    const mount = { app, config, db: database.db, calls, adminCalls, services, own: services };
    Object.assign(channelJobs, await channel.mount(mount as never));
  }
  notImplementedRoutes(calls);
  adminRoutes(adminCalls, services);
  adminExportRoutes(app, services);
  const realtime = await registerRealtime(app, config, database.db, services.auth, bus);
  // A seat's event (from here or another instance) means its lists changed: its next list read
  // asks the database before the console that got the event refetches. So does any other call
  // of the seat here (some change a chat without an event, e.g. a detected customer language):
  // a console reads its own writes whatever the database's notice takes.
  realtime.hub.onNotified = (seatId) => services.listVersions.changed(seatId);
  // Who is looking at a team chat: ephemeral frames, across instances as events' notices go.
  services.teamPresence.transmit = (seatIds, frame) => realtime.fanOut.ephemeral(seatIds, frame);
  calls.onCalled = (seatId) => services.listVersions.changed(seatId);
  // Presence writes are left to run (never awaited by a request); the last ones end before
  // the database closes.
  services.auth.presence.onError = (err) => app.log.error({ err }, 'seat presence failed');
  app.addHook('preClose', () => services.auth.presence.settled());
  if (database.sqlite) watchListChanges(database.sqlite, services.listVersions);
  if (database.dialect === 'pg' && config.databaseUrl) {
    const feed = new ListVersionFeed(
      { connectionString: config.databaseUrl, schema: config.pgSchema },
      services.listVersions,
      (payload) => listVersionsRepository.announce(database.db, payload),
      (err) => jobLog.warn({ err }, 'list version feed'),
    );
    app.addHook('onReady', async () => feed.start());
    app.addHook('preClose', async () => feed.stop());
  }
  const adminRealtime = registerAdminRealtime(app, config, { ...services, bus, hub: realtime.hub });
  observePushes(realtime.hub, app.log, metrics);
  services.media.health.log = app.log;
  if (metrics) services.media.health.observe(metrics);
  if (metrics) services.inbound.observe(metrics);
  registerMetricsRoute(app, metrics, config.ops.metricsToken, { database, hub: realtime.hub });
  await registerApiDocs(app);
  registerLoadLog(app, database, realtime.hub);
  await registerStatic(app, config);

  // Cached tokens are trusted while the count of ended logins is read every half second.
  let stopRevocationChecks: () => void = () => undefined;
  app.addHook('onReady', async () => {
    await services.auth.checkRevocations();
    stopRevocationChecks = services.auth.startRevocationChecks((err) =>
      jobLog.warn({ err }, 'token revocation check'),
    );
  });
  app.addHook('preClose', async () => stopRevocationChecks());

  // Background jobs: started once the app is ready, stopped before the database closes.
  const batchSender = new BatchSender(database.db, services.messages, {
    ratePerSecond: config.batchRatePerSecond,
    log: jobLog,
    events: services.events,
  });
  const eventsPruner = new EventsPruner(database.db, config.realtime.retentionHours, jobLog);
  app.addHook('onReady', async () => eventsPruner.start());
  app.addHook('preClose', async () => eventsPruner.stop());
  services.batches.onCreated(() => batchSender.wake());
  app.addHook('onReady', async () => batchSender.start());
  app.addHook('preClose', async () => batchSender.stop());

  // Outbound delivery: one adapter per channel (registered by its mount); on every instance.
  const outboxWorker = new OutboxWorker(
    database.db,
    services.channels,
    services.media,
    services.events,
    {
      dialect: config.databaseUrl ? 'pg' : 'sqlite',
      maxAttempts: config.platform.maxAttempts,
      retryBaseMs: config.platform.retryBaseMs,
      leaseMs: config.platform.leaseMs,
      log: jobLog,
      onResult: (channel, result) => metrics?.outboxDeliveries.inc({ channel, result }),
    },
  );
  services.outbox.onEnqueued(() => outboxWorker.wake());
  app.addHook('onReady', async () => outboxWorker.start());
  // Half the shutdown's time for deliveries in flight; then they are handed to other instances.
  app.addHook('preClose', async () => outboxWorker.stopWithin(config.ops.shutdownTimeoutMs / 2));

  app.decorate('parley', {
    config,
    database,
    services,
    jobs: {
      batchSender,
      outboxWorker,
      eventsPruner,
      ...(channelJobs as ChannelJobs),
    },
    realtime,
    adminRealtime,
    demo,
    health,
    metrics,
  });
  return app;
}

import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { addressBookRoutes } from './modules/address-book/address-book.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { quickRepliesRoutes } from './modules/quick-replies/quick-replies.routes.js';
import { notImplementedRoutes } from './modules/not-implemented/not-implemented.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { CallRegistry } from './plugins/calls.js';
import { registerDb } from './plugins/db.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerHealth } from './plugins/health.js';
import { registerStatic } from './plugins/static.js';
import { createServices, type Services } from './services.js';

export interface ParleyContext {
  config: Config;
  database: DatabaseHandle;
  services: Services;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database and services behind the routes (used by main, the demo and tests). */
    parley: ParleyContext;
  }
}

export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(config.logPretty
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
            },
          }
        : {}),
    },
    // Large enough for a 4096-character message with room to spare.
    bodyLimit: 1024 * 1024,
  });

  // Order matters and is kept visible: errors, db, services, auth + calls, health, static.
  registerErrorHandling(app);
  const database = await registerDb(app, config);
  const services = createServices(database.db, config);
  const calls = new CallRegistry(app, services.auth);
  authRoutes(calls, services.auth);
  groupsRoutes(calls, services.groups);
  sessionsRoutes(calls, services.sessions);
  messagesRoutes(calls, services.messages);
  quickRepliesRoutes(calls, services.quickReplies);
  searchRoutes(calls, services.search);
  addressBookRoutes(calls, services.addressBook);
  notImplementedRoutes(calls);
  registerHealth(app);
  await registerStatic(app, config);

  app.decorate('parley', { config, database, services });
  return app;
}

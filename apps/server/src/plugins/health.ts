import type { FastifyInstance } from 'fastify';
import type { DatabaseAvailability } from '../db/availability.js';

export interface Health {
  /** SIGTERM: the health check answers 503 from now on, so a load balancer stops sending here. */
  startDraining(): void;
  readonly draining: boolean;
  /** From now on the check asks the database too (503 "database unavailable" when away). */
  watchDatabase(database: DatabaseAvailability): void;
}

export function registerHealth(app: FastifyInstance): Health {
  let draining = false;
  // Requests still in flight when draining starts answer with `Connection: close`: a keep-alive
  // connection left idle after the close began would otherwise hold the server open.
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
    get draining() {
      return draining;
    },
  };
}

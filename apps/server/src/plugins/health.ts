import type { FastifyInstance } from 'fastify';

export interface Health {
  /** SIGTERM: the health check answers 503 from now on, so a load balancer stops sending here. */
  startDraining(): void;
  readonly draining: boolean;
}

export function registerHealth(app: FastifyInstance): Health {
  let draining = false;
  // Requests still in flight when draining starts answer with `Connection: close`: a keep-alive
  // connection left idle after the close began would otherwise hold the server open.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  app.get('/healthz', async (_request, reply) =>
    draining ? reply.status(503).send({ status: 'draining' }) : { status: 'ok' },
  );
  return {
    startDraining: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}

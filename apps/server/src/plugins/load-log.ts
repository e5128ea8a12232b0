import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database.js';
import type { RealtimeHub } from '../realtime/hub.js';

const EVERY_MS = 10_000;

/**
 * At `LOG_LEVEL=debug`, a `load` line every 10 s: the event loop's delay (p50, p99, max, ms),
 * the PostgreSQL pool (open, idle, requests waiting for a connection) and the push sockets.
 * What a queue inside the server looks like from its own side, without an endpoint for it
 * (bench/operators.mjs reads it with --server-env LOG_LEVEL=debug --server-log <dir>).
 */
export function registerLoadLog(app: FastifyInstance, database: DatabaseHandle, hub: RealtimeHub) {
  if (app.log.level !== 'debug' && app.log.level !== 'trace') return;
  const RESOLUTION_MS = 10;
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  // The histogram holds the time between its timer's runs: the resolution plus the delay.
  const ms = (ns: number) => Math.max(0, Math.round(ns / 1e5) / 10 - RESOLUTION_MS);
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    delay.enable();
    timer = setInterval(() => {
      app.log.debug(
        {
          eventLoopDelayMs: {
            p50: ms(delay.percentile(50)),
            p99: ms(delay.percentile(99)),
            max: ms(delay.max),
          },
          pgPool: database.poolStats?.() ?? null,
          pushSockets: hub.connections().length,
        },
        'load',
      );
      delay.reset();
    }, EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    delay.disable();
  });
}

import type { ChannelName } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { CallRegistry } from '../plugins/calls.js';
import type { Services } from '../services.js';

/** What a channel's folder is handed where the app is wired (app.ts, once per channel). */
export interface ChannelMountContext {
  app: FastifyInstance;
  config: Config;
  db: Db;
  /** The seat calls (a channel's own /v1/seat/... calls). */
  calls: CallRegistry;
  services: Services;
}

/**
 * A channel: its folder under channels/ and one line in channels/registry.ts. `mount` adds
 * its inbound routes or polling, registers its outbound adapter (delivery and receipts,
 * credentials, whether it can open a chat) and starts and stops its jobs with the app; it
 * answers the jobs tests may reach (app.parley.jobs).
 */
export interface ChannelModule {
  readonly name: ChannelName;
  mount(ctx: ChannelMountContext): Promise<Record<string, unknown>>;
}

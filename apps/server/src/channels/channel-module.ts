import type { ChannelName } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import type { AdminAuthService } from '../modules/admin/admin-auth.service.js';
import type { AdminConsoleService } from '../modules/admin/admin-console.service.js';
import type { AuditService } from '../modules/admin/audit.service.js';
import type { SeatEvents } from '../modules/events/seat-events.js';
import type { MediaService } from '../modules/media/media.service.js';
import type { ChatRead, MessagesService } from '../modules/messages/messages.service.js';
import type { CliIo } from '../lib/cli-args.js';
import type { AdminCallRegistry } from '../plugins/admin-calls.js';
import type { CallRegistry } from '../plugins/calls.js';
import type { ChannelRegistry } from './adapter-registry.js';
import type { InboundWriter } from '../modules/messages/inbound-writer.js';

/** The modules' services a channel builds on (services.ts hands them over). */
export interface SharedServices {
  messages: MessagesService;
  /** Customers' messages, many to one commit (the writer for this database). */
  inbound: InboundWriter;
  media: MediaService;
  events: SeatEvents;
  audit: AuditService;
  accounts: AccountsService;
  adminAuth: AdminAuthService;
  adminConsole: AdminConsoleService;
  /** The outbound adapters by channel: a channel's mount registers its own. */
  channels: ChannelRegistry;
}

/** What a channel is handed to make its services (services.ts, once per channel). */
export interface ChannelSetup {
  db: Db;
  config: Config;
  services: SharedServices;
}

/** What a channel's optional hooks are handed (services.ts). */
export interface ChannelHookContext {
  db: Db;
  config: Config;
  /** Where a hook says what failed (absent in the CLI). */
  log: { warn(obj: object, msg: string): void };
}

/** What a channel is handed where the app is wired (app.ts, once per channel). */
export interface ChannelMountContext<S extends object> extends ChannelSetup {
  app: FastifyInstance;
  /** The seat calls (a channel's own /v1/seat/... calls). */
  calls: CallRegistry;
  /** The administrator's calls (a channel's own /v1/admin/... calls). */
  adminCalls: AdminCallRegistry;
  /** The services this channel's `create` made. */
  own: S;
}

/**
 * A channel's own commands of the admin CLI (bind its credentials, record what it knows of a
 * customer): `help` is its section of `parley --help`; a command throws UsageError or AppError
 * as the CLI's own do.
 */
export interface ChannelCli<S extends object> {
  help: string;
  commands: Record<string, (args: string[], own: S, io: CliIo) => Promise<void>>;
}

/**
 * A channel: its folder under channels/ and one line in channels/registry.ts.
 * - `create` makes its services from the shared ones (`prior`: those of the channels listed
 *   before it); they join the app's services under their keys (the CLI and tests reach them).
 * - `mount` adds its inbound routes or polling, its calls, registers its outbound adapter
 *   (delivery and receipts, credentials, whether it can open a chat), and starts and stops its
 *   jobs with the app; it answers those jobs (app.parley.jobs).
 * - `cli`: its commands of the admin CLI, if it has any.
 * - `chatRead`: what it does when an operator reads one of its chats, if anything.
 * What a channel can do otherwise (a reply window, "delete for everyone", a template greeting)
 * is its abilities in the protocol's CHANNELS: the modules ask those, never its name.
 */
export interface ChannelModule<
  S extends object = object,
  J extends object = object,
  Prior extends object = object,
> {
  readonly name: ChannelName;
  /** Absent: the channel has no services of its own for others (it makes what it needs in mount). */
  create?(setup: ChannelSetup, prior: Prior): Promise<S>;
  mount(ctx: ChannelMountContext<S>): Promise<J>;
  readonly cli?: ChannelCli<S>;
  /**
   * An operator opened one of this channel's chats with unread customer messages: told after
   * the commit and not awaited (a failure is the channel's to log), e.g. WhatsApp's read mark
   * (blue ticks). Only the chats of accounts on this channel come here.
   */
  chatRead?(chat: ChatRead, ctx: ChannelHookContext): Promise<void>;
}

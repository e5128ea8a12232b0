import type { Config } from './config.js';
import { dialectOf, type Db } from './db/database.js';
import { KnownVersions } from './lib/known-versions.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AddressBookService } from './modules/address-book/address-book.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BatchesService } from './modules/batches/batches.service.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { MediaUrls } from './modules/media/media-urls.js';
import { MediaService, resolveMediaSecret } from './modules/media/media.service.js';
import { BatchWriter } from './modules/messages/batch-writer.js';
import { GroupCommitWriter } from './modules/messages/group-commit-writer.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { QuickRepliesService } from './modules/quick-replies/quick-replies.service.js';
import { SearchService } from './modules/search/search.service.js';
import { SeatsService } from './modules/seats/seats.service.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import {
  TranslationService,
  type TranslationLog,
} from './modules/translation/translation.service.js';
import { createProviders } from './translation/engines.js';
import { meteredProvider, type TranslationMeter } from './translation/metered-provider.js';
import { LocalMediaStorage } from './modules/media/media-storage.js';
import { silentEventBus, type EventBus } from './modules/events/event-bus.js';
import { SeatEvents } from './modules/events/seat-events.js';
import { TelegramService } from './channels/telegram/telegram.service.js';
import { TelegramBotsService } from './channels/telegram/telegram-bots.service.js';
import { TelegramChannel } from './channels/telegram/telegram-channel.js';
import { TelegramCredentials } from './channels/telegram/telegram-credentials.js';
import { ChannelRegistry } from './channels/adapter-registry.js';
import { OutboxWriter } from './modules/outbox/outbox-writer.js';
import { PlatformService } from './channels/platform/platform.service.js';
import { SandboxService, sandboxEnabled } from './channels/sandbox/sandbox.service.js';
import { randomBytes } from 'node:crypto';
import { AuditService } from './modules/admin/audit.service.js';
import { AdminAuthService } from './modules/admin/admin-auth.service.js';
import { AdminConsoleService } from './modules/admin/admin-console.service.js';
import { AdminStatsService } from './modules/admin/admin-stats.service.js';
import { AdminExportService } from './modules/admin/admin-export.service.js';

/** Every service, wired once; the HTTP routes and the CLI use the same ones. */
export interface Services {
  auth: AuthService;
  seats: SeatsService;
  accounts: AccountsService;
  groups: GroupsService;
  sessions: SessionsService;
  messages: MessagesService;
  quickReplies: QuickRepliesService;
  batches: BatchesService;
  translation: TranslationService;
  media: MediaService;
  telegram: TelegramService;
  /** Binding phone accounts to Telegram bots (admin CLI). */
  telegramBots: TelegramBotsService;
  /** The 'telegram' ChannelAdapter (the outbox worker delivers through it). */
  telegramChannel: TelegramChannel;
  search: SearchService;
  addressBook: AddressBookService;
  /** The outbound adapter of each channel (app.ts registers them). */
  channels: ChannelRegistry;
  outbox: OutboxWriter;
  platform: PlatformService;
  /** The customer sandbox; null when off. */
  sandbox: SandboxService | null;
  /** The seats' list versions the list caches may trust without a query (PostgreSQL). */
  listVersions: KnownVersions;
  /** The events services publish (the batch sender publishes its progress through them). */
  events: SeatEvents;
  /** The audit log of administrator actions (console and CLI). */
  audit: AuditService;
  /** Administrators' logins (apart from seats'). */
  adminAuth: AdminAuthService;
  /** What the admin console reads, and the outbox retry. */
  adminConsole: AdminConsoleService;
  adminStats: AdminStatsService;
  adminExport: AdminExportService;
}

export async function createServices(
  db: Db,
  config: Config,
  log?: TranslationLog,
  bus: EventBus = silentEventBus,
  /** Counts the translation engines' work (metrics); none in the CLI. */
  translationMeter: TranslationMeter | null = null,
): Promise<Services> {
  // The URL secret may live in the database (shared by every instance): read it once here.
  const urls = new MediaUrls(await resolveMediaSecret(db, config));
  const events = new SeatEvents(bus, urls);
  const channels = new ChannelRegistry();
  const outbox = new OutboxWriter(channels);
  // Which seats' list versions this instance may trust unasked (fed on PostgreSQL by app.ts).
  const listVersions = new KnownVersions();
  const groups = new GroupsService(db, events, listVersions);
  const media = new MediaService(
    db,
    new LocalMediaStorage(config.mediaDir),
    urls,
    config.mediaMaxBytes,
  );
  // How operators' messages are written: chosen here once for this database (the services
  // never ask which one they run on).
  const writerParts = { media, events, outbox };
  const writer =
    dialectOf(db) === 'pg'
      ? new BatchWriter(db, writerParts)
      : new GroupCommitWriter(db, writerParts);
  const messages = new MessagesService(db, config, media, events, outbox, writer);
  const sandboxOn = await sandboxEnabled(db, config);
  // The sandbox signs its requests to the bridge; without a configured secret, one of its own.
  const platformSecret =
    config.platform.secret ?? (sandboxOn ? randomBytes(32).toString('hex') : null);
  const platform = new PlatformService(db, platformSecret, messages, media, events);
  // The sandbox plays the platform too when no platform URL is configured.
  const sandboxChannels =
    config.platform.url && config.platform.secret
      ? ['sandbox' as const]
      : ['sandbox' as const, 'platform' as const];
  const auth = new AuthService(db, config);
  const audit = new AuditService(db);
  const telegramBots = new TelegramBotsService(db, config.telegram, audit);
  const adminConsole = new AdminConsoleService(db, audit, events, outbox);
  const adminStats = new AdminStatsService(db);
  return {
    auth,
    seats: new SeatsService(db, auth.tokens, audit, (r) => auth.announceRevoked(r)),
    accounts: new AccountsService(db, audit, channels),
    groups,
    translation: new TranslationService(
      db,
      createProviders(config.translation).map((p) =>
        translationMeter ? meteredProvider(p, translationMeter) : p,
      ),
      log,
      events,
      translationMeter,
    ),
    sessions: new SessionsService(db, groups, urls, events, messages, listVersions, (...a) =>
      channels.canOpenChat(...a),
    ),
    listVersions,
    messages,
    quickReplies: new QuickRepliesService(db, media),
    media,
    telegram: new TelegramService(db, urls),
    telegramBots,
    telegramChannel: new TelegramChannel(
      db,
      config.telegram.apiUrl,
      new TelegramCredentials(telegramBots),
    ),
    batches: new BatchesService(db, media),
    search: new SearchService(db, urls),
    addressBook: new AddressBookService(db, urls),
    channels,
    outbox,
    platform,
    sandbox: sandboxOn
      ? new SandboxService(db, platformSecret!, platform, media, sandboxChannels)
      : null,
    events,
    audit,
    adminAuth: new AdminAuthService(db, config, audit),
    adminConsole,
    adminStats,
    adminExport: new AdminExportService(db, adminStats, adminConsole),
  };
}

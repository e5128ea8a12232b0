import type { Config } from './config.js';
import { dialectOf, sqliteFile, type Db } from './db/database.js';
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
import { BatchInboundWriter } from './modules/messages/batch-inbound-writer.js';
import { GroupCommitInboundWriter } from './modules/messages/group-commit-inbound-writer.js';
import type { InboundWriter } from './modules/messages/inbound-writer.js';
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
import { ChannelRegistry } from './channels/adapter-registry.js';
import { channelModule, createChannelServices, type ChannelServices } from './channels/registry.js';
import { OutboxWriter } from './modules/outbox/outbox-writer.js';
import { AuditService } from './modules/admin/audit.service.js';
import { EngineRoutesService } from './modules/translation/engine-routes.service.js';
import { GlossaryService } from './modules/translation/glossary.service.js';
import { AdminAuthService } from './modules/admin/admin-auth.service.js';
import { PushService, resolveVapidKeys } from './modules/push/push.service.js';
import { MutesService } from './modules/mutes/mutes.service.js';
import { PushEndpoints } from './modules/push/push-endpoint.js';
import type { TranslationLanguageCode } from '@parley/protocol';
import { AdminConsoleService } from './modules/admin/admin-console.service.js';
import { AdminStatsService } from './modules/admin/admin-stats.service.js';
import { AdminExportService } from './modules/admin/admin-export.service.js';
import { InProcessExportReader } from './modules/admin/export-reader.js';
import { WorkerExportReader } from './modules/admin/worker-export-reader.js';
import { PageInOneReader, VersionThenPageReader } from './modules/sessions/chat-list-reader.js';
import { TeamsService } from './modules/teams/teams.service.js';
import { LabelsService } from './modules/labels/labels.service.js';
import { TeamInboundWriter } from './modules/teams/team-inbound.js';
import { TeamReplyGuard } from './modules/teams/team-replies.js';
import { TeamPresenceService } from './modules/teams/team-presence.service.js';

/**
 * Every service, wired once; the HTTP routes and the CLI use the same ones: the modules' here,
 * and each channel's made by its folder (channels/registry.ts) from them.
 */
export type Services = CoreServices & ChannelServices;

/** The modules' services. */
export interface CoreServices {
  auth: AuthService;
  seats: SeatsService;
  accounts: AccountsService;
  groups: GroupsService;
  sessions: SessionsService;
  messages: MessagesService;
  quickReplies: QuickRepliesService;
  batches: BatchesService;
  translation: TranslationService;
  /** The workspace's glossary and the engines chosen per language pair (issue 36). */
  glossary: GlossaryService;
  engineRoutes: EngineRoutesService;
  media: MediaService;
  search: SearchService;
  addressBook: AddressBookService;
  /** The outbound adapter of each channel (each channel's mount registers its own). */
  channels: ChannelRegistry;
  outbox: OutboxWriter;
  /** Customers' messages into their chats, many to one commit (every channel's inbound side). */
  inbound: InboundWriter;
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
  /** Web Push: the seats' devices and the notification of customers' messages. */
  push: PushService;
  /** Muted chats (per seat): not notified. */
  mutes: MutesService;
  /** Team accounts: queues, assignment, hand-over, private notes (issue 35). */
  teams: TeamsService;
  teamPresence: TeamPresenceService;
  /** Labels the owner defines and members put on customers (issue 35). */
  labels: LabelsService;
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
  // Customers' messages likewise, every channel's through this one door: a batch's few
  // statements on PostgreSQL, message by message on SQLite (no round trips there).
  const dbInbound: InboundWriter =
    dialectOf(db) === 'pg'
      ? new BatchInboundWriter(db, media, events, log)
      : new GroupCommitInboundWriter(db, media, events, log);
  const audit = new AuditService(db);
  // Team accounts' messages find their chat's holder and are routed around that writer.
  const teams = new TeamsService(db, events, audit, urls);
  const inbound: InboundWriter = new TeamInboundWriter(dbInbound, teams);
  const silent = { warn: () => undefined };
  const messages = new MessagesService(
    db,
    config,
    media,
    events,
    outbox,
    writer,
    inbound,
    // A chat read is told to its channel's module (ChannelModule.chatRead), if it has one.
    async (channel, chat) =>
      channelModule(channel).chatRead?.(chat, { db, config, log: log ?? silent }),
  );
  messages.replyGuard = new TeamReplyGuard(db);
  const auth = new AuthService(db, config);
  const adminConsole = new AdminConsoleService(db, audit, events, outbox, channels);
  teams.setOnlineRule((seat) => adminConsole.onlineNow(seat));
  const adminStats = new AdminStatsService(db);
  const accounts = new AccountsService(db, audit, channels, events);
  const adminAuth = new AdminAuthService(db, config, audit);
  const providers = createProviders(config.translation).map((p) =>
    translationMeter ? meteredProvider(p, translationMeter) : p,
  );
  const glossary = new GlossaryService(db, audit, log);
  const engineRoutes = new EngineRoutesService(db, audit, providers);
  const translation = new TranslationService(
    db,
    providers,
    log,
    events,
    translationMeter,
    glossary,
    engineRoutes,
  );
  const push = new PushService(
    db,
    await resolveVapidKeys(db),
    new PushEndpoints(config.push),
    pushSubject(config.publicUrl),
    async (seatId, session, text, target) => {
      const source = (session.customer_language as TranslationLanguageCode | null) ?? 'auto';
      if (source === target) return null;
      const answer = await translation.translateTexts(seatId, {
        session_id: session.session_id,
        texts: [text],
        source_lang: source,
        target_lang: target,
        direction: 'incoming',
      });
      return answer.translations[0]?.text ?? null;
    },
    log,
  );
  auth.onRevoked((revocation) => {
    push.revoked(revocation).catch((err: unknown) => log?.warn({ err }, 'push subscriptions'));
  });
  const shared = {
    messages,
    inbound,
    media,
    events,
    audit,
    accounts,
    adminAuth,
    adminConsole,
    channels,
  };
  const core: CoreServices = {
    auth,
    seats: new SeatsService(
      db,
      auth.tokens,
      audit,
      (r) => auth.announceRevoked(r),
      (id) => teams.plainSeat(id),
    ),
    accounts,
    groups,
    translation,
    glossary,
    engineRoutes,
    sessions: new SessionsService(
      db,
      groups,
      urls,
      events,
      messages,
      // The chat list's page, total and version: one statement on PostgreSQL, the version
      // then the page on SQLite.
      dialectOf(db) === 'pg'
        ? new PageInOneReader(db, urls, listVersions)
        : new VersionThenPageReader(db, urls, listVersions),
      (...a) => channels.canOpenChat(...a),
      (...a) => channels.greeting(...a),
    ),
    listVersions,
    messages,
    quickReplies: new QuickRepliesService(db, media),
    media,
    batches: new BatchesService(db, media),
    search: new SearchService(db, urls),
    addressBook: new AddressBookService(db, urls),
    channels,
    outbox,
    inbound,
    events,
    audit,
    adminAuth,
    adminConsole,
    adminStats,
    adminExport: new AdminExportService(
      adminStats,
      adminConsole,
      // The large exports: read on this loop on PostgreSQL (the statements run in its
      // processes), in a worker thread of their own on SQLite (they would run on this loop).
      dialectOf(db) === 'pg'
        ? new InProcessExportReader(db)
        : new WorkerExportReader(sqliteFile(config)),
      config.exportsAtOnce,
    ),
    push,
    mutes: new MutesService(db, events),
    teams,
    teamPresence: new TeamPresenceService(teams),
    labels: new LabelsService(db, audit, events, teams),
  };
  return { ...core, ...(await createChannelServices({ db, config, services: shared })) };
}

/** VAPID's contact (RFC 8292): the server's https address, else a mailbox that names none. */
function pushSubject(publicUrl: string | null | undefined): string {
  if (publicUrl?.startsWith('https://') && !publicUrl.startsWith('https://localhost')) {
    return publicUrl;
  }
  return 'mailto:push@parley.invalid';
}

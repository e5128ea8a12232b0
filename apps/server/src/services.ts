import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AddressBookService } from './modules/address-book/address-book.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BatchesService } from './modules/batches/batches.service.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { MediaUrls } from './modules/media/media-urls.js';
import { MediaService, resolveMediaSecret } from './modules/media/media.service.js';
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
import { LocalMediaStorage } from './plugins/storage.js';
import { silentEventBus, type EventBus } from './realtime/event-bus.js';
import { SeatEvents } from './realtime/seat-events.js';
import { TelegramService } from './modules/telegram/telegram.service.js';
import { TelegramBotsService } from './modules/telegram/telegram-bots.service.js';
import { TelegramChannel } from './channels/telegram/telegram-channel.js';

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
  /** The events services publish (the batch sender publishes its progress through them). */
  events: SeatEvents;
}

export async function createServices(
  db: Db,
  config: Config,
  log?: TranslationLog,
  bus: EventBus = silentEventBus,
): Promise<Services> {
  const events = new SeatEvents(bus);
  const groups = new GroupsService(db, events);
  // The URL secret may live in the database (shared by every instance): read it once here.
  const urls = new MediaUrls(await resolveMediaSecret(db, config));
  const media = new MediaService(
    db,
    new LocalMediaStorage(config.mediaDir),
    urls,
    config.mediaMaxBytes,
  );
  return {
    auth: new AuthService(db, config),
    seats: new SeatsService(db),
    accounts: new AccountsService(db),
    groups,
    translation: new TranslationService(db, createProviders(config.translation), log, events),
    sessions: new SessionsService(db, groups, urls, events),
    messages: new MessagesService(db, config, media, events),
    quickReplies: new QuickRepliesService(db, media),
    media,
    telegram: new TelegramService(db, urls),
    telegramBots: new TelegramBotsService(db, config.telegram),
    telegramChannel: new TelegramChannel(db, config.telegram.apiUrl),
    batches: new BatchesService(db, media),
    search: new SearchService(db, config.databaseUrl ? 'pg' : 'sqlite', urls),
    addressBook: new AddressBookService(db),
    events,
  };
}

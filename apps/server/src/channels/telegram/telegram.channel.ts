import type { ChannelModule } from '../channel-module.js';
import { TelegramBotsService } from './telegram-bots.service.js';
import { TelegramChannel } from './telegram-channel.js';
import { TelegramCredentials } from './telegram-credentials.js';
import { TelegramInbound } from './telegram-inbound.js';
import { TelegramPoller } from './telegram-poller.js';
import { telegramRoutes } from './telegram.routes.js';
import { TelegramService } from './telegram.service.js';
import { telegramCli } from './telegram.cli.js';

export interface TelegramServices {
  /** The customers' Telegram profiles (the profile card; the CLI's tg:profile). */
  telegram: TelegramService;
  /** Binding phone accounts to Telegram bots (the console's setChannel, the CLI). */
  telegramBots: TelegramBotsService;
  /** The 'telegram' ChannelAdapter (the outbox worker delivers through it). */
  telegramChannel: TelegramChannel;
}

export interface TelegramJobs {
  telegramPoller: TelegramPoller;
}

/** Telegram bots: the customers' profiles call, a long-poll per bound bot in, the Bot API out. */
export const telegramChannel: ChannelModule<TelegramServices, TelegramJobs> = {
  name: 'telegram',
  async create({ db, config, services }) {
    const telegramBots = new TelegramBotsService(db, config.telegram, services.audit);
    const credentials = new TelegramCredentials(db, telegramBots);
    services.channels.holdCredentials(credentials);
    return {
      telegram: new TelegramService(db, services.media.urls),
      telegramBots,
      telegramChannel: new TelegramChannel(db, config.telegram.apiUrl, credentials),
    };
  },
  async mount({ app, config, db, calls, adminCalls, services, own }) {
    telegramRoutes(calls, own.telegram);
    // The console's poll state of an account's bot: its field of the account list.
    adminCalls.authed('/v1/admin/accounts/telegramStatus', async (input) => {
      const account = await services.accounts.require(input.account_id);
      return (await services.adminConsole.account(account.send_phone)).telegram;
    });
    // Customers' Telegram messages: one long-poll per bound bot, leased across instances.
    const telegramPoller = new TelegramPoller(
      db,
      config.telegram,
      new TelegramInbound(
        db,
        config.telegram.apiUrl,
        services.messages,
        services.inbound,
        services.media,
        app.log,
      ),
      app.log,
    );
    app.addHook('onReady', async () => telegramPoller.start());
    app.addHook('preClose', async () => telegramPoller.stop());
    services.channels.register(own.telegramChannel);
    return { telegramPoller };
  },
  cli: telegramCli,
};

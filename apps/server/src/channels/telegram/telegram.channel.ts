import type { ChannelModule } from '../channel-module.js';
import { TelegramInbound } from './telegram-inbound.js';
import { TelegramPoller } from './telegram-poller.js';
import { telegramRoutes } from './telegram.routes.js';

/** Telegram bots: the customers' profiles call, a long-poll per bound bot in, the Bot API out. */
export const telegramChannel: ChannelModule = {
  name: 'telegram',
  async mount({ app, config, db, calls, services }) {
    telegramRoutes(calls, services.telegram);
    // Customers' Telegram messages: one long-poll per bound bot, leased across instances.
    const telegramPoller = new TelegramPoller(
      db,
      config.telegram,
      new TelegramInbound(db, config.telegram.apiUrl, services.messages, services.media, app.log),
      app.log,
    );
    app.addHook('onReady', async () => telegramPoller.start());
    app.addHook('preClose', async () => telegramPoller.stop());
    services.channels.register(services.telegramChannel);
    return { telegramPoller };
  },
};

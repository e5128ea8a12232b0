import type { ChannelView } from '../../lib/channel-view';
import { lazyComponent } from '../../lib/lazy-component';
import { TelegramVia } from './components/telegram-via';

const admin = () => import('./components/telegram-admin');

/**
 * Telegram in the console (app/channels.ts lists it): the customer's Telegram profile on the
 * profile card; in the admin console the bot's poll state and its token. Each part's code is
 * fetched when first shown.
 */
export const telegramView: ChannelView = {
  ProfileRows: lazyComponent(
    async () => (await import('./components/telegram-profile-rows')).TelegramProfileRows,
  ),
  // A few words in the card's first lines: not worth a fetch.
  ProfileVia: TelegramVia,
  admin: {
    StatusBadge: lazyComponent(async () => (await admin()).TelegramStatusBadge),
    BoundPanel: lazyComponent(async () => (await admin()).TelegramBoundPanel),
    Credentials: lazyComponent(async () => (await admin()).TelegramCredentials),
    credentialFields: ['bot_token'],
    bindLabel: 'accounts.channel.bind',
    unbindNote: 'accounts.channel.unbindNote',
    unbindLabel: 'accounts.channel.unbind',
  },
};

import type { ChannelName } from '@parley/protocol';
import type { ChannelView } from '../lib/channel-view';
import { telegramView } from '../features/telegram/telegram.view';
import { whatsappView } from '../features/whatsapp/whatsapp.view';

/**
 * Every channel's view, one line per channel (its web folder's `<name>.view.ts`): what the
 * console and the admin console show of it. A `Record` over the protocol's names, so a channel
 * without its line does not compile. The only web file outside the channels' folders that
 * names them.
 */
export const CHANNEL_VIEWS: Record<ChannelName, ChannelView> = {
  platform: {},
  sandbox: {},
  telegram: telegramView,
  whatsapp: whatsappView,
};

/** The view of a channel by name (a newer server's unknown channel shows nothing of its own). */
export function channelView(channel: string | undefined): ChannelView {
  return (channel !== undefined && CHANNEL_VIEWS[channel as ChannelName]) || {};
}

/** A new chat's template greeting by the account's channel (the add-chat dialog's picker). */
export function templateGreeting(channel: string | undefined) {
  return channelView(channel).templateGreeting;
}

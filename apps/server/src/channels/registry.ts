import type { ChannelModule } from './channel-module.js';
import { platformChannel } from './platform/platform.channel.js';
import { sandboxChannel } from './sandbox/sandbox.channel.js';
import { telegramChannel } from './telegram/telegram.channel.js';
import { whatsappChannel } from './whatsapp/whatsapp.channel.js';

/**
 * Every channel, mounted in this order by app.ts (the sandbox after the platform: it plays the
 * platform when none is configured). Adding a channel: its folder, its name in the protocol's
 * CHANNELS, one line here (docs/ARCHITECTURE.md, "How to add a channel").
 */
export const CHANNEL_MODULES: readonly ChannelModule[] = [
  platformChannel,
  sandboxChannel,
  telegramChannel,
  whatsappChannel,
];

import type { ChannelName } from '@parley/protocol';
import type { ChannelModule, ChannelSetup } from './channel-module.js';
import { platformChannel } from './platform/platform.channel.js';
import { sandboxChannel } from './sandbox/sandbox.channel.js';
import { telegramChannel } from './telegram/telegram.channel.js';
import { whatsappChannel } from './whatsapp/whatsapp.channel.js';

/**
 * Every channel, created and mounted in this order (the sandbox after the platform: it plays
 * the platform when none is configured). Adding a channel: its folder, its name in the
 * protocol's CHANNELS, one line here (docs/ARCHITECTURE.md, "How to add a channel").
 */
export const CHANNEL_MODULES = [
  platformChannel,
  sandboxChannel,
  telegramChannel,
  whatsappChannel,
] as const;

type Modules = typeof CHANNEL_MODULES;

/** The module of a channel by its name (its optional hooks: `chatRead`). */
export function channelModule(name: ChannelName): Pick<ChannelModule, 'name' | 'chatRead'> {
  return CHANNEL_MODULES.find((m) => m.name === name)!;
}
/** What each module of the list makes (`create`) or answers (`mount`), all together. */
type MadeBy<T extends readonly unknown[], K extends 'create' | 'mount'> = T extends readonly [
  infer M,
  ...infer Rest,
]
  ? (M extends { [P in K]?: (...a: never[]) => Promise<infer R> } ? R : unknown) & MadeBy<Rest, K>
  : unknown;

/** The services every channel adds to the app's (services.ts). */
export type ChannelServices = MadeBy<Modules, 'create'>;
/** The jobs every channel answers from its mount (app.parley.jobs). */
export type ChannelJobs = MadeBy<Modules, 'mount'>;

/** Each channel's services, in the registry's order (each sees those made before it). */
export async function createChannelServices(setup: ChannelSetup): Promise<ChannelServices> {
  const made: Record<string, unknown> = {};
  for (const channel of CHANNEL_MODULES) {
    Object.assign(made, await channel.create?.(setup, made as never));
  }
  return made as unknown as ChannelServices;
}

import { z } from 'zod';

/**
 * The channels a phone account can be served by: the one list of their names (the server's
 * channel folders, the database's `phone_accounts.channel`, the admin console's choices).
 * `credentials`: what the administrator gives to bind an account to it (none: the account just
 * switches to it).
 */
export const CHANNELS = {
  /** The messaging platform's HTTP API (docs/platform-api.md). */
  platform: { credentials: null },
  /** The built-in customer sandbox. */
  sandbox: { credentials: null },
  /** A Telegram bot (its token). */
  telegram: { credentials: 'bot_token' },
  /** A WhatsApp Business phone number on Meta's Cloud API (its system-user access token). */
  whatsapp: { credentials: 'access_token' },
} as const;

export type ChannelName = keyof typeof CHANNELS;
export const CHANNEL_NAMES = Object.keys(CHANNELS) as [ChannelName, ...ChannelName[]];
export const channelName = z.enum(CHANNEL_NAMES);

/** The channels an account joins with no credentials of its own. */
export type PlainChannelName = {
  [C in ChannelName]: (typeof CHANNELS)[C]['credentials'] extends null ? C : never;
}[ChannelName];
export const PLAIN_CHANNEL_NAMES = CHANNEL_NAMES.filter(
  (c) => CHANNELS[c].credentials === null,
) as [PlainChannelName, ...PlainChannelName[]];
export const plainChannelName = z.enum(PLAIN_CHANNEL_NAMES);

/** A new phone account's channel when none is given (the console, the CLI, the database). */
export const DEFAULT_CHANNEL: PlainChannelName = 'platform';

/** A switch over channel names that misses one fails to compile here. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${String(value)}`);
}

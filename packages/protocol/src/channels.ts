import { z } from 'zod';

/**
 * What a channel can do: the rest of the product asks these, never which channel it is.
 * - `replyWindowHours`: how long after the customer's last message free text may be sent (null:
 *   always); past it only a template goes out.
 * - `deleteForEveryone`: a sent message can be withdrawn from the customer's side.
 * - `greeting`: how a chat the operator opens is greeted: free text, or an approved template.
 * - `templates`: approved message templates can be sent.
 * - `reactions`: the customer's reactions to messages arrive.
 */
export interface ChannelAbilities {
  replyWindowHours: number | null;
  deleteForEveryone: boolean;
  greeting: 'text' | 'template';
  templates: boolean;
  reactions: boolean;
}

const FREE_TEXT: ChannelAbilities = {
  replyWindowHours: null,
  deleteForEveryone: true,
  greeting: 'text',
  templates: false,
  reactions: false,
};

/**
 * The channels a phone account can be served by: the one list of their names (the server's
 * channel folders, the database's `phone_accounts.channel`, the admin console's choices) and
 * what each can do. `credentials`: what the administrator gives to bind an account to it (none:
 * the account just switches to it).
 */
export const CHANNELS = {
  /** The messaging platform's HTTP API (docs/platform-api.md). */
  platform: { credentials: null, abilities: FREE_TEXT },
  /** The built-in customer sandbox. */
  sandbox: { credentials: null, abilities: FREE_TEXT },
  /** A Telegram bot (its token). */
  telegram: { credentials: 'bot_token', abilities: FREE_TEXT },
  /** A WhatsApp Business phone number on Meta's Cloud API (its system-user access token). */
  whatsapp: {
    credentials: 'access_token',
    abilities: {
      // Meta's customer service window; a business cannot withdraw a delivered message.
      replyWindowHours: 24,
      deleteForEveryone: false,
      greeting: 'template',
      templates: true,
      reactions: true,
    },
  },
} as const satisfies Record<string, { credentials: string | null; abilities: ChannelAbilities }>;

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

/**
 * What the channel of this name can do. An unknown name (a newer server's) is taken as a
 * free-text channel; the server still refuses what its channel cannot do.
 */
export function channelAbilities(channel: string | undefined): ChannelAbilities {
  return channel !== undefined && channel in CHANNELS
    ? CHANNELS[channel as ChannelName].abilities
    : FREE_TEXT;
}

/** A switch over channel names that misses one fails to compile here. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${String(value)}`);
}

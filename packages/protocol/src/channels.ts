import { z } from 'zod';
import { telegramStatus, whatsappAccountState, whatsappCredentials } from './channel-accounts.js';

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
 * what each can do.
 * - `credentials`: the fields the administrator gives to bind an account to it, as a zod object
 *   (null: the account just switches to it). The admin call `setChannel` takes them under the
 *   channel's name; its kinds are built from this table.
 * - `account`: what the admin console's account list shows of an account bound to it (its
 *   binding's state), answered in the account's field of the channel's name; null: nothing.
 */
export const CHANNELS = {
  /** The messaging platform's HTTP API (docs/platform-api.md). */
  platform: { credentials: null, account: null, abilities: FREE_TEXT },
  /** The built-in customer sandbox. */
  sandbox: { credentials: null, account: null, abilities: FREE_TEXT },
  /** A Telegram bot (its token), and its poll state. */
  telegram: {
    credentials: z.object({ bot_token: z.string().trim().min(1, 'required').max(256) }),
    account: telegramStatus,
    abilities: FREE_TEXT,
  },
  /**
   * A WhatsApp Business phone number on Meta's Cloud API (its IDs, a system user's access token
   * and the app secret), and the number's health.
   */
  whatsapp: {
    credentials: whatsappCredentials,
    account: whatsappAccountState,
    abilities: {
      // Meta's customer service window; a business cannot withdraw a delivered message.
      replyWindowHours: 24,
      deleteForEveryone: false,
      greeting: 'template',
      templates: true,
      reactions: true,
    },
  },
} as const satisfies Record<
  string,
  {
    credentials: z.ZodObject | null;
    account: z.ZodObject | null;
    abilities: ChannelAbilities;
  }
>;

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

/** The channels an account is bound to with credentials (setChannel's other kinds). */
export type CredentialChannelName = Exclude<ChannelName, PlainChannelName>;
export const CREDENTIAL_CHANNEL_NAMES = CHANNEL_NAMES.filter(
  (c) => CHANNELS[c].credentials !== null,
) as CredentialChannelName[];

/** The channels that show a state of a bound account (a field of a listed account each). */
export type AccountStateChannel = {
  [C in ChannelName]: (typeof CHANNELS)[C]['account'] extends null ? never : C;
}[ChannelName];
export const ACCOUNT_STATE_CHANNELS = CHANNEL_NAMES.filter(
  (c) => CHANNELS[c].account !== null,
) as AccountStateChannel[];

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

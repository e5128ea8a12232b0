import { integer, origin, url, given, type EnvValuesOf, type EnvVar } from '../../lib/env-var.js';
import { z } from 'zod';
import { META_MEDIA_HOSTS } from './graph-api.js';

/** The WhatsApp channel's defaults, written once: the env schema's and the channel's alike. */
export const WHATSAPP_DEFAULTS = {
  /** Meta's Graph API, without the version. */
  graphUrl: 'https://graph.facebook.com',
  /** Meta's default throughput of a business number. */
  messagesPerSecond: 80,
  /** Meta's media hosts, over https at public addresses. */
  mediaHosts: META_MEDIA_HOSTS,
  mediaOrigins: [] as string[],
};

/** The WhatsApp channel (numbers bound to phone accounts; docs/channels/whatsapp.md). */
export interface WhatsappConfig {
  /** Graph API base URL without the version (PARLEY_WHATSAPP_GRAPH_URL). */
  graphUrl?: string;
  /** Messages per second per number, across instances (PARLEY_WHATSAPP_MESSAGES_PER_SECOND). */
  messagesPerSecond?: number;
  /** Host names a media URL may lead to over https. */
  mediaHosts?: readonly string[];
  /** Origins a media URL may lead to as they are (PARLEY_WHATSAPP_MEDIA_ORIGINS). */
  mediaOrigins?: string[];
}

/** The channel's environment variables (the root schema takes them: config-schema.ts). */
const env = {
  PARLEY_WHATSAPP_GRAPH_URL: url(
    ['http', 'https'],
    "Meta's Graph API for the WhatsApp channel (Cloud API, v21.0 paths under it; a proxy, or a local server in tests)",
    WHATSAPP_DEFAULTS.graphUrl,
  ),
  PARLEY_WHATSAPP_MEDIA_ORIGINS: {
    schema: z.preprocess(
      (raw) =>
        (given(raw) ?? '')
          .split(',')
          .map((o: string) => o.trim())
          .filter(Boolean),
      z.array(origin('http://127.0.0.1:8081')),
    ),
    type: 'a comma-separated list of origins',
    shown: 'unset',
    meaning: `origins a WhatsApp media URL may also lead to, as they are (http allowed, the address not checked): a local Graph server in tests, or a proxy you run. Unset: only Meta's media hosts (${WHATSAPP_DEFAULTS.mediaHosts.map((h) => `\`${h}\``).join(', ')}) over https, at public addresses`,
  } satisfies EnvVar<string[]>,
  PARLEY_WHATSAPP_MESSAGES_PER_SECOND: integer(
    1,
    1000,
    WHATSAPP_DEFAULTS.messagesPerSecond,
    `the WhatsApp channel: messages per second per WhatsApp number, across every instance (Meta's throughput: ${WHATSAPP_DEFAULTS.messagesPerSecond} by default, more once Meta raised the number's); a send past it waits its turn, and Meta's 130429 / 131056 are retried later`,
  ),
};

/** The channel's configuration fragment: its variables and the settings read from them. */
export const fragment = {
  env,
  read: (v: EnvValuesOf<typeof env>): { whatsapp: WhatsappConfig } => ({
    whatsapp: {
      graphUrl: v.PARLEY_WHATSAPP_GRAPH_URL ?? WHATSAPP_DEFAULTS.graphUrl,
      messagesPerSecond: v.PARLEY_WHATSAPP_MESSAGES_PER_SECOND,
      mediaOrigins: v.PARLEY_WHATSAPP_MEDIA_ORIGINS,
    },
  }),
};

/** What the channel runs with: the configured settings over the defaults (a test gives a few). */
export function whatsappSettings(config: { whatsapp?: WhatsappConfig }) {
  const set = config.whatsapp ?? {};
  return {
    graphUrl: set.graphUrl ?? WHATSAPP_DEFAULTS.graphUrl,
    messagesPerSecond: set.messagesPerSecond ?? WHATSAPP_DEFAULTS.messagesPerSecond,
    mediaHosts: set.mediaHosts ?? WHATSAPP_DEFAULTS.mediaHosts,
    mediaOrigins: set.mediaOrigins ?? WHATSAPP_DEFAULTS.mediaOrigins,
  };
}

// This channel's variables and settings, in the roots' types (config-schema.ts, config.ts).
declare module '../channel-config.js' {
  interface ChannelEnv extends Env {}
  interface ChannelConfigs {
    whatsapp: WhatsappConfig;
  }
}
type Env = typeof env;

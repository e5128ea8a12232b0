import { integer, oneOf, url, type EnvValuesOf } from '../../lib/env-var.js';

/** The Telegram channel's defaults, written once. */
export const TELEGRAM_DEFAULTS = {
  apiUrl: 'https://api.telegram.org',
  pollTimeoutSeconds: 25,
  scanIntervalMs: 5_000,
};

/** The Telegram channel (bots bound to phone accounts; docs/decisions/2026-11-23-telegram-channel.md). */
export interface TelegramConfig {
  /** Bot API base URL (PARLEY_TELEGRAM_API_URL): methods at `<url>/bot<token>/<method>`. */
  apiUrl: string;
  /** Poll the bound bots with getUpdates (PARLEY_TELEGRAM_POLLING=off: this instance does not). */
  polling: boolean;
  /** getUpdates long-poll time-out (PARLEY_TELEGRAM_POLL_TIMEOUT_SECONDS). */
  pollTimeoutSeconds: number;
  /** How often an instance looks for bound bots that no instance polls. */
  scanIntervalMs: number;
  /** How long a bot's poll lease lasts without renewal (another instance then takes over). */
  leaseMs: number;
}

/** The channel's environment variables (the root schema takes them: config-schema.ts). */
const env = {
  PARLEY_TELEGRAM_API_URL: url(
    ['http', 'https'],
    'the Telegram Bot API (a local Bot API server, or a proxy)',
    TELEGRAM_DEFAULTS.apiUrl,
  ),
  PARLEY_TELEGRAM_POLLING: oneOf(
    ['on', 'off'],
    'on',
    'whether this instance long-polls the bound bots (`getUpdates`; one instance per bot at a time)',
  ),
  PARLEY_TELEGRAM_POLL_TIMEOUT_SECONDS: integer(
    0,
    50,
    TELEGRAM_DEFAULTS.pollTimeoutSeconds,
    'the long-poll time-out',
  ),
};

/** The channel's configuration fragment: its variables and the settings read from them. */
export const fragment = {
  env,
  read: (v: EnvValuesOf<typeof env>): { telegram: TelegramConfig } => ({
    telegram: {
      apiUrl: v.PARLEY_TELEGRAM_API_URL ?? TELEGRAM_DEFAULTS.apiUrl,
      polling: v.PARLEY_TELEGRAM_POLLING === 'on',
      pollTimeoutSeconds: v.PARLEY_TELEGRAM_POLL_TIMEOUT_SECONDS,
      scanIntervalMs: TELEGRAM_DEFAULTS.scanIntervalMs,
      // Longer than a long poll, so a polling instance renews it well before it runs out.
      leaseMs: (v.PARLEY_TELEGRAM_POLL_TIMEOUT_SECONDS + 30) * 1000,
    },
  }),
};

// This channel's variables and settings, in the roots' types (config-schema.ts, config.ts).
declare module '../channel-config.js' {
  interface ChannelEnv extends Env {}
  interface ChannelConfigs {
    telegram: TelegramConfig;
  }
}
type Env = typeof env;

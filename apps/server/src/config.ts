import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MediaKind } from '@parley/protocol';
import {
  DEFAULT_LISTEN_BACKLOG,
  DEFAULT_PG_POOL_MAX,
  parseEnv,
  TRANSLATION_ENGINES,
  type EnvValues,
} from './config-schema.js';
import { channelConfigs, type ChannelConfigs } from './channels/channel-config.js';

export type DemoMode = 'auto' | 'on' | 'off';
export type LogFormat = 'pretty' | 'json';

/** The settings; each channel's under its own key (`telegram`, ...: ChannelConfigs). */
export interface Config extends ChannelConfigs {
  port: number;
  host: string;
  /**
   * Connections the kernel may hold for the server before it accepts them (listen(2)'s
   * backlog; the kernel caps it at net.core.somaxconn). Node's 511 overflows when a thousand
   * consoles reconnect at once, e.g. after a restart: the kernel then drops their handshakes and
   * each waits out TCP's retransmission (1 s, 3 s, 7 s, ...). PARLEY_LISTEN_BACKLOG.
   */
  listenBacklog: number;
  /** SQLite file `parley.db` and `media/` live here. */
  dataDir: string;
  /** PostgreSQL instead of SQLite when set. */
  databaseUrl: string | null;
  /**
   * PostgreSQL schema of this install's tables (PARLEY_PG_SCHEMA; created when missing), so
   * several installs share one database; null: the connection's own search_path.
   */
  pgSchema: string | null;
  /**
   * PostgreSQL connections this instance may open (PARLEY_PG_POOL_MAX). A connection serves at
   * most one query per turn of the event loop, and turns lengthen under load: too few, and
   * requests queue for a connection while the database idles.
   */
  pgPoolMax: number;
  logLevel: string;
  /** `pretty`: one readable line per event, for a person (default); `json`: pino's JSON lines. */
  logFormat: LogFormat;
  /** Fastify's trustProxy: whether X-Forwarded-* (client address, https) are believed. */
  trustProxy: boolean | string;
  tokenTtlHours: number;
  demo: DemoMode;
  webDir: string;
  loginMaxFailures: number;
  /** Failed logins from one address per window, whichever accounts they try. */
  loginMaxFailuresPerIp: number;
  loginWindowSeconds: number;
  /**
   * Requests per minute per client address on the routes that need no seat token: the login
   * calls and the sandbox (`public`), the platform's API (`platform`). 0: no limit.
   */
  rateLimit: { public: number; platform: number };
  /** How long after sending an outgoing message may still be deleted for all. */
  deleteForAllWindowMinutes: number;
  /** Batch replies: messages per second per seat (across every instance). */
  batchRatePerSecond: number;
  /** Uploaded media files (content-addressed); default `${dataDir}/media`. */
  mediaDir: string;
  /** CSV exports streaming at once (PARLEY_EXPORTS_AT_ONCE); unset: the default. */
  exportsAtOnce?: number;
  /** Upload cap per media kind, in bytes (PARLEY_MAX_<KIND>_MB). */
  mediaMaxBytes: Record<MediaKind, number>;
  /** Key of the signed media URLs; null: one generated once and kept in the database. */
  mediaSecret: string | null;
  translation: TranslationConfig;
  /**
   * Where the outside world reaches this server (PARLEY_PUBLIC_URL: origin and path, no
   * trailing slash): the base of the addresses shown to paste elsewhere (a WhatsApp webhook
   * URL). Unset: built from the request.
   */
  publicUrl?: string | null;
  /** Web Push (modules/push); unset: the browsers' own push services only. */
  push?: PushConfig;
  platform: PlatformConfig;
  /** The customer sandbox: `auto` = on when the demo workspace was loaded into this database. */
  sandbox: DemoMode;
  realtime: RealtimeConfig;
  ops: OpsConfig;
}

/** Running it as infrastructure: metrics, shutdown (docs/deploy.md). */
export interface OpsConfig {
  /** Bearer token of GET /metrics (PARLEY_METRICS_TOKEN); null: the endpoint is off (404). */
  metricsToken: string | null;
  /** SIGTERM: how long draining may take before the process gives up and exits 1. */
  shutdownTimeoutMs: number;
  /**
   * SIGTERM: how long /healthz answers 503 while requests are still served, before the
   * listener closes (a load balancer's health checks take the instance out meanwhile).
   */
  shutdownGraceMs: number;
}

/** The messaging platform's bridge (docs/platform-api.md). */
export interface PlatformConfig {
  /** Shared secret of the signed requests both ways; null: the inbound API answers 400003. */
  secret: string | null;
  /** Where operator messages are POSTed; null: channel 'platform' has no outbound adapter. */
  url: string | null;
  /** Per outbound request. */
  timeoutMs: number;
  /** Outbox: attempts before an item is marked failed, and the first retry's delay. */
  maxAttempts: number;
  retryBaseMs: number;
  /** How long a worker's claim on an item lasts if it dies mid-delivery. */
  leaseMs: number;
  /**
   * Bytes held at once for inbound bodies whose signature is not checked yet, in this process
   * (PARLEY_PLATFORM_UNVERIFIED_MAX_MB, default 256) and per client address
   * (PARLEY_PLATFORM_UNVERIFIED_PER_ADDRESS_MAX_MB, default 128). Unset: the defaults.
   */
  unverifiedMaxBytes?: number;
  unverifiedPerAddressMaxBytes?: number;
  /**
   * The pace of an unverified body: it must average this many bytes per second after a grace
   * (PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS, _GRACE_S), else it is cut and its address refused
   * for a while (_SLOW_BAN_S). Unset: the defaults.
   */
  unverifiedMinBytesPerS?: number;
  unverifiedGraceMs?: number;
  unverifiedSlowBanMs?: number;
}

/** The push channel (docs/decisions/2026-11-23-realtime-push.md). */
export interface RealtimeConfig {
  /** Redis for fan-out between instances (REDIS_URL); null: one instance, or polling. */
  redisUrl: string | null;
  /** Events are kept this long for resuming consoles (PARLEY_EVENT_RETENTION_HOURS). */
  retentionHours: number;
  /** Ping interval; a socket silent for two intervals is dropped (PARLEY_WS_HEARTBEAT_MS). */
  heartbeatMs: number;
  /** Without Redis: how often the event log is checked for other processes' events. */
  pollMs: number;
  /**
   * Origins whose pages may open the push sockets besides the server's own (the request's
   * Host), e.g. `https://chat.example.com` when a proxy rewrites Host; `*`: any
   * (PARLEY_ALLOWED_ORIGINS, comma-separated). Unset: the server's own only.
   */
  allowedOrigins?: string[];
}

/** Web Push: which push services notifications may go to (modules/push/push-endpoint.ts). */
export interface PushConfig {
  /** Hosts (or parent domains) of the allowed push services. */
  hosts: string[];
  /** Of those, the ones allowed to resolve to private addresses. */
  privateHosts: string[];
  /** Extra CA certificates (PEM file) for them; null: the system's. */
  caFile: string | null;
}

export { TRANSLATION_ENGINES };
export type TranslationEngineName = (typeof TRANSLATION_ENGINES)[number];
export type TranslationProviderConfig =
  /** `apiUrl` null: the Free endpoint for keys ending in `:fx`, else the Pro one. */
  | { name: 'deepl'; authKey: string; apiUrl: string | null }
  | { name: 'libretranslate'; url: string; apiKey: string | null }
  | { name: 'apertium'; url: string };
export interface TranslationConfig {
  /** Engines in fallback order; empty: translation calls answer 501002 "Translation error". */
  providers: TranslationProviderConfig[];
  /** Per request to an engine. */
  timeoutMs: number;
  /** Retries of a request answered 429 or 5xx (DeepL, LibreTranslate), with back-off. */
  retries: number;
  retryDelayMs: number;
}

export class ConfigError extends Error {}

export { DEFAULT_LISTEN_BACKLOG, DEFAULT_PG_POOL_MAX };

/** The built web app, relative to this package (src/ or dist/ both sit one level down). */
export function defaultWebDir(): string {
  return fileURLToPath(new URL('../../web/dist', import.meta.url));
}

const MB = 1024 * 1024;

/** `1`/`true`: any proxy; an address list (`10.0.0.1,10.1.0.0/16`): those; unset: none. */
function trustProxy(value: string | null): boolean | string {
  if (value === null || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

/**
 * The configuration from the environment (config-schema.ts declares every variable). A bad
 * value stops the start: ConfigError names each bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = parseEnv(env);
  if (!parsed.ok) throw new ConfigError(parsed.errors.join('; '));
  const v = parsed.values;
  const dataDir = path.resolve(v.PARLEY_DATA_DIR);
  return {
    port: v.PORT,
    host: v.HOST,
    listenBacklog: v.PARLEY_LISTEN_BACKLOG,
    dataDir,
    databaseUrl: v.DATABASE_URL,
    pgSchema: v.PARLEY_PG_SCHEMA,
    pgPoolMax: v.PARLEY_PG_POOL_MAX,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    trustProxy: trustProxy(v.PARLEY_TRUST_PROXY),
    tokenTtlHours: v.PARLEY_TOKEN_TTL_HOURS,
    demo: v.PARLEY_DEMO,
    webDir: v.PARLEY_WEB_DIR ? path.resolve(v.PARLEY_WEB_DIR) : defaultWebDir(),
    loginMaxFailures: v.PARLEY_LOGIN_MAX_FAILURES,
    loginMaxFailuresPerIp: v.PARLEY_LOGIN_MAX_FAILURES_PER_IP,
    loginWindowSeconds: v.PARLEY_LOGIN_WINDOW_SECONDS,
    rateLimit: {
      public: v.PARLEY_RATE_LIMIT_PER_MINUTE,
      platform: v.PARLEY_PLATFORM_RATE_LIMIT_PER_MINUTE,
    },
    deleteForAllWindowMinutes: v.PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES,
    batchRatePerSecond: v.PARLEY_BATCH_RATE_PER_SECOND,
    exportsAtOnce: v.PARLEY_EXPORTS_AT_ONCE,
    mediaDir: v.PARLEY_MEDIA_DIR ? path.resolve(v.PARLEY_MEDIA_DIR) : path.join(dataDir, 'media'),
    // Bytes are what the server counts.
    mediaMaxBytes: {
      image: Math.round(v.PARLEY_MAX_IMAGE_MB * MB),
      audio: Math.round(v.PARLEY_MAX_AUDIO_MB * MB),
      video: Math.round(v.PARLEY_MAX_VIDEO_MB * MB),
      file: Math.round(v.PARLEY_MAX_FILE_MB * MB),
    },
    mediaSecret: v.PARLEY_MEDIA_SECRET,
    translation: translationConfig(v),
    platform: {
      secret: v.PARLEY_PLATFORM_SECRET,
      url: v.PARLEY_PLATFORM_URL,
      timeoutMs: v.PARLEY_PLATFORM_TIMEOUT_MS,
      maxAttempts: v.PARLEY_OUTBOX_MAX_ATTEMPTS,
      retryBaseMs: v.PARLEY_OUTBOX_RETRY_BASE_MS,
      leaseMs: v.PARLEY_OUTBOX_LEASE_MS,
      unverifiedMaxBytes: Math.round(v.PARLEY_PLATFORM_UNVERIFIED_MAX_MB * MB),
      unverifiedPerAddressMaxBytes: Math.round(
        v.PARLEY_PLATFORM_UNVERIFIED_PER_ADDRESS_MAX_MB * MB,
      ),
      unverifiedMinBytesPerS: Math.round(v.PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS * 1024),
      unverifiedGraceMs: Math.round(v.PARLEY_PLATFORM_UNVERIFIED_GRACE_S * 1000),
      unverifiedSlowBanMs: Math.round(v.PARLEY_PLATFORM_UNVERIFIED_SLOW_BAN_S * 1000),
    },
    sandbox: v.PARLEY_SANDBOX,
    realtime: {
      redisUrl: v.REDIS_URL,
      retentionHours: v.PARLEY_EVENT_RETENTION_HOURS,
      heartbeatMs: v.PARLEY_WS_HEARTBEAT_MS,
      pollMs: v.PARLEY_EVENT_POLL_MS,
      allowedOrigins: v.PARLEY_ALLOWED_ORIGINS,
    },
    publicUrl: v.PARLEY_PUBLIC_URL,
    push: {
      hosts: v.PARLEY_PUSH_HOSTS,
      privateHosts: v.PARLEY_PUSH_PRIVATE_HOSTS,
      caFile: v.PARLEY_PUSH_CA_FILE,
    },
    // Each channel's settings, read by its own fragment (channels/channel-config.ts).
    ...channelConfigs(v),
    ops: {
      metricsToken: v.PARLEY_METRICS_TOKEN,
      shutdownTimeoutMs: v.PARLEY_SHUTDOWN_TIMEOUT_MS,
      shutdownGraceMs: v.PARLEY_SHUTDOWN_GRACE_MS,
    },
  };
}

/**
 * The engines. PARLEY_TRANSLATION_PROVIDERS gives the fallback order (e.g. `deepl,apertium`);
 * unset, every configured engine is used, DeepL first. A listed engine must be configured.
 */
function translationConfig(v: EnvValues): TranslationConfig {
  const available: Partial<Record<TranslationEngineName, TranslationProviderConfig>> = {};
  if (v.DEEPL_AUTH_KEY) {
    available.deepl = { name: 'deepl', authKey: v.DEEPL_AUTH_KEY, apiUrl: v.DEEPL_API_URL };
  }
  if (v.LIBRETRANSLATE_URL) {
    available.libretranslate = {
      name: 'libretranslate',
      url: v.LIBRETRANSLATE_URL,
      apiKey: v.LIBRETRANSLATE_API_KEY,
    };
  }
  if (v.APERTIUM_URL) available.apertium = { name: 'apertium', url: v.APERTIUM_URL };
  const needs: Record<TranslationEngineName, string> = {
    deepl: 'DEEPL_AUTH_KEY',
    libretranslate: 'LIBRETRANSLATE_URL',
    apertium: 'APERTIUM_URL',
  };
  const listed = v.PARLEY_TRANSLATION_PROVIDERS;
  const names = listed ? [...new Set(listed)] : TRANSLATION_ENGINES.filter((n) => available[n]);
  for (const name of names) {
    if (!available[name]) {
      throw new ConfigError(
        `PARLEY_TRANSLATION_PROVIDERS lists ${name} but ${needs[name]} is not set`,
      );
    }
  }
  return {
    providers: names.map((n) => available[n]!),
    timeoutMs: v.PARLEY_TRANSLATION_TIMEOUT_MS,
    retries: v.PARLEY_TRANSLATION_RETRIES,
    retryDelayMs: v.PARLEY_TRANSLATION_RETRY_DELAY_MS,
  };
}

export function webDirExists(config: Config): boolean {
  return existsSync(path.join(config.webDir, 'index.html'));
}

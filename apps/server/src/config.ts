import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MEDIA_MAX_BYTES_DEFAULT, type MediaKind } from '@parley/protocol';

export type DemoMode = 'auto' | 'on' | 'off';
export type LogFormat = 'pretty' | 'json';

export interface Config {
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
  /** PostgreSQL schema to use (search_path); tests isolate each file in its own. */
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
  /** Upload cap per media kind, in bytes (PARLEY_MAX_<KIND>_MB). */
  mediaMaxBytes: Record<MediaKind, number>;
  /** Key of the signed media URLs; null: one generated once and kept in the database. */
  mediaSecret: string | null;
  translation: TranslationConfig;
  telegram: TelegramConfig;
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
}

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

export const TRANSLATION_ENGINES = ['deepl', 'libretranslate', 'apertium'] as const;
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

/**
 * Four times pg's default: a pool of 10 became the queue at 1,000 operators (bench/operators.mjs,
 * 2026-11-24). Instances × this must stay under PostgreSQL's max_connections (100 by default).
 */
export const DEFAULT_PG_POOL_MAX = 40;

/** Above any expected reconnect storm; the kernel caps it at net.core.somaxconn (4096 since Linux 5.4). */
export const DEFAULT_LISTEN_BACKLOG = 8192;

/** The built web app, relative to this package (src/ or dist/ both sit one level down). */
export function defaultWebDir(): string {
  return fileURLToPath(new URL('../../web/dist', import.meta.url));
}

function num(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
  integer = true,
) {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value)) ||
    value < min ||
    value > max
  ) {
    const kind = integer ? 'an integer' : 'a number';
    throw new ConfigError(`${name} must be ${kind} between ${min} and ${max} (got "${raw}")`);
  }
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const MB = 1024 * 1024;

function mediaCap(env: NodeJS.ProcessEnv, kind: MediaKind): number {
  const name = `PARLEY_MAX_${kind.toUpperCase()}_MB`;
  // Fractions allowed (e.g. 0.5 = 512 KiB); bytes are what the server counts.
  return Math.round(num(env, name, MEDIA_MAX_BYTES_DEFAULT[kind] / MB, 0.001, 4096, false) * MB);
}

/** `1`/`true`: any proxy; an address list (`10.0.0.1,10.1.0.0/16`): those; unset: none. */
function trustProxy(raw: string | undefined): boolean | string {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const demo = (env.PARLEY_DEMO ?? 'auto').trim() || 'auto';
  if (demo !== 'auto' && demo !== 'on' && demo !== 'off') {
    throw new ConfigError(`PARLEY_DEMO must be auto, on or off (got "${demo}")`);
  }
  const logLevel = (env.LOG_LEVEL ?? 'info').trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const logFormat = (env.LOG_FORMAT ?? 'pretty').trim() || 'pretty';
  if (logFormat !== 'pretty' && logFormat !== 'json') {
    throw new ConfigError(`LOG_FORMAT must be pretty or json (got "${logFormat}")`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  }
  const dataDir = path.resolve(env.PARLEY_DATA_DIR?.trim() || './data');
  const mediaSecret = env.PARLEY_MEDIA_SECRET?.trim() || null;
  if (mediaSecret !== null && mediaSecret.length < 32) {
    throw new ConfigError('PARLEY_MEDIA_SECRET must be at least 32 characters');
  }
  return {
    port: num(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    listenBacklog: num(env, 'PARLEY_LISTEN_BACKLOG', DEFAULT_LISTEN_BACKLOG, 1, 65535),
    dataDir,
    databaseUrl,
    pgSchema: null,
    pgPoolMax: num(env, 'PARLEY_PG_POOL_MAX', DEFAULT_PG_POOL_MAX, 1, 1000),
    logLevel,
    logFormat,
    trustProxy: trustProxy(env.PARLEY_TRUST_PROXY),
    // Fractions allowed (e.g. 0.01 = 36 s) to try the expired-login flow by hand.
    tokenTtlHours: num(env, 'PARLEY_TOKEN_TTL_HOURS', 168, 0.001, 24 * 365, false),
    demo,
    webDir: env.PARLEY_WEB_DIR?.trim() ? path.resolve(env.PARLEY_WEB_DIR) : defaultWebDir(),
    loginMaxFailures: num(env, 'PARLEY_LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginMaxFailuresPerIp: num(env, 'PARLEY_LOGIN_MAX_FAILURES_PER_IP', 50, 1, 100000),
    loginWindowSeconds: num(env, 'PARLEY_LOGIN_WINDOW_SECONDS', 900, 1, 7 * 24 * 3600),
    rateLimit: {
      // A whole team logging in at shift start from one office address stays well inside.
      public: num(env, 'PARLEY_RATE_LIMIT_PER_MINUTE', 300, 0, 1_000_000),
      platform: num(env, 'PARLEY_PLATFORM_RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000),
    },
    deleteForAllWindowMinutes: num(
      env,
      'PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES',
      120,
      1,
      7 * 24 * 60,
    ),
    batchRatePerSecond: num(env, 'PARLEY_BATCH_RATE_PER_SECOND', 5, 0.01, 1000, false),
    mediaDir: env.PARLEY_MEDIA_DIR?.trim()
      ? path.resolve(env.PARLEY_MEDIA_DIR)
      : path.join(dataDir, 'media'),
    mediaMaxBytes: {
      image: mediaCap(env, 'image'),
      audio: mediaCap(env, 'audio'),
      video: mediaCap(env, 'video'),
      file: mediaCap(env, 'file'),
    },
    mediaSecret,
    translation: loadTranslationConfig(env),
    platform: {
      secret: env.PARLEY_PLATFORM_SECRET?.trim() || null,
      url: httpUrl(env, 'PARLEY_PLATFORM_URL'),
      timeoutMs: num(env, 'PARLEY_PLATFORM_TIMEOUT_MS', 10_000, 100, 120_000),
      maxAttempts: num(env, 'PARLEY_OUTBOX_MAX_ATTEMPTS', 8, 1, 100),
      retryBaseMs: num(env, 'PARLEY_OUTBOX_RETRY_BASE_MS', 1_000, 1, 600_000),
      leaseMs: num(env, 'PARLEY_OUTBOX_LEASE_MS', 60_000, 100, 3_600_000),
    },
    sandbox: onOff(env, 'PARLEY_SANDBOX'),
    realtime: {
      redisUrl: redisUrl(env),
      retentionHours: num(env, 'PARLEY_EVENT_RETENTION_HOURS', 24, 0.01, 24 * 90, false),
      heartbeatMs: num(env, 'PARLEY_WS_HEARTBEAT_MS', 20_000, 100, 600_000),
      pollMs: num(env, 'PARLEY_EVENT_POLL_MS', 500, 50, 60_000),
    },
    telegram: loadTelegramConfig(env),
    ops: loadOpsConfig(env),
  };
}

function loadOpsConfig(env: NodeJS.ProcessEnv): OpsConfig {
  const metricsToken = env.PARLEY_METRICS_TOKEN?.trim() || null;
  // It guards the server's internals: a short one could be guessed.
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError('PARLEY_METRICS_TOKEN must be at least 16 characters');
  }
  return {
    metricsToken,
    shutdownTimeoutMs: num(env, 'PARLEY_SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    shutdownGraceMs: num(env, 'PARLEY_SHUTDOWN_GRACE_MS', 5_000, 0, 600_000),
  };
}

function loadTelegramConfig(env: NodeJS.ProcessEnv): TelegramConfig {
  const polling = (env.PARLEY_TELEGRAM_POLLING ?? 'on').trim() || 'on';
  if (polling !== 'on' && polling !== 'off') {
    throw new ConfigError(`PARLEY_TELEGRAM_POLLING must be on or off (got "${polling}")`);
  }
  const pollTimeoutSeconds = num(env, 'PARLEY_TELEGRAM_POLL_TIMEOUT_SECONDS', 25, 0, 50);
  return {
    apiUrl: httpUrl(env, 'PARLEY_TELEGRAM_API_URL') ?? 'https://api.telegram.org',
    polling: polling === 'on',
    pollTimeoutSeconds,
    scanIntervalMs: 5_000,
    // Longer than a long poll, so a polling instance renews it well before it runs out.
    leaseMs: (pollTimeoutSeconds + 30) * 1000,
  };
}

function onOff(env: NodeJS.ProcessEnv, name: string): DemoMode {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'auto') return 'auto';
  if (raw === '1' || raw === 'on' || raw === 'true') return 'on';
  if (raw === '0' || raw === 'off' || raw === 'false') return 'off';
  throw new ConfigError(`${name} must be on, off or auto (got "${raw}")`);
}

function redisUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return null;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError('REDIS_URL must be a redis:// URL');
  return raw;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    // fall through
  }
  throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
}

/**
 * Engines from the environment. PARLEY_TRANSLATION_PROVIDERS gives the fallback order
 * (e.g. `deepl,apertium`); unset, every configured engine is used, DeepL first.
 */
function loadTranslationConfig(env: NodeJS.ProcessEnv): TranslationConfig {
  const deeplKey = env.DEEPL_AUTH_KEY?.trim() || null;
  const deeplUrl = httpUrl(env, 'DEEPL_API_URL');
  const libreUrl = httpUrl(env, 'LIBRETRANSLATE_URL');
  const libreKey = env.LIBRETRANSLATE_API_KEY?.trim() || null;
  const apertiumUrl = httpUrl(env, 'APERTIUM_URL');
  const available: Partial<Record<TranslationEngineName, TranslationProviderConfig>> = {};
  if (deeplKey) available.deepl = { name: 'deepl', authKey: deeplKey, apiUrl: deeplUrl };
  if (libreUrl)
    available.libretranslate = { name: 'libretranslate', url: libreUrl, apiKey: libreKey };
  if (apertiumUrl) available.apertium = { name: 'apertium', url: apertiumUrl };
  const needs: Record<TranslationEngineName, string> = {
    deepl: 'DEEPL_AUTH_KEY',
    libretranslate: 'LIBRETRANSLATE_URL',
    apertium: 'APERTIUM_URL',
  };

  const order = env.PARLEY_TRANSLATION_PROVIDERS?.trim();
  let names: TranslationEngineName[];
  if (order) {
    const listed = order
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean);
    names = [];
    for (const name of listed) {
      if (!(TRANSLATION_ENGINES as readonly string[]).includes(name)) {
        throw new ConfigError(
          `PARLEY_TRANSLATION_PROVIDERS: unknown engine "${name}" (use ${TRANSLATION_ENGINES.join(', ')})`,
        );
      }
      const engine = name as TranslationEngineName;
      if (!available[engine]) {
        throw new ConfigError(
          `PARLEY_TRANSLATION_PROVIDERS lists ${engine} but ${needs[engine]} is not set`,
        );
      }
      if (!names.includes(engine)) names.push(engine);
    }
  } else {
    names = TRANSLATION_ENGINES.filter((n) => available[n]);
  }
  return {
    providers: names.map((n) => available[n]!),
    timeoutMs: num(env, 'PARLEY_TRANSLATION_TIMEOUT_MS', 10_000, 100, 60_000),
    retries: num(env, 'PARLEY_TRANSLATION_RETRIES', 2, 0, 5),
    retryDelayMs: num(env, 'PARLEY_TRANSLATION_RETRY_DELAY_MS', 500, 0, 10_000),
  };
}

export function webDirExists(config: Config): boolean {
  return existsSync(path.join(config.webDir, 'index.html'));
}

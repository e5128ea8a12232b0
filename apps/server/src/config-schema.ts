import { MEDIA_MAX_BYTES_DEFAULT } from '@parley/protocol';
import { z } from 'zod';
import { CHANNEL_ENV } from './channels/channel-config.js';
import {
  decimal,
  given,
  hostList,
  integer,
  oneOf,
  onOffAuto,
  origin,
  text,
  textOr,
  url,
  type EnvVar,
  type EnvValuesOf,
} from './lib/env-var.js';

const MB = 1024 * 1024;
const mediaCap = (kind: keyof typeof MEDIA_MAX_BYTES_DEFAULT) =>
  decimal(
    0.001,
    4096,
    MEDIA_MAX_BYTES_DEFAULT[kind] / MB,
    `upload cap of a ${kind}, in MB (fractions allowed); larger uploads are refused with \`100001\``,
  );

/** Where browsers' Web Push subscriptions live: Chrome (FCM), Firefox, Safari, Edge. */
const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

/**
 * Four times pg's default: a pool of 10 became the queue at 1,000 operators (bench/operators.mjs,
 * 2026-11-24). Instances × this must stay under PostgreSQL's max_connections (100 by default).
 */
export const DEFAULT_PG_POOL_MAX = 40;

/** Above any expected reconnect storm; the kernel caps it at net.core.somaxconn (4096 since Linux 5.4). */
export const DEFAULT_LISTEN_BACKLOG = 8192;

export const TRANSLATION_ENGINES = ['deepl', 'libretranslate', 'apertium'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const ENV = {
  PORT: integer(0, 65535, 8080, 'HTTP port'),
  HOST: textOr('0.0.0.0', 'address to listen on'),
  PARLEY_DATA_DIR: textOr('./data', 'where the SQLite file (`parley.db`) and media live'),
  DATABASE_URL: url(
    ['postgres', 'postgresql'],
    'a PostgreSQL URL (`postgres://user@host:5432/db`) to use instead of SQLite',
  ),
  LOG_LEVEL: oneOf(
    LOG_LEVELS,
    'info',
    'at `info`: start-up, warnings, errors and one line per call (polls, health checks and static files only at `debug`)',
  ),
  LOG_FORMAT: oneOf(
    ['pretty', 'json'],
    'pretty',
    "`pretty`: a readable line per event, for a person at the terminal; `json`: pino's structured JSON lines, for production log collectors",
  ),
  PARLEY_TRUST_PROXY: text(
    '`1`: believe `X-Forwarded-For`/`-Proto` from any proxy in front (client address, HTTPS for HSTS); or a list of proxy addresses (`10.0.0.1,10.1.0.0/16`); unset: none',
  ),
  PARLEY_TOKEN_TTL_HOURS: decimal(0.001, 24 * 365, 168, 'how long a login lasts'),
  PARLEY_DEMO: oneOf(
    ['auto', 'on', 'off'],
    'auto',
    '`auto`: load the demo workspace on the first start of an empty embedded database; `on`: also on an empty PostgreSQL; `off`: never',
  ),
  PARLEY_LOGIN_MAX_FAILURES: integer(
    1,
    1000,
    5,
    'failed logins for one account allowed per window before logins are refused (`500003`); each attempt is counted atomically before the password is checked, so parallel guesses are limited too (shared by every instance through the database)',
  ),
  PARLEY_LOGIN_WINDOW_SECONDS: integer(1, 7 * 24 * 3600, 900, 'the window of failed logins'),
  PARLEY_LOGIN_MAX_FAILURES_PER_IP: integer(
    1,
    100_000,
    50,
    "failed logins from one client address per window, whatever accounts they try (behind a proxy, set `PARLEY_TRUST_PROXY` so the address is the client's)",
  ),
  PARLEY_RATE_LIMIT_PER_MINUTE: integer(
    0,
    1_000_000,
    300,
    'requests per minute per client address on the routes that need no token (the login calls and the sandbox); past it `500003` with `Retry-After`; `0`: no limit',
  ),
  PARLEY_PLATFORM_RATE_LIMIT_PER_MINUTE: integer(
    0,
    10_000_000,
    // 250/s: above a 200/s platform, and about what one instance took on PostgreSQL with
    // 1,000 consoles open (bench/inbound.mjs: 4.1 ms of the server's CPU per message).
    15_000,
    "requests per minute per client address on the platform's API, counted by each instance; past it HTTP 429 (the platform sends it again later); `0`: no limit. Size it from what an instance takes ([sizing](#sizing-the-platforms-rate-limit))",
  ),
  PARLEY_WEB_DIR: text('the built web console the server serves', { shown: 'apps/web/dist' }),
  PARLEY_TRANSLATION_PROVIDERS: {
    schema: z.preprocess(
      (raw) =>
        given(raw)
          ?.split(',')
          .map((n) => n.trim().toLowerCase())
          .filter(Boolean),
      z
        .array(
          z.enum(TRANSLATION_ENGINES, {
            error: (issue) =>
              `unknown engine "${String(issue.input)}" (use ${TRANSLATION_ENGINES.join(', ')})`,
          }),
        )
        .nullable()
        .default(null),
    ),
    type: `a comma-separated list of ${TRANSLATION_ENGINES.join(', ')}`,
    shown: 'every configured engine, in the order `deepl,libretranslate,apertium`',
    explains: true,
    meaning:
      'translation engines in fallback order (e.g. `deepl,apertium`): an engine that fails (network, 5xx after retries, 429, quota, unsupported pair) hands over to the next; each one listed must be configured',
  } satisfies EnvVar<(typeof TRANSLATION_ENGINES)[number][] | null>,
  DEEPL_AUTH_KEY: text(
    'DeepL API key; keys ending in `:fx` use the Free endpoint `api-free.deepl.com`, others `api.deepl.com`',
  ),
  DEEPL_API_URL: url(['http', 'https'], 'DeepL base URL override (e.g. a proxy)', 'by key'),
  LIBRETRANSLATE_URL: url(['http', 'https'], 'a LibreTranslate server'),
  LIBRETRANSLATE_API_KEY: text("the LibreTranslate server's key, when it wants one"),
  APERTIUM_URL: url(
    ['http', 'https'],
    'an Apertium APY server, e.g. `http://127.0.0.1:2737` (see below)',
  ),
  PARLEY_TRANSLATION_TIMEOUT_MS: integer(100, 60_000, 10_000, 'per request to an engine'),
  PARLEY_TRANSLATION_RETRIES: integer(
    0,
    5,
    2,
    'retries of a 429 or 5xx answer, with doubling back-off (Retry-After honoured up to 5 s)',
  ),
  PARLEY_TRANSLATION_RETRY_DELAY_MS: integer(0, 10_000, 500, 'the first retry delay'),
  PARLEY_MEDIA_DIR: text(
    'uploaded media, one file per content (sha256); a shared volume for several instances',
    { shown: '$PARLEY_DATA_DIR/media' },
  ),
  PARLEY_MAX_IMAGE_MB: mediaCap('image'),
  PARLEY_MAX_AUDIO_MB: mediaCap('audio'),
  PARLEY_MAX_VIDEO_MB: mediaCap('video'),
  PARLEY_MAX_FILE_MB: mediaCap('file'),
  PARLEY_MEDIA_SECRET: text(
    'key of the signed media URLs; unset, one is generated on first start and kept in the database, so every instance shares it',
    { minLength: 32, shown: 'generated' },
  ),
  REDIS_URL: url(
    ['redis', 'rediss'],
    "Redis (`redis://host:6379`) for push between several instances (`docs/deploy.md`); unset, one instance finds other processes' changes by polling",
  ),
  PARLEY_EVENT_RETENTION_HOURS: decimal(
    0.01,
    24 * 90,
    24,
    'how long push events are kept for consoles that reconnect; older resume points refetch',
  ),
  PARLEY_PG_SCHEMA: {
    // A plain lower-case identifier: it goes into search_path and SQL unquoted.
    schema: z.preprocess(
      given,
      z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case identifier')
        .nullable()
        .default(null),
    ),
    type: 'a lower-case identifier',
    shown: 'unset',
    meaning:
      "PostgreSQL schema of this install's tables (created when missing), so several installs share one database, one schema each; unset: the first existing schema of the connection's `search_path` (as set on the role or in `DATABASE_URL`'s `options=-c search_path=…`), usually `public`",
  } satisfies EnvVar<string | null>,
  PARLEY_PG_POOL_MAX: integer(
    1,
    1000,
    DEFAULT_PG_POOL_MAX,
    "PostgreSQL connections per instance (a connection serves one query per turn of the event loop; 10 became the queue at 1,000 operators); instances × this must stay under PostgreSQL's `max_connections`",
  ),
  PARLEY_LISTEN_BACKLOG: integer(
    1,
    65535,
    DEFAULT_LISTEN_BACKLOG,
    'connections the kernel holds for the server before it accepts them (capped by `net.core.somaxconn`, 4096 by default since Linux 5.4: raise it on older kernels, where it is 128); enough for every console reconnecting at once after a restart (`bench/operators.mjs --storm`)',
  ),
  PARLEY_WS_HEARTBEAT_MS: integer(
    100,
    600_000,
    20_000,
    'push heartbeat (dead sockets and revoked tokens are dropped within it)',
  ),
  PARLEY_EVENT_POLL_MS: integer(
    50,
    60_000,
    500,
    "without Redis, how often the event log is checked for other processes' events",
  ),
  PARLEY_ALLOWED_ORIGINS: {
    schema: z.preprocess(
      (raw) =>
        (given(raw) ?? '')
          .split(',')
          .map((o: string) => o.trim())
          .filter(Boolean),
      z.array(z.union([z.literal('*'), origin('https://chat.example.com')])),
    ),
    type: 'a comma-separated list of origins, or `*`',
    shown: 'unset',
    meaning:
      "origins whose pages may open the push sockets besides the server's own (the request's `Host`), e.g. `https://chat.example.com`, for a proxy that rewrites `Host`; `*`: any. Sockets without `Origin` (programs, not browsers) are accepted; another site's are refused with 403",
  } satisfies EnvVar<string[]>,
  PARLEY_PUBLIC_URL: {
    schema: z.preprocess(
      given,
      z
        .string()
        .transform((raw, ctx) => {
          let url: URL | null = null;
          try {
            url = new URL(raw);
          } catch {
            // not a URL
          }
          if (
            !url ||
            !/^https?:$/.test(url.protocol) ||
            url.search ||
            url.hash ||
            url.username ||
            url.password
          ) {
            ctx.addIssue({
              code: 'custom',
              message:
                'is not a public address (scheme://host[:port][/path], e.g. https://chat.example.com)',
            });
            return z.NEVER;
          }
          return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
        })
        .nullable()
        .default(null),
    ),
    type: 'an http:// or https:// URL (no query)',
    shown: 'unset',
    meaning:
      "the address at which the outside world reaches this server (behind a proxy: the proxy's), used for the addresses the console shows to paste elsewhere: a WhatsApp number's webhook URL (Meta needs https); unset, they are built from the request's own address",
  } satisfies EnvVar<string | null>,
  PARLEY_PUSH_HOSTS: hostList(
    DEFAULT_PUSH_HOSTS,
    "the Web Push services the server sends notifications to (a host or a parent domain each): a browser's subscription at any other host is refused (422002). The default holds Chrome's, Firefox's, Safari's and Edge's",
  ),
  PARLEY_PUSH_PRIVATE_HOSTS: hostList(
    [],
    'push services of PARLEY_PUSH_HOSTS allowed to resolve to a private or loopback address (a push service inside your network); every other push host must resolve to public addresses only',
  ),
  PARLEY_PUSH_CA_FILE: text(
    'a PEM file of extra certificate authorities trusted for the push services (one inside your network with its own CA)',
  ),
  PARLEY_PLATFORM_SECRET: text(
    "shared HMAC secret of the messaging platform's signed requests, both ways ([docs/platform-api.md](docs/platform-api.md)); unset, the inbound API `/v1/platform/...` refuses every request",
  ),
  PARLEY_PLATFORM_URL: url(
    ['http', 'https'],
    "where operators' messages and deletions are POSTed (the outbox); unset, accounts of channel `platform` send nowhere (or to the sandbox when it is on)",
  ),
  PARLEY_OUTBOX_MAX_ATTEMPTS: integer(1, 100, 8, 'outbound delivery: attempts before `failed`'),
  PARLEY_OUTBOX_RETRY_BASE_MS: integer(
    1,
    600_000,
    1_000,
    'outbound delivery: first retry delay (doubling, at most 5 min)',
  ),
  PARLEY_OUTBOX_LEASE_MS: integer(
    100,
    3_600_000,
    60_000,
    "outbound delivery: how long a dead worker's claim lasts",
  ),
  PARLEY_PLATFORM_TIMEOUT_MS: integer(
    100,
    120_000,
    10_000,
    'outbound delivery: per-request timeout',
  ),
  PARLEY_PLATFORM_UNVERIFIED_MAX_MB: decimal(
    0.01,
    1_000_000,
    256,
    'bytes held at once (memory and temp files) for platform bodies whose signature is not checked yet, in the whole process, in MB; a request beyond is refused unread with `Retry-After` (HTTP 503 `500005`), so forged requests cannot fill the disk ([docs/security.md](docs/security.md))',
  ),
  PARLEY_PLATFORM_UNVERIFIED_PER_ADDRESS_MAX_MB: decimal(
    0.01,
    1_000_000,
    128,
    'the same bound per client address (HTTP 429 `500003` beyond); keep it above the largest message (the largest media cap × 1.4)',
  ),
  PARLEY_PLATFORM_UNVERIFIED_MIN_KBPS: decimal(
    0.01,
    1_000_000,
    64,
    'the slowest pace a platform body whose signature is not checked yet may keep, in KB per second: after `PARLEY_PLATFORM_UNVERIFIED_GRACE_S` its read deadline moves a second per this many KB received; a body behind it loses its reservation and its connection (logged), so a trickle cannot hold the bound ([docs/security.md](docs/security.md))',
  ),
  PARLEY_PLATFORM_UNVERIFIED_GRACE_S: decimal(
    0.1,
    3600,
    10,
    'seconds an unverified platform body may take before its minimum pace applies',
  ),
  PARLEY_PLATFORM_UNVERIFIED_SLOW_BAN_S: decimal(
    0.1,
    86_400,
    60,
    'seconds a client address (an IPv6 address by its /64) whose body was cut for its pace is refused (HTTP 429 `500003`, `data.reason` `unverified_too_slow`, with `Retry-After`)',
  ),
  PARLEY_SANDBOX: onOffAuto(
    'the customer sandbox page `/sandbox` (anyone who reaches the server can play a customer through the bridge): `auto` = on only when the demo workspace was loaded into this database (at the first start or by `demo:load`; decided at start), `on` always, `off` never. A customer number is bound to the first browser that plays it; its media are signed URLs ([docs/api.md](docs/api.md#customer-sandbox))',
  ),
  PARLEY_METRICS_TOKEN: text(
    'bearer token of `GET /metrics` (Prometheus text format); unset, the endpoint is off (404) and nothing is collected',
    { minLength: 16 },
  ),
  PARLEY_SHUTDOWN_TIMEOUT_MS: integer(
    100,
    600_000,
    10_000,
    'on SIGTERM, how long the server may drain (requests in flight, outbox deliveries, push sockets) before it gives up and exits 1',
  ),
  PARLEY_SHUTDOWN_GRACE_MS: integer(
    0,
    600_000,
    5_000,
    'on SIGTERM, how long `/healthz` answers 503 while requests are still served, before the listener closes, so a load balancer stops routing here first ([docs/deploy.md](docs/deploy.md#stopping-and-rolling-restarts))',
  ),
  PARLEY_DELETE_FOR_ALL_WINDOW_MINUTES: integer(
    1,
    7 * 24 * 60,
    120,
    'how long after sending an operator may still delete a message for everyone',
  ),
  PARLEY_BATCH_RATE_PER_SECOND: decimal(
    0.01,
    1000,
    5,
    'batch replies: messages per second per seat (across every instance)',
  ),
  PARLEY_EXPORTS_AT_ONCE: integer(
    1,
    64,
    2,
    "the owner's CSV exports streaming at once in this process; one more is refused with HTTP 503 `500005` (`data.reason` `exports_busy`, `Retry-After`). On SQLite each export is read in a worker thread of its own (a CPU core's worth of work at a lower priority than the operators' calls); on PostgreSQL on the server's loop, giving the operators' calls a turn every few milliseconds",
  ),
  // Each channel's own variables: its configuration fragment (channels/channel-config.ts).
  ...CHANNEL_ENV,
} satisfies Record<string, EnvVar<unknown>>;

type Env = typeof ENV;
/** The environment, parsed: each variable's value (its default when unset). */
export type EnvValues = EnvValuesOf<Env>;

/** The one zod schema of the environment. */
export const ENV_SCHEMA = z.object(
  Object.fromEntries(Object.entries(ENV).map(([name, v]) => [name, v.schema])) as {
    [K in keyof Env]: Env[K]['schema'];
  },
);

/**
 * The environment parsed, or the list of bad variables, each named with what it must be
 * and what it was.
 */
export function parseEnv(
  env: NodeJS.ProcessEnv,
): { ok: true; values: EnvValues } | { ok: false; errors: string[] } {
  const parsed = ENV_SCHEMA.safeParse(env);
  if (parsed.success) return { ok: true, values: parsed.data as EnvValues };
  const errors = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0]) as keyof Env;
    if (errors.has(name)) continue;
    const spec: EnvVar<unknown> = ENV[name];
    const must = spec.explains ? `${spec.type}: ${issue.message}` : spec.type;
    errors.set(name, `${name} must be ${must}${spec.secret ? '' : ` (got "${env[name]}")`}`);
  }
  return { ok: false, errors: [...errors.values()] };
}

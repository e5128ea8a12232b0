import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import {
  CALLS,
  MEDIA_MAX_BYTES_DEFAULT,
  type CallInput,
  type CallPath,
  type CallResponse,
} from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { channelDefaults } from '../src/channels/channel-config.js';
import { DEFAULT_LISTEN_BACKLOG, type Config } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import type { Services } from '../src/services.js';

export const usingPg = process.env.PARLEY_TEST_DB === 'pg';

/**
 * PostgreSQL connections per app or server a test starts, not the production 40: two files run
 * at once, a file starts up to three instances, and a burst (an outbox release, a start's
 * parallel queries) fills a pool that then idles 10 s. At 40 the suite reached PostgreSQL's
 * 100 connections ("too many clients already", CI of 2026-11-27); at 10 it stays under 40.
 */
export const TEST_PG_POOL_MAX = 10;

export interface Answer<T = unknown> {
  status: number;
  code: string;
  msg: string;
  data: T;
  raw: string;
}

/** A fresh database: a temp SQLite file, or a PostgreSQL schema of its own. */
export async function createTestDatabaseConfig(
  overrides: Partial<Config> = {},
): Promise<{ config: Config; cleanup: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-test-'));
  const base: Config = {
    port: 0,
    host: '127.0.0.1',
    listenBacklog: DEFAULT_LISTEN_BACKLOG,
    dataDir,
    databaseUrl: null,
    pgSchema: null,
    pgPoolMax: TEST_PG_POOL_MAX,
    logLevel: 'silent',
    logFormat: 'json',
    trustProxy: false,
    tokenTtlHours: 168,
    demo: 'off',
    webDir: path.join(dataDir, 'no-web'),
    loginMaxFailures: 5,
    loginMaxFailuresPerIp: 1000,
    loginWindowSeconds: 900,
    // On, as in production, but every test's requests come from one address.
    rateLimit: { public: 10_000, platform: 100_000 },
    deleteForAllWindowMinutes: 120,
    batchRatePerSecond: 200,
    // No engine unless a test configures one; short back-off keeps retries quick.
    translation: { providers: [], timeoutMs: 10_000, retries: 2, retryDelayMs: 5 },
    mediaDir: path.join(dataDir, 'media'),
    mediaMaxBytes: { ...MEDIA_MAX_BYTES_DEFAULT },
    mediaSecret: null,
    // Each channel's settings at their defaults (a new channel's too), then the tests' own.
    ...channelDefaults(),
    // Nothing answers here: a test that binds a bot starts a Bot API server and overrides this.
    telegram: {
      apiUrl: 'http://127.0.0.1:9',
      polling: true,
      pollTimeoutSeconds: 1,
      scanIntervalMs: 100,
      leaseMs: 5_000,
    },
    // Meta's own Graph API unless a test starts a local one (channels/whatsapp/whatsapp.config.ts).
    whatsapp: {},
    platform: {
      secret: 'test-platform-secret',
      url: null,
      timeoutMs: 5_000,
      maxAttempts: 5,
      retryBaseMs: 20,
      leaseMs: 5_000,
    },
    sandbox: 'off',
    // Short heartbeats: a revoked token or a dead socket shows within a test's patience.
    realtime: { redisUrl: null, retentionHours: 24, heartbeatMs: 200, pollMs: 100 },
    ops: { metricsToken: null, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
  };
  if (!usingPg) {
    return {
      config: { ...base, ...overrides },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const url = process.env.PARLEY_TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    config: { ...base, databaseUrl: url, pgSchema: schema, ...overrides },
    cleanup: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: Db;
  services: Services;
  /** POST a call; the answer must be a coded envelope without a stack. */
  call<P extends CallPath>(
    path: P,
    body: CallInput<P> | Record<string, unknown>,
    token?: string | null,
  ): Promise<Answer<CallResponse<P>>>;
  raw(opts: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    payload?: string | Buffer;
    headers?: Record<string, string>;
  }): Promise<Answer>;
  close(): Promise<void>;
}

export function assertNoStack(raw: string) {
  if (/\bat .*\.(ts|js):\d+/.test(raw) || raw.includes('"stack"')) {
    throw new Error(`answer carries a stack: ${raw}`);
  }
}

function toAnswer(status: number, body: string): Answer {
  assertNoStack(body);
  const json = JSON.parse(body) as { code: string; msg: string; data: unknown };
  if (typeof json.code !== 'string' || typeof json.msg !== 'string' || !('data' in json)) {
    throw new Error(`not a coded envelope: ${body}`);
  }
  return { status, code: json.code, msg: json.msg, data: json.data, raw: body };
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const { config, cleanup } = await createTestDatabaseConfig(overrides);
  let app: FastifyInstance;
  try {
    app = await buildApp(config);
    await app.ready();
  } catch (err) {
    await cleanup();
    throw err;
  }
  return testAppOf(app, config, cleanup);
}

const servicesByDb = new WeakMap<Db, Services>();
/** The services of the test app built on `db`, if any (fixtures write to `db` by hand). */
export const servicesOf = (db: Db): Services | undefined => servicesByDb.get(db);

/** The TestApp of an app built by hand (e.g. several instances on one database). */
export function testAppOf(
  app: FastifyInstance,
  config: Config,
  cleanup: () => Promise<void> = async () => undefined,
): TestApp {
  const t: TestApp = {
    app,
    config,
    db: app.parley.database.db,
    services: app.parley.services,
    async call(path, body, token) {
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: token } : {}),
        },
        payload: JSON.stringify(body),
      });
      const answer = toAnswer(res.statusCode, res.body);
      // Every success answer must match the protocol's response schema.
      if (answer.code === '000000') {
        const parsed = CALLS[path].response.safeParse(answer.data);
        if (!parsed.success) {
          throw new Error(`${path} answer breaks the protocol: ${parsed.error.message}`);
        }
      }
      return answer as Answer<CallResponse<typeof path>>;
    },
    async raw(opts) {
      const res = await app.inject(opts);
      return toAnswer(res.statusCode, res.body);
    },
    async close() {
      await app.close();
      await cleanup();
    },
  };
  servicesByDb.set(t.db, t.services);
  return t;
}

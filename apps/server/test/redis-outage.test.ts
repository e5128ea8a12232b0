import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cliOk,
  post,
  seatWithChat,
  sendText,
  startServer,
  type ServerProcess,
} from './server-process.js';
import { PushClient } from './ws-client.js';

/**
 * Redis away, then back, under two instances of the built server on one PostgreSQL database
 * (docs/deploy.md, "Redis away"). The test owns its Redis: a private `redis-server` on a free
 * port, stopped and started again (never the machine's). The PostgreSQL project only.
 * The heartbeat stays at its default (20 s), so a socket closed within a second was not closed
 * by it.
 */
const adminUrl = process.env.PARLEY_TEST_DATABASE_URL!;
const dbName = `parley_redis_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-redis-'));
let redisPort = 0;
let redis: ChildProcess | null = null;
let env: Record<string, string>;
const servers: ServerProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function redisCli(...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(redisPort), ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

async function startRedis(): Promise<void> {
  const child = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  redis = child;
  for (let i = 0; i < 100; i++) {
    try {
      if (redisCli('ping').trim() === 'PONG') return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('private redis-server did not start');
}

async function stopRedis(): Promise<void> {
  const child = redis;
  redis = null;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** The instances subscribed to the notices channel, as Redis counts them. */
function subscribers(): number {
  const out = redisCli('pubsub', 'numsub', 'parley:events').trim().split('\n');
  return Number(out[1]);
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends through `from`; answers how long after the acknowledgement `console` had it (ms). */
async function sendAndTime(
  from: string,
  chat: { token: string; phone: string; customer: string },
  console: PushClient,
  content: string,
): Promise<number> {
  const res = await sendText(from, chat, content, content.replace(/[^a-z0-9]/g, '-'));
  expect(res.code).toBe('000000');
  const acked = Date.now();
  await console.waitForEvent('message.created', (d) => d.message.content === content);
  return Date.now() - acked;
}

let a: ServerProcess;
let b: ServerProcess;
beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  redisPort = await freePort();
  await startRedis();
  env = {
    DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${dbName}`),
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    PARLEY_DATA_DIR: dataDir,
    PARLEY_DEMO: 'off',
  };
  a = await startServer(env);
  servers.push(a);
  b = await startServer(env);
  servers.push(b);
  await until(() => subscribers() === 2, 'both instances subscribed');
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await stopRedis();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Redis away, then back', () => {
  it('a console on B sees within 1 s what A sent; an instance starts without Redis and subscribes when it returns', async () => {
    const chat = await seatWithChat(env, a.base, 'redis-op', '+15550500001', '+447700900501');
    const onB = await PushClient.open(b.base, { token: chat.token, last_event_id: 0 });
    try {
      await onB.waitFor('ready');
      expect(await sendAndTime(a.base, chat, onB, 'with redis')).toBeLessThan(1000);

      await stopRedis();
      // Three sends while Redis is down, each seen on B within a second of its acknowledgement.
      for (const n of [1, 2, 3]) {
        expect(await sendAndTime(a.base, chat, onB, `redis down ${n}`)).toBeLessThan(1000);
      }

      // A third instance starts during the outage, serves, and its consoles get A's messages.
      const c = await startServer(env);
      servers.push(c);
      const onC = await PushClient.open(c.base, { token: chat.token, last_event_id: 0 });
      try {
        await onC.waitFor('ready');
        expect(await sendAndTime(a.base, chat, onC, 'redis down 4')).toBeLessThan(1000);
        expect(c.child.exitCode).toBeNull();

        // Redis returns: all three subscribe again, by themselves, and notices flow.
        await startRedis();
        await until(() => subscribers() === 3, 'three instances subscribed');
        expect(await sendAndTime(a.base, chat, onC, 'redis back')).toBeLessThan(1000);
        expect(await sendAndTime(c.base, chat, onB, 'redis back from C')).toBeLessThan(1000);
      } finally {
        onC.close();
      }
      // Nothing was pushed twice or skipped: B's event ids follow each other.
      const ids = onB.events().map((e) => e.id);
      expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    } finally {
      onB.close();
    }
  }, 90_000);

  /** Logs the seat in again and opens a console on B. */
  async function consoleOnB(account: string) {
    const login = await post(a.base, '/v1/seat/chat/login', {
      account,
      password: 'correct-horse-1',
    });
    expect(login.code).toBe('000000');
    const token = login.data.token as string;
    const console = await PushClient.open(b.base, { token, last_event_id: 0 });
    await console.waitFor('ready');
    return { token, console };
  }

  /** The console on B is closed as signed out within 1 s of `revoke` returning. */
  async function closedWithinASecond(console: PushClient, revoke: () => Promise<unknown>) {
    await revoke();
    const closed = await console.waitForClose(1000);
    expect(closed.code).toBe(4001);
  }

  for (const redisUp of [true, false]) {
    it(`a logout on A, a freeze and a new password by the CLI close the seat's sockets on B within 1 s (Redis ${redisUp ? 'up' : 'down'})`, async () => {
      if (redisUp && !redis) await startRedis();
      if (!redisUp) await stopRedis();
      const account = `revoke-${redisUp ? 'up' : 'down'}`;
      await seatWithChat(
        env,
        a.base,
        account,
        redisUp ? '+15550500002' : '+15550500003',
        '+447700900502',
      );

      const first = await consoleOnB(account);
      await closedWithinASecond(first.console, () =>
        post(a.base, '/v1/seat/chat/logout', {}, first.token).then((res) =>
          expect(res.code).toBe('000000'),
        ),
      );

      const second = await consoleOnB(account);
      await closedWithinASecond(second.console, () => cliOk(env, 'seat:freeze', account));
      await cliOk(env, 'seat:unfreeze', account);

      const third = await consoleOnB(account);
      await closedWithinASecond(third.console, () =>
        cliOk(env, 'seat:reset-password', account, '--password', 'correct-horse-1'),
      );
      // The ended login is refused on B too.
      const after = await post(b.base, '/v1/seat/chat/getGroupList', {}, third.token);
      expect(after.code).toBe('400002');
    }, 60_000);
  }
});

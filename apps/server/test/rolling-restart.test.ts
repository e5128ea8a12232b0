import { createServer, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PUSH_CLOSE } from '@parley/protocol';
import { listenOnLoopback } from './loopback.js';
import { seatWithChat, sendText, startServer, type ServerProcess } from './server-process.js';
import { PushClient } from './ws-client.js';

/**
 * A rolling restart of one of two instances of the built server on one PostgreSQL database and
 * Redis (docs/deploy.md), while a client keeps sending and a console keeps its push socket.
 * The PostgreSQL project only, like instances.test.ts.
 */
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const adminUrl = process.env.PARLEY_TEST_DATABASE_URL!;
const dbName = `parley_roll_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-roll-'));
const SECRET = 'rolling-restart-platform-secret';

/** The platform: takes every message (by Parley's id), or holds the answers while `hold`. */
const platform = {
  hold: false,
  held: [] as ServerResponse[],
  delivered: new Set<number>(),
  release() {
    this.hold = false;
    for (const res of this.held.splice(0)) if (!res.destroyed) answer(res);
  },
};
function answer(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ external_id: `ext-${randomBytes(4).toString('hex')}` }));
}
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { msg_id: number };
    if (platform.hold) {
      platform.held.push(res);
      // Counted as delivered only once answered.
      res.once('finish', () => platform.delivered.add(body.msg_id));
      return;
    }
    answer(res);
    platform.delivered.add(body.msg_id);
  });
});

let env: Record<string, string>;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  const platformUrl = await listenOnLoopback(receiver);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  env = {
    DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${dbName}`),
    REDIS_URL,
    PARLEY_DATA_DIR: dataDir,
    PARLEY_DEMO: 'off',
    PARLEY_WS_HEARTBEAT_MS: '1000',
    PARLEY_PLATFORM_URL: `${platformUrl}/parley`,
    PARLEY_PLATFORM_SECRET: SECRET,
    // Only a released claim can explain a delivery within the test: the lease is 10 minutes,
    // and a held request would not time out before it either.
    PARLEY_OUTBOX_LEASE_MS: '600000',
    PARLEY_PLATFORM_TIMEOUT_MS: '60000',
    PARLEY_SHUTDOWN_TIMEOUT_MS: '4000',
  };
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
}, 60_000);

afterAll(async () => {
  platform.release();
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a rolling restart on PostgreSQL and Redis', () => {
  it('loses no acknowledged message and no push event; the stopped instance hands its outbox claims over at once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const chat = await seatWithChat(env, a.base, 'roll-op', '+15550500001', '+447700900501');

    // The console's socket on A; when A closes it for a restart, the console comes back on B
    // with its last event id (what apps/web's push connection does behind a load balancer).
    const consoles: PushClient[] = [await PushClient.open(a.base, { token: chat.token })];
    await consoles[0]!.waitFor('ready');
    const events = () => consoles.flatMap((c) => c.events());

    // The client: sends to its instance; refused or cut off, the next one gets the same
    // message (same client_msg_id: never a duplicate). Acknowledged = answered 000000.
    let target = a.base;
    const acked: number[] = [];
    let n = 0;
    let sending = true;
    const client = (async () => {
      while (sending) {
        const id = ++n;
        for (let tries = 0; ; tries++) {
          const base = target;
          try {
            const res = await sendText(base, chat, `roll ${id}`, `rolling-message-${id}`);
            expect(res.code).toBe('000000');
            acked.push(res.data.msg_id as number);
            break;
          } catch (err) {
            // The load balancer's part: an instance that refuses is taken out.
            if (tries > 20) throw err;
            if (base === a.base) target = b.base;
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      }
    })();
    const acks = (count: number) =>
      vi.waitFor(() => expect(acked.length).toBeGreaterThanOrEqual(count), {
        timeout: 15_000,
        interval: 10,
      });

    await acks(20);
    // The platform stops answering: A's worker holds claims on the items it is delivering.
    platform.hold = true;
    await vi.waitFor(() => expect(platform.held.length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
    });
    const stopping = a.stop('SIGTERM');
    // Draining: the console is told to reconnect at once, the health check says so.
    await consoles[0]!.until(() => consoles[0]!.closed ?? undefined, 'close', 4000);
    expect(consoles[0]!.closed!.code).toBe(PUSH_CLOSE.SERVICE_RESTART);
    const health = await fetch(`${a.base}/healthz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(health);
    const lastSeen = events().at(-1)?.id ?? 0;
    const resumed = await PushClient.open(b.base, { token: chat.token, last_event_id: lastSeen });
    consoles.push(resumed);
    expect((await resumed.waitFor('ready')).kind).toBe('ready');

    // 0: drained within PARLEY_SHUTDOWN_TIMEOUT_MS (past it, the server exits 1).
    expect(await stopping).toBe(0);
    expect(a.output()).toContain('outbox deliveries still running at shutdown released');
    platform.release();

    // A comes back (the rolling restart's second half) and takes traffic again.
    const a2 = await startServer(env);
    servers.push(a2);
    const before = acked.length;
    await acks(before + 10);
    target = a2.base;
    await acks(acked.length + 10);
    sending = false;
    await client;

    // Every acknowledged message: stored once, delivered to the platform (B took A's claims
    // long before their lease), and pushed to the console without a gap in its event ids.
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: number }>(
        'select id from messages where session_id = (select session_id from messages where id = $1)',
        [acked[0]],
      );
      const stored = new Set(rows.map((r) => Number(r.id)));
      expect(acked.filter((id) => !stored.has(id))).toEqual([]);
      expect(new Set(acked).size).toBe(acked.length);
    } finally {
      await db.end();
    }
    await vi.waitFor(() => expect(acked.filter((id) => !platform.delivered.has(id))).toEqual([]), {
      timeout: 15_000,
      interval: 50,
    });
    await vi.waitFor(
      () => {
        const created = new Set(
          events()
            .filter((e) => e.type === 'message.created')
            .map((e) => (e.data as { message: { msg_id: number } }).message.msg_id),
        );
        expect(acked.filter((id) => !created.has(id))).toEqual([]);
      },
      { timeout: 15_000, interval: 50 },
    );
    const ids = events().map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    consoles.forEach((c) => c.close());
  }, 90_000);
});

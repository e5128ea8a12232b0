import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReceiver } from './platform-receiver.js';
import { PrivatePostgres } from './private-postgres.js';
import { post, seatWithChat, startServer, type ServerProcess } from './server-process.js';

/**
 * PostgreSQL goes away under load and comes back (docs/deploy.md, "When PostgreSQL goes
 * away"): the built server keeps running, answers 500005 "database unavailable" meanwhile,
 * its health check says so, it serves again as soon as the database is back, its outbox
 * delivers what was acknowledged, and every acknowledged message is stored once. The
 * database is a private cluster of this test's own (initdb/pg_ctl): the PostgreSQL project
 * only (vitest.config.ts leaves it out of the SQLite one).
 */
const SECRET = 'outage-platform-secret';
const PHONE = '+15550007001';
const SENDERS = 6;
/** What the issue promises: an answer while the database is away, service once it is back. */
const ANSWER_WITHIN_MS = 5_000;
const BACK_WITHIN_MS = 2_000;

interface Attempt {
  clientMsgId: string;
  startedAt: number;
  ms: number;
  status: number;
  /** The envelope, or what came instead (a reset, a body that is not an envelope). */
  code: string;
  data: unknown;
  raw: string;
}

let cluster: PrivatePostgres;
let server: ServerProcess;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let env: Record<string, string>;
let token: string;
const customers: string[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-outage-'));

beforeAll(async () => {
  cluster = await new PrivatePostgres().create();
  await cluster.query('postgres', 'create database parley');
  receiver = await startReceiver(SECRET, () => 200);
  env = {
    DATABASE_URL: cluster.url('parley'),
    PARLEY_DATA_DIR: dataDir,
    PARLEY_DEMO: 'off',
    PARLEY_PLATFORM_URL: receiver.url,
    PARLEY_PLATFORM_SECRET: SECRET,
    PARLEY_OUTBOX_RETRY_BASE_MS: '20',
    PARLEY_OUTBOX_MAX_ATTEMPTS: '100',
    PARLEY_OUTBOX_LEASE_MS: '2000',
  };
  server = await startServer(env);
  const chat = await seatWithChat(env, server.base, 'outage', PHONE, '+447700900000');
  token = chat.token;
  customers.push(chat.customer);
  for (let i = 1; i < SENDERS; i++) {
    const customer = `+44770090000${i}`;
    const added = await post(
      server.base,
      '/v1/seat/chat/addSession',
      {
        send_phone: PHONE,
        receiver_phone: customer,
        greeting: 'Hi',
        client_msg_id: `outage-add-${i}`,
      },
      token,
    );
    expect(added.code, added.msg).toBe('000000');
    customers.push(customer);
  }
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await receiver?.close();
  await cluster?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

async function send(clientMsgId: string, customer: string): Promise<Attempt> {
  const startedAt = Date.now();
  let status = 0;
  let raw = '';
  try {
    const res = await fetch(`${server.base}/v1/seat/chat/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({
        send_phone: PHONE,
        receiver_phone: customer,
        type: 'text',
        content: clientMsgId,
        client_msg_id: clientMsgId,
      }),
    });
    status = res.status;
    raw = await res.text();
  } catch (err) {
    raw = `network error: ${(err as Error).message}`;
  }
  const ms = Date.now() - startedAt;
  try {
    const { code, data } = JSON.parse(raw) as { code: string; data: unknown };
    return { clientMsgId, startedAt, ms, status, code, data, raw };
  } catch {
    return { clientMsgId, startedAt, ms, status, code: 'none', data: null, raw };
  }
}

/**
 * Senders as the console's outbox is one: each message is sent until it is acknowledged, with
 * the same client_msg_id, a moment apart after a refusal.
 */
function startSenders(prefix: string) {
  const attempts: Attempt[] = [];
  /** client_msg_id → the acknowledged message id. */
  const acknowledged = new Map<string, number>();
  let stopping = false;
  // A test that failed midway leaves no sender running: each gives up after a minute.
  const until = Date.now() + 60_000;
  const loops = customers.map(async (customer, s) => {
    for (let i = 0; !stopping && Date.now() < until; i++) {
      const id = `${prefix}-sender-${s}-${i}`;
      while (Date.now() < until) {
        const a = await send(id, customer);
        attempts.push(a);
        if (a.code === '000000') {
          acknowledged.set(id, (a.data as { msg_id: number }).msg_id);
          break;
        }
        await sleep(50);
      }
    }
  });
  return {
    attempts,
    acknowledged,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

async function health(): Promise<{ status: number; body: string }> {
  try {
    const res = await fetch(`${server.base}/healthz`);
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: 0, body: (err as Error).message };
  }
}

/** Waits until a send started now is acknowledged; answers how long that took. */
async function firstServedAfter(from: number, customer: string): Promise<number> {
  for (let i = 0; ; i++) {
    const a = await send(`probe-${from}-${i}`, customer);
    if (a.code === '000000') return Date.now() - from;
    if (Date.now() - from > 30_000) throw new Error(`not served again: ${a.raw}`);
    await sleep(20);
  }
}

/** Every refusal was 500005 with its reason, never a fault, a reset or a stack. */
function expectOnlyBusyRefusals(attempts: Attempt[]) {
  const refused = attempts.filter((a) => a.code !== '000000');
  const other = refused.filter(
    (a) =>
      a.status !== 200 ||
      a.code !== '500005' ||
      (a.data as { reason?: unknown } | null)?.reason !== 'database unavailable',
  );
  expect(other.map((a) => `${a.status} ${a.raw}`).slice(0, 5)).toEqual([]);
  for (const a of refused) expect(a.raw).not.toMatch(/\bat .+\.js:\d+/);
  return refused;
}

/** Each acknowledged message is stored once, as the id it was acknowledged with. */
async function expectStoredOnce(prefix: string, acknowledged: Map<string, number>) {
  const rows = await cluster.query<{ client_msg_id: string; ids: number[] }>(
    'parley',
    `select client_msg_id, array_agg(id order by id) as ids from messages
      where client_msg_id like '${prefix}-%' group by client_msg_id`,
  );
  const stored = new Map(rows.map((r) => [r.client_msg_id, r.ids.map(Number)]));
  expect(acknowledged.size).toBeGreaterThan(SENDERS * 3);
  for (const [id, msgId] of acknowledged) expect(stored.get(id), id).toEqual([msgId]);
  // Nothing stored that was never acknowledged (every sender sends until acknowledged).
  expect([...stored.keys()].sort()).toEqual([...acknowledged.keys()].sort());
}

async function expectDelivered(acknowledged: Map<string, number>) {
  await vi.waitFor(
    () => {
      const missing = [...acknowledged.values()].filter(
        (id) => !receiver.delivered.has(`parley-${id}-message`),
      );
      expect(missing).toEqual([]);
    },
    { timeout: 20_000, interval: 100 },
  );
}

async function untilAcknowledged(senders: ReturnType<typeof startSenders>, n: number) {
  await vi.waitFor(() => expect(senders.acknowledged.size).toBeGreaterThanOrEqual(n), {
    timeout: 20_000,
    interval: 20,
  });
}

describe('PostgreSQL away, then back', () => {
  it('stopped under load: 500005 meanwhile, health 503, served again once it returns, nothing lost or doubled', async () => {
    const senders = startSenders('stop');
    await untilAcknowledged(senders, SENDERS * 3);

    await cluster.stop();
    const stoppedAt = Date.now();
    // The health check says why, and keeps saying it.
    await vi.waitFor(
      async () =>
        expect(await health()).toEqual({ status: 503, body: '{"status":"database unavailable"}' }),
      { timeout: ANSWER_WITHIN_MS, interval: 50 },
    );
    // Any call, not only sends: a login (the throttle is counted in the database).
    const login = await fetch(`${server.base}/v1/seat/chat/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'outage', password: 'correct-horse-1' }),
    });
    expect(login.status).toBe(200);
    expect(await login.json()).toEqual({
      code: '500005',
      msg: 'Server busy',
      data: { reason: 'database unavailable' },
    });
    await sleep(Math.max(0, stoppedAt + 4_000 - Date.now()));
    expect(await health()).toEqual({ status: 503, body: '{"status":"database unavailable"}' });
    expect(server.child.exitCode).toBeNull();

    const startingAt = Date.now();
    await cluster.start();
    const backAt = Date.now();
    const servedAfter = await firstServedAfter(backAt, customers[0]!);
    const healthy = await health();
    await untilAcknowledged(senders, senders.acknowledged.size + SENDERS * 2);
    await senders.stop();

    expect(server.child.exitCode).toBeNull();
    expect(healthy).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(servedAfter).toBeLessThan(BACK_WITHIN_MS);
    // Sends made while it was away were answered, and promptly, with the coded refusal.
    const away = senders.attempts.filter(
      (a) => a.startedAt > stoppedAt && a.startedAt + a.ms < startingAt,
    );
    const refused = expectOnlyBusyRefusals(senders.attempts);
    expect(away.length).toBeGreaterThan(SENDERS);
    expect(away.filter((a) => a.code !== '500005').map((a) => a.raw)).toEqual([]);
    expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(ANSWER_WITHIN_MS);
    await expectStoredOnce('stop', senders.acknowledged);
    await expectDelivered(senders.acknowledged);
    // The list versions' LISTEN connection is back too.
    await vi.waitFor(
      async () =>
        expect(
          await cluster.query(
            'parley',
            "select 1 from pg_stat_activity where application_name = 'parley list versions'",
          ),
        ).toHaveLength(1),
      { timeout: 10_000, interval: 100 },
    );
    console.info(
      `pg stopped: ${refused.length} refusals (slowest ${Math.max(...refused.map((a) => a.ms))} ms), served ${servedAfter} ms after PostgreSQL returned, ${senders.acknowledged.size} acknowledged`,
    );
  }, 60_000);

  it('its connections terminated under load (pg_terminate_backend): it carries on, nothing lost or doubled', async () => {
    const senders = startSenders('kill');
    await untilAcknowledged(senders, SENDERS * 3);
    const terminate = () =>
      cluster.query<{ n: number }>(
        'parley',
        `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
          where datname = 'parley' and pid <> pg_backend_pid()) t`,
      );
    const [first] = await terminate();
    const killedAt = Date.now();
    expect(first!.n).toBeGreaterThan(1);
    await sleep(200);
    await terminate();
    const servedAfter = await firstServedAfter(Date.now(), customers[0]!);
    await untilAcknowledged(senders, senders.acknowledged.size + SENDERS * 2);
    await senders.stop();

    expect(server.child.exitCode).toBeNull();
    expect(await health()).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect(servedAfter).toBeLessThan(BACK_WITHIN_MS);
    const refused = expectOnlyBusyRefusals(senders.attempts);
    expect(senders.attempts.some((a) => a.startedAt >= killedAt && a.code === '000000')).toBe(true);
    await expectStoredOnce('kill', senders.acknowledged);
    await expectDelivered(senders.acknowledged);
    console.info(
      `pg_terminate_backend: ${refused.length} refusals, served ${servedAfter} ms after, ${senders.acknowledged.size} acknowledged`,
    );
  }, 60_000);
});

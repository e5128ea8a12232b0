import { execFile, spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';
import { startReceiver } from './platform-receiver.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SECRET = 'durability-secret';
const ACCOUNT = '+15550009001';
const CUSTOMER = '+447700900123';
const TOTAL = 60;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

// The built server (needs `npm run build`), killed with SIGKILL while it delivers. The
// embedded database only: the PostgreSQL project leaves this file out.
describe('outbox durability', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-durability-'));
  let child: ChildProcess | null = null;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every acknowledged message reaches the receiver once, across a SIGKILL', async () => {
    // Fails every other request: half of all deliveries must be retried.
    const receiver = await startReceiver(SECRET, (n) => (n % 2 === 0 ? 503 : 200));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PARLEY_DATA_DIR: dataDir,
      PARLEY_DEMO: 'off',
      LOG_LEVEL: 'error',
      PARLEY_PLATFORM_URL: receiver.url,
      PARLEY_PLATFORM_SECRET: SECRET,
      PARLEY_OUTBOX_RETRY_BASE_MS: '10',
      PARLEY_OUTBOX_MAX_ATTEMPTS: '100',
      PARLEY_OUTBOX_LEASE_MS: '500',
    };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, [CLI, ...args], { env });

    const start = async () => {
      child = spawn(process.execPath, [MAIN], { env, stdio: 'ignore' });
      await vi.waitFor(async () => expect((await fetch(`${base}/healthz`)).ok).toBe(true), {
        timeout: 20_000,
        interval: 50,
      });
    };
    await cli('seat:create', 'durable', '--password', 'correct-horse-1');
    await cli('account:add', ACCOUNT);
    await cli('account:assign', ACCOUNT, 'durable');
    await start();

    const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      const res = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: text,
      });
      return (await res.json()) as { code: string; data: Record<string, unknown> };
    };
    const inbound = {
      id: 'first',
      account: ACCOUNT,
      customer: CUSTOMER,
      type: 'text',
      content: 'hi',
    };
    const text = JSON.stringify(inbound);
    await fetch(`${base}${PLATFORM_PATHS.message}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(SECRET, text) },
      body: text,
    });
    const login = await post('/v1/seat/chat/login', {
      account: 'durable',
      password: 'correct-horse-1',
    });
    const token = String(login.data.token);

    // The stream: each message is sent until the API acknowledges it (same client_msg_id,
    // as the console's outbox does); the server is killed a third of the way through.
    const acknowledged = new Set<number>();
    let killed = false;
    for (let i = 0; i < TOTAL; i++) {
      if (i === Math.floor(TOTAL / 3)) {
        child!.kill('SIGKILL');
        await new Promise((resolve) => child!.once('exit', resolve));
        killed = true;
      }
      for (;;) {
        try {
          const res = await post(
            '/v1/seat/chat/message',
            {
              send_phone: ACCOUNT,
              receiver_phone: CUSTOMER,
              type: 'text',
              content: `message ${i}`,
              client_msg_id: `durable-${String(i).padStart(4, '0')}`,
            },
            { authorization: token },
          );
          expect(res.code).toBe('000000');
          acknowledged.add(Number(res.data.msg_id));
          break;
        } catch (err) {
          if (!killed) throw err;
          await start(); // the server is down: bring it back, then send the same message again
        }
      }
    }
    expect(acknowledged.size).toBe(TOTAL);

    const keyOf = (id: number) => `parley-${id}-message`;
    await vi.waitFor(
      () => {
        for (const id of acknowledged) expect(receiver.delivered.has(keyOf(id))).toBe(true);
      },
      { timeout: 60_000, interval: 50 },
    );
    const accepted = receiver.raw.filter((r) => r.answered === 200);
    const distinct = new Set(accepted.map((r) => r.key));
    // Exactly the acknowledged messages, each once after deduplication on the key.
    expect([...distinct].sort()).toEqual([...acknowledged].map(keyOf).sort());
    expect(receiver.delivered.size).toBe(TOTAL);
    // At-least-once on the wire: the raw count may exceed the distinct one (a delivery whose
    // answer the killed server never recorded is sent again with the same key).
    expect(accepted.length).toBeGreaterThanOrEqual(distinct.size);
    expect(receiver.raw.every((r) => r.signature === 'ok')).toBe(true);
    // Half of the requests failed, and were retried.
    expect(receiver.raw.filter((r) => r.answered === 503).length).toBeGreaterThan(TOTAL / 3);
    console.info(
      `durability: ${acknowledged.size} acknowledged, ${distinct.size} distinct delivered, ` +
        `${accepted.length} accepted raw, ${receiver.raw.length} requests`,
    );

    // The server's own record agrees: every item done, none failed or left behind. (A delivery
    // the killed server made but did not record is made again after its lease; that answer may
    // be a 503 and its retry still due when the receiver already has every message.)
    const outboxRows = () => {
      const db = new Database(path.join(dataDir, 'parley.db'), { readonly: true });
      try {
        return db.prepare('select status, count(*) as n from outbox group by status').all();
      } finally {
        db.close();
      }
    };
    await vi.waitFor(() => expect(outboxRows()).toEqual([{ status: 'done', n: TOTAL }]), {
      timeout: 30_000,
      interval: 50,
    });
    child!.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
    await receiver.close();
    expect(outboxRows()).toEqual([{ status: 'done', n: TOTAL }]);
  }, 120_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedHeaders } from '../src/channels/platform/platform-signature.js';
import { cliOk, startServer, type ServerProcess } from './server-process.js';
import { PushClient } from './ws-client.js';

/**
 * Two instances of the built server (`npm start`) on one PostgreSQL database and one Redis, as
 * docs/deploy.md runs them. The PostgreSQL project only (CI sets PARLEY_TEST_DATABASE_URL;
 * Redis runs on 127.0.0.1:6379 there).
 */
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const adminUrl = process.env.PARLEY_TEST_DATABASE_URL!;
const dbName = `parley_two_${randomBytes(4).toString('hex')}`;
const databaseUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-two-'));
const env = {
  DATABASE_URL: databaseUrl,
  REDIS_URL,
  PARLEY_DATA_DIR: dataDir,
  PARLEY_DEMO: 'off',
  PARLEY_WS_HEARTBEAT_MS: '1000',
  PARLEY_PLATFORM_SECRET: 'two-platform-secret',
};

const servers: ServerProcess[] = [];
const cli = (...argv: string[]) => cliOk(env, ...argv);

async function call(base: string, urlPath: string, body: unknown, token?: string) {
  const res = await fetch(base + urlPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (await res.json()) as { code: string; data: any };
}

let a: string;
let b: string;
beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  // Both start at once on the empty database: the migrations take a lock.
  servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  [a, b] = servers.map((s) => s.base) as [string, string];
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two instances on PostgreSQL and Redis', () => {
  it('pushes to a console on instance B what happened on instance A and in the CLI', async () => {
    const phone = '+15550100001';
    await cli('seat:create', 'two-op', '--password', 'correct-horse-1');
    await cli('account:add', phone);
    await cli('account:assign', phone, 'two-op');
    const login = await call(a, '/v1/seat/chat/login', {
      account: 'two-op',
      password: 'correct-horse-1',
    });
    expect(login.code).toBe('000000');
    const token = login.data.token as string;

    const onB = await PushClient.open(b, { token, last_event_id: 0 });
    try {
      await onB.waitFor('ready');
      // The operator starts a chat and writes on A.
      const added = await call(
        a,
        '/v1/seat/chat/addSession',
        {
          send_phone: phone,
          receiver_phone: '+447700900123',
          greeting: 'Hello from A',
          client_msg_id: 'two-add-1',
        },
        token,
      );
      expect(added.code).toBe('000000');
      const created = await onB.waitForEvent(
        'message.created',
        (d) => d.message.content === 'Hello from A',
      );
      expect(created.data).toMatchObject({ session: { receiver_phone: '+447700900123' } });
      // The customer answers through another process (the CLI announces it on Redis).
      await cli('chat:receive', phone, '+447700900123', 'Hi, B!');
      await onB.waitForEvent('message.created', (d) => d.message.content === 'Hi, B!');
      const ids = onB.events().map((e) => e.id);
      expect(ids).toEqual(ids.map((_, i) => i + 1));
    } finally {
      onB.close();
    }
  });

  it("a new customer's webhooks at once on both instances: one chat, every message once, counts right", async () => {
    const phone = '+15550100002';
    await cli('seat:create', 'two-inbound', '--password', 'correct-horse-1');
    await cli('account:add', phone);
    await cli('account:assign', phone, 'two-inbound');
    const login = await call(a, '/v1/seat/chat/login', {
      account: 'two-inbound',
      password: 'correct-horse-1',
    });
    const token = login.data.token as string;
    const onB = await PushClient.open(b, { token, last_event_id: 0 });
    try {
      await onB.waitFor('ready');
      const customers = Array.from({ length: 5 }, (_, i) => `+44770090020${i}`);
      for (const customer of customers) {
        // Four at once, two to each instance: their group commits race for the new chat.
        const answers = await Promise.all(
          [a, b, a, b].map(async (base, i) => {
            const body = JSON.stringify({
              id: `two-in-${customer}-${i}`,
              account: phone,
              customer,
              type: 'text',
              content: `${customer} #${i}`,
            });
            const res = await fetch(`${base}/v1/platform/messages`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                ...signedHeaders(env.PARLEY_PLATFORM_SECRET, body),
              },
              body,
            });
            return ((await res.json()) as { code: string }).code;
          }),
        );
        expect(answers).toEqual(['000000', '000000', '000000', '000000']);
      }
      await onB.until(
        () => onB.events().filter((e) => e.type === 'message.created').length >= 20 || undefined,
        '20 messages',
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const events = onB.events();
      const contents = events
        .filter((e) => e.type === 'message.created')
        .map((e) => (e.data as { message: { content: string } }).message.content);
      expect(contents.sort()).toEqual(
        customers.flatMap((c) => [0, 1, 2, 3].map((i) => `${c} #${i}`)).sort(),
      );
      expect(events.filter((e) => e.type === 'session.created')).toHaveLength(5);
      const list = await call(b, '/v1/seat/chat/getGroupList', {}, token);
      expect(list.data.un_read_count).toBe(20);
      // Every chat in Ungrouped, which holds all 20 unread.
      const group = (list.data.group_list as { group_id: number; un_read: number }[]).find(
        (g) => g.un_read === 20,
      );
      const info = await call(
        b,
        '/v1/seat/chat/getGroupInfo',
        { group_id: group!.group_id, user_time_type: 1, page_size: 50 },
        token,
      );
      expect(info.data.total).toBe(5);
      expect(
        (info.data.account_list as { un_read_count: number }[]).map((s) => s.un_read_count),
      ).toEqual([4, 4, 4, 4, 4]);
    } finally {
      onB.close();
    }
  });

  it('counts failed logins across instances', async () => {
    await cli('seat:create', 'two-throttle', '--password', 'correct-horse-1');
    for (let i = 0; i < 5; i++) {
      const base = i % 2 === 0 ? a : b;
      const res = await call(base, '/v1/seat/chat/login', {
        account: 'two-throttle',
        password: 'wrong-password',
      });
      expect(res.code).toBe('100005');
    }
    // The sixth try is refused on either instance, the right password included.
    for (const base of [a, b]) {
      const res = await call(base, '/v1/seat/chat/login', {
        account: 'two-throttle',
        password: 'correct-horse-1',
      });
      expect(res.code).toBe('500003');
    }
  });
});

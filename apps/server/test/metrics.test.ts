import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalDeepl } from './engine-servers.js';
import { createSeat, PASSWORD, type SeatFixture } from './fixtures.js';
import { createTestApp, usingPg, type TestApp } from './helper.js';
import { platformAt, platformChat, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { families, valueOf } from './prometheus.js';
import { PushClient } from './ws-client.js';

const TOKEN = 'metrics-token-0123456789abcdef';

let t: TestApp;
let base: string;
let seat: SeatFixture;
let deepl: LocalDeepl;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  // The platform refuses (for good) what says "refuse"; everything else it takes.
  receiver = await startReceiver(SECRET, (_n, body) =>
    body.kind === 'message' && body.content === 'refuse' ? 400 : 200,
  );
  deepl = await new LocalDeepl('metrics-key').start();
  t = await createTestApp({
    ops: { metricsToken: TOKEN, shutdownTimeoutMs: 10_000, shutdownGraceMs: 0 },
    platform: platformAt(receiver.url),
    translation: {
      providers: [{ name: 'deepl', authKey: 'metrics-key', apiUrl: deepl.url }],
      timeoutMs: 5_000,
      retries: 0,
      retryDelayMs: 5,
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'metrics-op');
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await deepl?.stop();
});

async function scrape(authorization: string | null = `Bearer ${TOKEN}`) {
  const res = await fetch(`${base}/metrics`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

let n = 0;
const send = (customer: string, content: string) =>
  t.call(
    '/v1/seat/chat/message',
    {
      send_phone: seat.phones[0]!,
      receiver_phone: customer,
      type: 'text',
      content,
      client_msg_id: `metrics-${++n}`,
    },
    seat.token,
  );

const MESSAGE = { method: 'POST', route: '/v1/seat/chat/message' };

describe('GET /metrics', () => {
  it('refuses without the token or with a wrong one, and is off without a configured token', async () => {
    const none = await scrape(null);
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('parley_');
    const wrong = await scrape(`Bearer ${TOKEN.slice(0, -1)}x`);
    expect(wrong.status).toBe(401);
    expect((await scrape(TOKEN)).status).toBe(401); // not a bearer credential

    const off = await createTestApp();
    try {
      const res = await off.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body).code).toBe('404001');
    } finally {
      await off.close();
    }
  });

  it('answers the Prometheus text format with every family', async () => {
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(type).toContain('version=0.0.4');
    const names = families(text);
    for (const family of [
      'parley_http_request_duration_seconds',
      'parley_push_sockets_open',
      'parley_push_events_sent_total',
      'parley_outbox_pending',
      'parley_outbox_failed',
      'parley_outbox_oldest_pending_age_seconds',
      'parley_outbox_deliveries_total',
      'parley_translation_engine_calls_total',
      'parley_translation_engine_characters_total',
      'parley_translation_memory_hits_total',
      'parley_login_failures_total',
      'parley_login_throttled_total',
      usingPg ? 'parley_db_pool_connections' : 'parley_sqlite_wal_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
    ]) {
      expect(names, family).toContain(family);
    }
    if (usingPg) {
      expect(valueOf(text, 'parley_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    }
  });

  it('passes `promtool check metrics` (Prometheus 2.42, Debian): no gauge named *_total', async () => {
    await send('+447700900601', 'promtool');
    const { text } = await scrape();
    const checked = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
      child.stdin.end(text);
    });
    expect(checked).toEqual({ code: 0, out: '' });
  });

  it('the sample Grafana dashboard reads only metrics the server exposes', async () => {
    const dashboard = readFileSync(
      new URL('../../../docs/grafana-dashboard.json', import.meta.url),
      'utf8',
    );
    const used = new Set(
      [...dashboard.matchAll(/\b((?:parley|nodejs|process)_[a-z0-9_]+)/g)].map((m) =>
        m[1]!.replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    const exposed = new Set(families((await scrape()).text));
    // One database at a time: the other's gauge is absent.
    const otherDatabase = usingPg ? 'parley_sqlite_wal_bytes' : 'parley_db_pool_connections';
    const missing = [...used].filter((name) => !exposed.has(name) && name !== otherDatabase);
    expect(missing).toEqual([]);
    expect(used.size).toBeGreaterThan(10);
  });

  it('counts a send under its call and code, by route pattern', async () => {
    const before = await scrape();
    const customer = await platformChat(t, seat.phones[0]!);
    expect((await send(customer, 'hello')).code).toBe('000000');
    // Refused: not a phone account of this seat (its own code, same call).
    const refused = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: '+19990000000',
        receiver_phone: customer,
        type: 'text',
        content: 'x',
        client_msg_id: `metrics-${++n}`,
      },
      seat.token,
    );
    expect(refused.code).not.toBe('000000');
    const after = await scrape();
    const count = (text: string, code: string) =>
      valueOf(text, 'parley_http_request_duration_seconds_count', { ...MESSAGE, code });
    expect(count(after.text, '000000') - count(before.text, '000000')).toBe(1);
    expect(count(after.text, refused.code) - count(before.text, refused.code)).toBe(1);
    // A media GET is counted under its pattern, not its URL with ids.
    await t.app.inject({ method: 'GET', url: '/v1/seat/media/abc/thumb?sig=x' });
    const text = (await scrape()).text;
    expect(text).not.toContain('route="/v1/seat/media/abc');
    expect(text).toMatch(/route="\/v1\/seat\/media\/:/);
  });

  it('shows a push socket while it is open, and the events it was sent', async () => {
    const client = await PushClient.open(base, { token: seat.token, last_event_id: 0 });
    try {
      await client.waitFor('ready');
      expect(valueOf((await scrape()).text, 'parley_push_sockets_open')).toBe(1);
      const sentBefore = valueOf((await scrape()).text, 'parley_push_events_sent_total', {
        type: 'message.created',
      });
      const customer = await platformChat(t, seat.phones[0]!);
      await client.waitForEvent('message.created', (d) => d.message.content === 'hi');
      expect((await send(customer, 'pushed')).code).toBe('000000');
      await client.waitForEvent('message.created', (d) => d.message.content === 'pushed');
      const sent = valueOf((await scrape()).text, 'parley_push_events_sent_total', {
        type: 'message.created',
      });
      expect(sent - sentBefore).toBe(2);
    } finally {
      client.close();
    }
    await vi.waitFor(async () =>
      expect(valueOf((await scrape()).text, 'parley_push_sockets_open')).toBe(0),
    );
  });

  it('shows an outbox item that failed as failed for its channel', async () => {
    const customer = await platformChat(t, seat.phones[0]!);
    expect((await send(customer, 'refuse')).code).toBe('000000');
    await vi.waitFor(
      async () => {
        const text = (await scrape()).text;
        expect(valueOf(text, 'parley_outbox_failed', { channel: 'platform' })).toBe(1);
        expect(
          valueOf(text, 'parley_outbox_deliveries_total', {
            channel: 'platform',
            result: 'failed',
          }),
        ).toBe(1);
      },
      { timeout: 10_000, interval: 50 },
    );
    const text = (await scrape()).text;
    expect(valueOf(text, 'parley_outbox_failed', { channel: 'telegram' })).toBe(0);
    expect(valueOf(text, 'parley_outbox_pending', { channel: 'platform' })).toBe(0);
    expect(
      valueOf(text, 'parley_outbox_deliveries_total', { channel: 'platform', result: 'delivered' }),
    ).toBeGreaterThan(0);
  });

  it('counts translation engine calls, characters and memory hits per engine', async () => {
    const ask = () =>
      t.call(
        '/v1/seat/chat/translate/text_v2',
        { texts: ['Hola', 'Gracias'], source_lang: 'ES', target_lang: 'EN-GB' },
        seat.token,
      );
    expect((await ask()).code).toBe('000000');
    expect((await ask()).code).toBe('000000');
    const text = (await scrape()).text;
    expect(
      valueOf(text, 'parley_translation_engine_calls_total', { engine: 'deepl', result: 'ok' }),
    ).toBe(1);
    expect(valueOf(text, 'parley_translation_engine_characters_total', { engine: 'deepl' })).toBe(
      'Hola'.length + 'Gracias'.length,
    );
    expect(valueOf(text, 'parley_translation_memory_hits_total', { engine: 'deepl' })).toBe(2);
  });

  it('counts refused and throttled logins', async () => {
    const login = (password: string) =>
      t.call('/v1/seat/chat/login', { account: seat.account, password });
    for (let i = 0; i < 5; i++) expect((await login('wrong-password')).code).toBe('100005');
    expect((await login(PASSWORD)).code).toBe('500003');
    expect(
      (await t.call('/v1/seat/chat/login', { account: 'nobody-here', password: 'x1' })).code,
    ).toBe('200001');
    const text = (await scrape()).text;
    expect(valueOf(text, 'parley_login_failures_total', { reason: 'password' })).toBe(5);
    expect(valueOf(text, 'parley_login_failures_total', { reason: 'unknown_account' })).toBe(1);
    expect(valueOf(text, 'parley_login_throttled_total')).toBe(1);
  });
});

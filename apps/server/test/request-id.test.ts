import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, type TestApp } from './helper.js';
import { platformAt, platformChat, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { PushClient } from './ws-client.js';

/** JSON log lines as the app wrote them (LOG_FORMAT=json). */
type LogLine = { reqId?: string; msg: string; level: number } & Record<string, unknown>;

let receiver: Awaited<ReturnType<typeof startReceiver>>;
const apps: TestApp[] = [];
beforeAll(async () => {
  receiver = await startReceiver(SECRET);
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await receiver?.close();
});

async function start(overrides: Partial<Config>) {
  const lines: LogLine[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  const { config, cleanup } = await createTestDatabaseConfig({
    logLevel: 'debug',
    logFormat: 'json',
    platform: platformAt(receiver.url),
    ...overrides,
  });
  const app = await buildApp(config, { logStream: stream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const t = testAppOf(app, config, cleanup);
  apps.push(t);
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { t, lines, base };
}

let n = 0;
async function send(base: string, seat: SeatFixture, customer: string, headers = {}) {
  const res = await fetch(`${base}/v1/seat/chat/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: seat.token, ...headers },
    body: JSON.stringify({
      send_phone: seat.phones[0],
      receiver_phone: customer,
      type: 'text',
      content: `traced ${++n}`,
      client_msg_id: `request-id-${n}`,
    }),
  });
  const body = (await res.json()) as { code: string; data: { msg_id: number } };
  expect(body.code, JSON.stringify(body)).toBe('000000');
  return { requestId: res.headers.get('x-request-id'), msgId: body.data.msg_id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids in the logs', () => {
  it('the request, its outbox delivery and its push events log the same request id', async () => {
    const { t, lines, base } = await start({});
    const seat = await createSeat(t, 'rid-op');
    const customer = await platformChat(t, seat.phones[0]!);
    const console = await PushClient.open(base, { token: seat.token, last_event_id: 0 });
    try {
      await console.waitFor('ready');
      // Without a trusted proxy an incoming id is not taken: a client could forge log lines.
      const { requestId, msgId } = await send(base, seat, customer, { 'x-request-id': 'mine-1' });
      expect(requestId).toMatch(UUID);
      await console.waitForEvent('message.created', (d) => d.message.msg_id === msgId);

      await vi.waitFor(() => {
        const mine = lines.filter((l) => l.reqId === requestId);
        expect(mine.find((l) => l.msg.startsWith('POST /v1/seat/chat/message 200'))).toBeTruthy();
        expect(mine.find((l) => l.msg === 'outbox item delivered')).toMatchObject({
          msgId,
          channel: 'platform',
        });
        expect(mine.find((l) => l.msg === 'push event sent')).toMatchObject({
          type: 'message.created',
          seat: seat.seatId,
        });
      });
      expect(lines.some((l) => l.reqId === 'mine-1')).toBe(false);
    } finally {
      console.close();
    }
  });

  it("behind a trusted proxy, the proxy's X-Request-Id is used and echoed; a malformed one is not", async () => {
    const { t, lines, base } = await start({ trustProxy: true });
    const seat = await createSeat(t, 'rid-proxy');
    const customer = await platformChat(t, seat.phones[0]!);
    const given = 'lb-7f3a9c:01';
    const { requestId, msgId } = await send(base, seat, customer, { 'x-request-id': given });
    expect(requestId).toBe(given);
    await vi.waitFor(() =>
      expect(
        lines.find((l) => l.reqId === given && l.msg === 'outbox item delivered'),
      ).toMatchObject({ msgId }),
    );
    // A value that could break a log line or pose as another's is replaced.
    const forged = await send(base, seat, customer, { 'x-request-id': 'a b"c' });
    expect(forged.requestId).toMatch(UUID);
    // Every answer carries it, not only the calls.
    const health = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'probe-1' } });
    expect(health.headers.get('x-request-id')).toBe('probe-1');
  });

  it('sends answered together (one commit on SQLite) keep their own request ids', async () => {
    const { t, lines, base } = await start({ trustProxy: true });
    const seat = await createSeat(t, 'rid-together');
    const customer = await platformChat(t, seat.phones[0]!);
    const sent = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        send(base, seat, customer, { 'x-request-id': `grp-${i}` }),
      ),
    );
    for (const [i, { requestId, msgId }] of sent.entries()) {
      expect(requestId).toBe(`grp-${i}`);
      await vi.waitFor(() =>
        expect(
          lines.find((l) => l.msg === 'outbox item delivered' && l.msgId === msgId),
        ).toMatchObject({ reqId: `grp-${i}` }),
      );
    }
  });
});

import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';
import { PushClient } from './ws-client.js';

/** What the bridge tells the seat's open consoles (and never another seat's). */
let t: TestApp;
let base: string;
let seat: SeatFixture;
let other: SeatFixture;
const clients: PushClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ sandbox: 'on' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'push-bridge');
  other = await createSeat(t, 'push-bridge-other');
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
});

async function consoleOf(s: SeatFixture) {
  const client = await PushClient.open(base, { token: s.token });
  clients.push(client);
  await client.waitFor('ready');
  return client;
}

describe('bridge events on the push channel', () => {
  it('a customer message: session.created then message.created; a receipt: message.status; a deletion: message.updated', async () => {
    const mine = await consoleOf(seat);
    const theirs = await consoleOf(other);
    const customer = nextPhone('+4482');
    const res = await platformPost(
      t,
      PLATFORM_PATHS.message,
      JSON.stringify({
        id: 'push-1',
        account: seat.phones[0],
        customer,
        type: 'text',
        content: 'pushed to the console',
      }),
    );
    const msgId = (res.data as { msg_id: number }).msg_id;
    const created = await mine.waitForEvent('message.created', (d) => d.message.msg_id === msgId);
    expect(created.data).toMatchObject({
      message: { content: 'pushed to the console', direction: 'in' },
      session: { receiver_phone: customer, un_read_count: 1 },
    });
    const types = mine.events().map((e) => e.type);
    expect(types.indexOf('session.created')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('session.created')).toBeLessThan(types.indexOf('message.created'));

    const reply = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'answer',
        client_msg_id: 'push-reply-0001',
      },
      seat.token,
    );
    await platformPost(
      t,
      PLATFORM_PATHS.receipt,
      JSON.stringify({ account: seat.phones[0], msg_id: reply.data.msg_id, status: 'read' }),
    );
    const status = await mine.waitForEvent(
      'message.status',
      (d) => d.msg_id === reply.data.msg_id && d.status === 'read',
    );
    expect(status.data).toMatchObject({ session_id: reply.data.session_id });

    await platformPost(
      t,
      PLATFORM_PATHS.deletion,
      JSON.stringify({ account: seat.phones[0], id: 'push-1' }),
    );
    const updated = await mine.waitForEvent('message.updated', (d) => d.message.msg_id === msgId);
    expect(updated.data).toMatchObject({ message: { deleted: true, content: '' } });

    // Another seat's console heard none of it.
    expect(theirs.events().some((e) => JSON.stringify(e.data).includes(customer))).toBe(false);
  });

  it('the sandbox delivery moves the tick: delivered, then read', async () => {
    const mine = await consoleOf(seat);
    const customer = nextPhone('+4482');
    // The customer's browser key (the page keeps one in localStorage).
    const key = 'push-test-browser-key-0001';
    await t.services.sandbox!.send({ account: seat.phones[0], customer, content: 'hi' }, key);
    const reply = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: 'hello from the console',
        client_msg_id: 'push-reply-0002',
      },
      seat.token,
    );
    // The customer's page fetches (hidden, then in view).
    await vi.waitFor(
      async () => {
        const list = await t.services.sandbox!.chat(seat.phones[0]!, customer, false, key);
        expect(list.some((e) => e.direction === 'out')).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    await mine.waitForEvent(
      'message.status',
      (d) => d.msg_id === reply.data.msg_id && d.status === 'delivered',
    );
    await t.services.sandbox!.chat(seat.phones[0]!, customer, true, key);
    await mine.waitForEvent(
      'message.status',
      (d) => d.msg_id === reply.data.msg_id && d.status === 'read',
    );
  });
});

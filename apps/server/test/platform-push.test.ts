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
    // The chat, its message, then the seat's groups: consecutive ids, each as the API shows it.
    const groups = await mine.waitForEvent('groups.changed', (d) => d.un_read_count === 1);
    const first = mine.events().slice(0, 3);
    expect(first.map((e) => e.type)).toEqual([
      'session.created',
      'message.created',
      'groups.changed',
    ]);
    expect(first.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(first[2]).toBe(groups);
    const list = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(groups.data).toEqual(list.data);
    const group = list.data.group_list.find((g) => g.group_type === 'ungrouped')!;
    const info = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: group.group_id, page_size: 50 },
      seat.token,
    );
    const item = info.data.account_list.find((c) => c.receiver_phone === customer);
    expect(first[0]!.data).toEqual({ session: item });
    // A message's push leaves out the chat's labels (the console keeps those it has).
    const { labels: _labels, ...row } = item!;
    expect((first[1]!.data as { session: unknown }).session).toEqual(row);

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

  it('twenty customers at once: a console gets each event once, in order, as the log holds it', async () => {
    const busy = await createSeat(t, 'push-bridge-busy');
    const live = await consoleOf(busy);
    const customers = Array.from({ length: 20 }, () => nextPhone('+4483'));
    const answers = await Promise.all(
      customers.map((customer, i) =>
        platformPost(
          t,
          PLATFORM_PATHS.message,
          JSON.stringify({
            id: `busy-${i}`,
            account: busy.phones[0],
            customer,
            type: 'text',
            content: `hello ${i}`,
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.code)).toEqual(Array(20).fill('000000'));
    // Each new chat: session.created and message.created; the seat's groups.changed once per
    // commit that carried its messages (inbound group commit), at least once.
    const logged = await t.db
      .selectFrom('events')
      .select(['type'])
      .where('seat_id', '=', busy.seatId)
      .execute();
    const count = (type: string) => logged.filter((e) => e.type === type).length;
    expect([count('session.created'), count('message.created')]).toEqual([20, 20]);
    expect(count('groups.changed')).toBeGreaterThanOrEqual(1);
    const total = logged.length;
    await live.until(() => (live.events().length >= total ? true : undefined), 'all events');
    // A console resuming after the first event is sent the rest from the log.
    const resumed = await PushClient.open(base, { token: busy.token, last_event_id: 1 });
    clients.push(resumed);
    await resumed.until(
      () => (resumed.events().length >= total - 1 ? true : undefined),
      'the replayed events',
    );
    const frames = live.events();
    expect(frames.map((e) => e.id)).toEqual(frames.map((_, i) => i + 1));
    expect(frames.slice(1)).toEqual(resumed.events());
    const created = frames.filter((e) => e.type === 'message.created');
    expect(
      created.map((e) => (e.data as { message: { content: string } }).message.content).sort(),
    ).toEqual(customers.map((_, i) => `hello ${i}`).sort());
  });
});

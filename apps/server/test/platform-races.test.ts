import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS } from '@parley/protocol';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';

// Webhooks arrive together: the platform fans a customer's burst out over connections, and an
// operator may add the chat while the customer writes. On PostgreSQL each request has its own
// connection, so these race for the chat's unique (account, customer) row.

let t: TestApp;
let seat: SeatFixture;
let counter = 0;

beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'races');
});
afterAll(async () => t?.close());

function inbound(customer: string, content: string) {
  return platformPost(
    t,
    PLATFORM_PATHS.message,
    JSON.stringify({
      id: `race-${process.pid}-${++counter}`,
      account: seat.phones[0],
      customer,
      type: 'text',
      content,
    }),
  );
}

async function chatOf(customer: string) {
  const sessions = await t.db
    .selectFrom('sessions')
    .select('id')
    .where('send_phone', '=', seat.phones[0]!)
    .where('receiver_phone', '=', customer)
    .execute();
  const messages = sessions.length
    ? await t.db
        .selectFrom('messages')
        .select(['content', 'direction'])
        .where('session_id', '=', sessions[0]!.id)
        .execute()
    : [];
  return { sessions: sessions.length, messages };
}

describe('concurrent webhooks for a new customer', () => {
  it('a burst of 8: every one is taken (no 5xx), into one chat', async () => {
    for (let round = 0; round < 3; round++) {
      const customer = nextPhone('+4477');
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => inbound(customer, `burst ${round}.${i}`)),
      );
      expect(answers.map((a) => `${a.status} ${a.code}`)).toEqual(Array(8).fill('200 000000'));
      const chat = await chatOf(customer);
      expect(chat.sessions).toBe(1);
      expect(chat.messages).toHaveLength(8);
    }
  });

  it('the same message 8 times at once (a retried webhook): stored once, the others answered as duplicates', async () => {
    for (let round = 0; round < 3; round++) {
      const customer = nextPhone('+4478');
      const body = JSON.stringify({
        id: `race-same-${process.pid}-${round}`,
        account: seat.phones[0],
        customer,
        type: 'text',
        content: `once ${round}`,
      });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => platformPost(t, PLATFORM_PATHS.message, body)),
      );
      expect(answers.map((a) => `${a.status} ${a.code}`)).toEqual(Array(8).fill('200 000000'));
      const data = answers.map((a) => a.data as { msg_id: number; duplicate: boolean });
      expect(data.filter((d) => !d.duplicate)).toHaveLength(1);
      // Every answer names the one message stored.
      expect(new Set(data.map((d) => d.msg_id)).size).toBe(1);
      const chat = await chatOf(customer);
      expect(chat.sessions).toBe(1);
      expect(chat.messages).toEqual([{ content: `once ${round}`, direction: 'in' }]);
    }
  });

  it("the operator's addSession racing the customer's first message: the message is never refused", async () => {
    for (let round = 0; round < 10; round++) {
      const customer = nextPhone('+4476');
      const [added, received] = await Promise.all([
        t.call(
          '/v1/seat/chat/addSession',
          {
            send_phone: seat.phones[0]!,
            receiver_phone: customer,
            greeting: 'Hello, how can we help?',
            client_msg_id: `race-add-${round}-${counter}`,
          },
          seat.token,
        ),
        inbound(customer, `first words ${round}`),
      ]);
      expect(`${received.status} ${received.code}`).toBe('200 000000');
      // The operator either opened the chat, or is told it exists already.
      expect(['000000', '500006']).toContain(added.code);
      const chat = await chatOf(customer);
      expect(chat.sessions).toBe(1);
      expect(chat.messages.filter((m) => m.direction === 'in')).toHaveLength(1);
    }
  });
});

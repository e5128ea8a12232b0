import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, type ChannelName } from '@parley/protocol';
import { sql } from 'kysely';
import { CHANNEL_MODULES } from '../src/channels/registry.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { CUSTOMER_NAME, type Kit } from './channels/kit.js';

/**
 * The contract every channel keeps (docs/ARCHITECTURE.md, "How to add a channel"), run for each
 * name of the protocol's CHANNELS: a customer's message becomes a chat, a message and an event;
 * an operator's message is delivered and its receipt moves the tick; the customer's profile
 * is read for the chat; credentials the channel refuses (a platform request signed with
 * another secret, another browser's sandbox key, a bot token Telegram does not know) change
 * nothing. Each channel's kit (`test/channels/<name>.kit.ts`) plays its customer through the
 * channel's real interface (the signed platform API, the sandbox page's calls, the local Bot
 * API server). The kits are found by their file names, so adding one edits no file here; a
 * channel of the protocol without a kit fails.
 */
const KIT_FILES = readdirSync(new URL('./channels/', import.meta.url)).filter((f) =>
  f.endsWith('.kit.ts'),
);
const KITS = new Map<string, () => Kit>(
  await Promise.all(
    KIT_FILES.map(
      async (f) =>
        [
          f.slice(0, -'.kit.ts'.length),
          ((await import(new URL(`./channels/${f}`, import.meta.url).href)) as { kit: () => Kit })
            .kit,
        ] as const,
    ),
  ),
);

it('every channel of the protocol has its module in the registry, once', () => {
  expect(CHANNEL_MODULES.map((m) => m.name).sort()).toEqual([...CHANNEL_NAMES].sort());
});

it('every channel of the protocol has its kit, and every kit its channel', () => {
  expect([...KITS.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());
});

describe.each(CHANNEL_NAMES)('the %s channel keeps the channel contract', (channel) => {
  // A name without a kit: the test above fails, and so does each of this channel's.
  const kit = (KITS.get(channel) ?? missingKit(channel))();
  let t: TestApp;
  let seat: SeatFixture;
  beforeAll(async () => {
    t = await createTestApp(await kit.start());
    await t.app.ready();
    seat = await createSeat(t, `contract-${channel}`);
    await kit.bind(t, seat);
  });
  afterAll(async () => {
    await t?.close();
    await kit.stop();
  });

  const record = (customer: string) =>
    t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: customer, page_size: 50 },
      seat.token,
    );

  it("a customer's message becomes a chat, a message and an event", async () => {
    const customer = await kit.customerWrites(t, seat, `hello over ${channel}`);
    await vi.waitFor(
      async () => {
        const res = await record(customer);
        expect(res.code, res.raw).toBe('000000');
        expect(res.data.list.map((m) => m.content)).toEqual([`hello over ${channel}`]);
      },
      { timeout: 15_000, interval: 25 },
    );
    const list = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped, user_time_type: 1, page_size: 50 },
      seat.token,
    );
    expect(list.data.account_list.map((c) => c.receiver_phone)).toContain(customer);
    const events = await sql<{ type: string; data: string }>`
      select type, data from events where seat_id = ${seat.seatId} order by seq`.execute(t.db);
    expect(
      events.rows.some(
        (e) => e.type === 'message.created' && e.data.includes(`hello over ${channel}`),
      ),
    ).toBe(true);
  });

  it("an operator's message is delivered and its receipt moves the tick", async () => {
    const customer = await kit.customerWrites(t, seat, 'a question');
    await vi.waitFor(async () => expect((await record(customer)).data.list).toHaveLength(1), {
      timeout: 15_000,
      interval: 25,
    });
    const sent = await t.call(
      '/v1/seat/chat/message',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        type: 'text',
        content: `answer over ${channel}`,
        client_msg_id: `contract-${channel}-${process.pid}`,
      },
      seat.token,
    );
    expect(sent.code, sent.raw).toBe('000000');
    await vi.waitFor(
      async () => {
        expect(await kit.customerReads(t, seat, customer)).toEqual([`answer over ${channel}`]);
        const out = (await record(customer)).data.list.find((m) => m.direction === 'out');
        expect(out?.status).toBe(kit.readTick);
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it("the customer's name reaches the chat, and the profile is read for it", async () => {
    const customer = await kit.customerWrites(t, seat, 'who am I');
    let sessionId = 0;
    await vi.waitFor(
      async () => {
        const list = await t.call(
          '/v1/seat/chat/getGroupInfo',
          { group_id: seat.groups.ungrouped, user_time_type: 1, page_size: 50 },
          seat.token,
        );
        const chat = list.data.account_list.find((c) => c.receiver_phone === customer);
        expect(chat).toBeDefined();
        // Whatever the channel, the name it gives the customer is the chat's (MessagesService.receive).
        expect(chat!.customer_name).toBe(CUSTOMER_NAME);
        sessionId = chat!.session_id;
      },
      { timeout: 15_000, interval: 25 },
    );
    const profile = await t.call('/v1/seat/tg/userInfo', { session_id: sessionId }, seat.token);
    expect(profile.code, profile.raw).toBe('000000');
    expect(profile.data?.first_name ?? null).toBe(kit.profileName);
  });

  it('bad credentials are refused and change nothing', async () => {
    const customer = await kit.customerWrites(t, seat, 'before the intruder');
    await vi.waitFor(async () => expect((await record(customer)).data.list).toHaveLength(1), {
      timeout: 15_000,
      interval: 25,
    });
    const account = await t.services.accounts.require(seat.phones[0]!);
    const chat = (await record(customer)).data.list;
    const refused = await kit.badCredentials(t, seat, customer);
    expect(refused.code, JSON.stringify(refused)).toBe(kit.refusedWith);
    expect(await t.services.accounts.require(seat.phones[0]!)).toEqual(account);
    expect((await record(customer)).data.list).toEqual(chat);
  });
});

/** A channel without a kit: its contract fails at its start. */
function missingKit(channel: ChannelName): () => Kit {
  const missing = () =>
    Promise.reject(new Error(`no test/channels/${channel}.kit.ts: the channel has no kit`));
  return () => ({ start: missing, stop: async () => {} }) as unknown as Kit;
}

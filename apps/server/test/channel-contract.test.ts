import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHANNEL_NAMES,
  ERROR_CODES,
  PLATFORM_PATHS,
  type ChannelName,
  type MessageStatus,
} from '@parley/protocol';
import { sql } from 'kysely';
import type { Config } from '../src/config.js';
import { CHANNEL_MODULES } from '../src/channels/registry.js';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformAt, platformPost, SECRET } from './platform-helpers.js';
import { startReceiver } from './platform-receiver.js';
import { adminCall, createAdmin } from './admin-helpers.js';
import { browserKey, sandboxAs } from './sandbox-helpers.js';
import { TelegramBotApiServer, telegramConfigFor } from './telegram-bot-api-server.js';
import { WhatsAppGraphServer, type GraphNumber } from './whatsapp-graph-api-server.js';
import { deliverWebhook } from './whatsapp-helpers.js';

/**
 * The contract every channel keeps (docs/ARCHITECTURE.md, "How to add a channel"), run for each
 * name of the protocol's CHANNELS: a customer's message becomes a chat, a message and an event;
 * an operator's message is delivered and its receipt moves the tick; the customer's profile
 * is read for the chat; credentials the channel refuses (a platform request signed with
 * another secret, another browser's sandbox key, a bot token Telegram does not know) change
 * nothing. Each channel's kit plays its customer through the channel's real interface (the
 * signed platform API, the sandbox page's calls, the local Bot API server). `KITS` is a
 * Record over the names: a channel added to the protocol without a kit does not compile.
 */
interface Kit {
  /** The app's settings for this channel (its external side started). */
  start(): Promise<Partial<Config>>;
  stop(): Promise<void>;
  /** Puts the seat's account on the channel. */
  bind(t: TestApp, seat: SeatFixture): Promise<void>;
  /** A new customer writes `text`: answers the customer's number. */
  customerWrites(t: TestApp, seat: SeatFixture, text: string): Promise<string>;
  /** The texts the customer has received; reading them sends the channel's receipt. */
  customerReads(t: TestApp, seat: SeatFixture, customer: string): Promise<string[]>;
  /** The tick an operator's message shows once the customer has read it. */
  readTick: MessageStatus;
  /**
   * The first name the console's profile read (the chat's profile card) shows for the kit's
   * customer; null: the channel knows the customer by number only.
   */
  profileName: string | null;
  /**
   * Credentials the channel refuses, as a client presents them: a request signed with another
   * secret, another browser's key, a bot token Telegram does not know. `customer` has a chat.
   */
  badCredentials(t: TestApp, seat: SeatFixture, customer: string): Promise<{ code: string }>;
  /** The code of that refusal (the spec's: 400003 permission, 100001 a refused field). */
  refusedWith: string;
}

let inboundN = 0;

/** The name every kit's customer writes under: the channel's name for them reaches the chat. */
const CUSTOMER_NAME = 'Olga';

function platformKit(): Kit {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  return {
    async start() {
      receiver = await startReceiver(SECRET);
      return { platform: platformAt(receiver.url) };
    },
    stop: () => receiver.close(),
    async bind() {},
    async customerWrites(t, seat, text) {
      const customer = nextPhone('+4481');
      const body = {
        id: `c-${process.pid}-${++inboundN}`,
        account: seat.phones[0],
        customer,
        name: CUSTOMER_NAME,
      };
      const res = await platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({ ...body, type: 'text', content: text }),
      );
      expect(res.code, res.raw).toBe('000000');
      return customer;
    },
    async customerReads(t, seat, customer) {
      const got = [...receiver.delivered.values()].filter(
        (m) => m.kind === 'message' && m.customer === customer,
      );
      for (const m of got) {
        if (m.kind !== 'message') continue;
        const receipt = { account: seat.phones[0], msg_id: m.msg_id, status: 'read' };
        const res = await platformPost(t, PLATFORM_PATHS.receipt, JSON.stringify(receipt));
        expect(res.code, res.raw).toBe('000000');
      }
      return got.map((m) => (m.kind === 'message' ? m.content : ''));
    },
    readTick: 'read',
    profileName: null,
    // The platform's credential is the shared secret its requests are signed with.
    badCredentials: (t, seat, customer) =>
      platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({
          id: `c-${process.pid}-${++inboundN}`,
          account: seat.phones[0],
          customer,
          type: 'text',
          content: 'signed with another secret',
        }),
        { secret: 'not-the-platform-secret' },
      ),
    refusedWith: ERROR_CODES.PERMISSION_FAILED,
  };
}

function sandboxKit(): Kit {
  const key = browserKey();
  return {
    start: async () => ({ sandbox: 'on' }),
    stop: async () => {},
    async bind(t, seat) {
      await t.services.accounts.setPlainChannel(seat.phones[0]!, 'sandbox');
    },
    async customerWrites(t, seat, text) {
      const customer = nextPhone('+4482');
      const res = await sandboxAs(t, key).send({
        account: seat.phones[0],
        customer,
        name: CUSTOMER_NAME,
        content: text,
      });
      expect(res.code).toBe('000000');
      return customer;
    },
    async customerReads(t, seat, customer) {
      // The page shows the chat: 'delivered' and, in view, 'read' go back.
      const res = await sandboxAs(t, key).chat(seat.phones[0]!, customer, true);
      expect(res.code).toBe('000000');
      return (res.data?.list ?? []).filter((e) => e.direction === 'out').map((e) => e.content);
    },
    readTick: 'read',
    profileName: null,
    // The sandbox's credential is the browser key its customer number was first used with.
    badCredentials: (t, seat, customer) =>
      sandboxAs(t, browserKey()).send({
        account: seat.phones[0],
        customer,
        content: 'another browser writing as the customer',
      }),
    refusedWith: ERROR_CODES.PERMISSION_FAILED,
  };
}

function telegramKit(): Kit {
  const tg = new TelegramBotApiServer();
  const tokens = new Map<number, string>();
  let userN = 0;
  return {
    async start() {
      await tg.start();
      return { telegram: telegramConfigFor(tg.url) };
    },
    stop: () => tg.stop(),
    async bind(t, seat) {
      const token = tg.createBot(`contract_${seat.seatId}_bot`);
      tokens.set(seat.seatId, token);
      await t.services.telegramBots.bind(seat.phones[0]!, token);
    },
    async customerWrites(_t, seat, text) {
      const user = { id: 6_200_000_000 + process.pid * 10 + ++userN, first_name: CUSTOMER_NAME };
      tg.pushMessage(tokens.get(seat.seatId)!, user, { text });
      return customerNumberOf(user.id);
    },
    async customerReads(_t, seat, customer) {
      const bot = tg.bot(tokens.get(seat.seatId)!);
      return bot.sent
        .filter((m) => customerNumberOf(Number(m.chat_id)) === customer)
        .map((m) => m.text ?? '');
    },
    // The Bot API tells of no delivery or reading: the tick stops at 'sent'.
    readTick: 'sent',
    profileName: 'Olga',
    // A token of the right shape that the Bot API does not know: getMe refuses it, and the
    // administrator's console gets the refusal on bot_token.
    async badCredentials(t, seat) {
      const admin = await createAdmin(t, `contract-admin-${seat.seatId}`);
      const account = await t.services.accounts.require(seat.phones[0]!);
      return adminCall(
        t,
        '/v1/admin/accounts/setChannel',
        {
          account_id: account.id,
          channel: 'telegram',
          bot_token: '123456:AAHunknownunknownunknownunknown00',
        },
        admin,
      );
    },
    refusedWith: ERROR_CODES.PARAMETER_ERROR,
  };
}

function whatsappKit(): Kit {
  const graph = new WhatsAppGraphServer();
  const numbers = new Map<number, GraphNumber>();
  let waN = 0;
  return {
    async start() {
      await graph.start();
      return { whatsapp: { graphUrl: graph.url } };
    },
    stop: () => graph.stop(),
    async bind(t, seat) {
      const n = graph.addNumber();
      numbers.set(seat.seatId, n);
      await t.services.accounts.setChannel(seat.phones[0]!, {
        account_id: 1,
        channel: 'whatsapp',
        phone_number_id: n.phoneNumberId,
        waba_id: n.wabaId,
        access_token: n.token,
        app_secret: n.appSecret,
      });
    },
    async customerWrites(t, seat, text) {
      const n = numbers.get(seat.seatId)!;
      const waId = `35191${String(process.pid % 1000).padStart(3, '0')}${String(++waN).padStart(4, '0')}`;
      const res = await deliverWebhook(
        t,
        n,
        graph.inbound(n, { wa_id: waId, name: 'Olga' }, { type: 'text', text: { body: text } }),
      );
      expect(res.status, res.body).toBe(200);
      return `+${waId}`;
    },
    async customerReads(t, seat, customer) {
      const n = numbers.get(seat.seatId)!;
      const got = graph.sentTo(n.phoneNumberId, customer.slice(1));
      // The customer's phone reports each message read (a signed status webhook).
      for (const m of got) await deliverWebhook(t, n, graph.status(n, m.wamid, m.to, 'read'));
      return got.map((m) => (m.body.text as { body: string }).body);
    },
    readTick: 'read',
    // The console's profile read is Telegram's; WhatsApp names the chat (customer_name) only.
    profileName: null,
    // A token the Graph API does not take (error 190), through the administrator's console:
    // refused on access_token, nothing bound.
    async badCredentials(t, seat) {
      const n = graph.addNumber();
      graph.revokeToken(n.token);
      const admin = await createAdmin(t, `contract-admin-wa-${seat.seatId}`);
      const account = await t.services.accounts.require(seat.phones[0]!);
      return adminCall(
        t,
        '/v1/admin/accounts/setChannel',
        {
          account_id: account.id,
          channel: 'whatsapp',
          phone_number_id: n.phoneNumberId,
          waba_id: n.wabaId,
          access_token: n.token,
          app_secret: n.appSecret,
        },
        admin,
      );
    },
    refusedWith: ERROR_CODES.PARAMETER_ERROR,
  };
}

const KITS: Record<ChannelName, () => Kit> = {
  platform: platformKit,
  sandbox: sandboxKit,
  telegram: telegramKit,
  whatsapp: whatsappKit,
};

it('every channel of the protocol has its module in the registry, once', () => {
  expect(CHANNEL_MODULES.map((m) => m.name).sort()).toEqual([...CHANNEL_NAMES].sort());
});

describe.each(CHANNEL_NAMES)('the %s channel keeps the channel contract', (channel) => {
  const kit = KITS[channel]();
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

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TelegramInbound } from '../src/channels/telegram/telegram-inbound.js';
import { TelegramPoller } from '../src/channels/telegram/telegram-poller.js';
import { telegramBotsRepository } from '../src/channels/telegram/telegram-bots.repository.js';
import type { TgUpdate } from '../src/channels/telegram/bot-api.js';
import { WhatsappInbound } from '../src/channels/whatsapp/whatsapp-inbound.js';
import type { WebhookNumber } from '../src/channels/whatsapp/whatsapp.repository.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { usingPg, type TestApp } from './helper.js';
import { TelegramBotApiServer, telegramConfigFor } from './telegram-bot-api-server.js';
import { tracedWorld, type TracedWorld } from './traced-services.js';

/**
 * Issue 33, "A batch takes a fixed number of statements": the channels' own rows of a batch of
 * customers' messages (WhatsApp's contacts and wamids, Telegram's profile links and new chats'
 * languages) are written by multi-row statements, so a batch of 3N messages costs the
 * statements of a batch of N, as the platform's messages do on PostgreSQL
 * (inbound-statements.test.ts). Counted on a second connection that logs every statement,
 * with the channels' inbound sides built on it as the app builds them.
 */
let w: TracedWorld;
let t: TestApp;
let traced: TracedWorld['traced'];
let services: TracedWorld['services'];
const quiet = { warn: () => undefined };
let n = 0;

beforeAll(async () => {
  // No poller of the app's own: the poller below is the only one to poll its bot.
  w = await tracedWorld({
    telegram: { ...telegramConfigFor('http://127.0.0.1:9'), polling: false },
  });
  ({ t, traced, services } = w);
});
afterAll(async () => {
  await w?.close();
});

/** The statements of the batch's transaction (begin to commit) while `work` runs. */
async function batchStatements(work: () => Promise<unknown>): Promise<string[]> {
  const { sql: all } = await w.statementsOf(work);
  const sql = all.map((q) => q.trim().toLowerCase());
  const begin = sql.findIndex((s) => s.startsWith('begin'));
  const commit = sql.findIndex((s, i) => i > begin && s.startsWith('commit'));
  expect(begin, sql.join('\n')).toBeGreaterThanOrEqual(0);
  expect(commit, sql.join('\n')).toBeGreaterThan(begin);
  // One batch: one transaction for the whole delivery.
  expect(
    sql.filter((s) => s.startsWith('begin')),
    sql.join('\n'),
  ).toHaveLength(1);
  return sql.slice(begin, commit + 1);
}

const touching = (sql: string[], tables: RegExp) => sql.filter((s) => tables.test(s));

/** `count` messages from `customers` new customers, each writing in turn. */
const spread = (count: number, customers: number) =>
  Array.from({ length: count }, (_, i) => i % customers);

describe("a batch's own rows of a channel take a fixed number of statements", () => {
  const CUSTOMERS = 4;
  const N = 6;

  it('WhatsApp: the contacts and the wamids of N and of 3N messages', async () => {
    const inbound = new WhatsappInbound(
      traced.db,
      'http://127.0.0.1:9',
      { hosts: [], trustedOrigins: [] },
      services.messages,
      services.inbound,
      services.media,
      services.events,
      quiet,
    );
    const delivery = async (seat: SeatFixture, count: number) => {
      const number = {
        send_phone: seat.phones[0]!,
        phone_number_id: `10${++n}`,
        access_token: 'unused',
        seat_id: seat.seatId,
        team_account_id: null,
      } as WebhookNumber;
      const waIds = Array.from({ length: CUSTOMERS }, () => `4917${String(++n).padStart(8, '0')}`);
      const messages = spread(count, CUSTOMERS).map((c, i) => ({
        from: waIds[c],
        id: `wamid.rows-${++n}`,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'text',
        text: { body: `message ${i}` },
      }));
      const payload = {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: 'waba',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { phone_number_id: number.phone_number_id },
                  contacts: waIds.map((wa_id, i) => ({
                    wa_id,
                    profile: { name: `Customer ${i}` },
                  })),
                  messages,
                },
              },
            ],
          },
        ],
      };
      const sql = await batchStatements(() => inbound.handle(number, payload));
      const stored = await t.db
        .selectFrom('whatsapp_messages')
        .innerJoin('messages', 'messages.id', 'whatsapp_messages.msg_id')
        .select(['whatsapp_messages.wamid', 'messages.content'])
        .where('whatsapp_messages.send_phone', '=', number.send_phone)
        .execute();
      const contacts = await t.db
        .selectFrom('whatsapp_contacts')
        .select(['wa_id', 'profile_name'])
        .where('send_phone', '=', number.send_phone)
        .orderBy('wa_id')
        .execute();
      // Every message's wamid, every customer's contact with the name the webhook gave.
      expect(stored.map((r) => r.wamid).sort()).toEqual(messages.map((m) => m.id).sort());
      expect(contacts).toEqual(waIds.map((wa_id, i) => ({ wa_id, profile_name: `Customer ${i}` })));
      return sql;
    };
    const few = await delivery(await createSeat(t, 'rows-wa-few'), N);
    const many = await delivery(await createSeat(t, 'rows-wa-many'), 3 * N);
    const own = /whatsapp_contacts|whatsapp_messages/;
    // One upsert of the contacts, one insert of the wamids.
    expect(touching(few, own)).toHaveLength(2);
    expect(touching(many, own)).toHaveLength(touching(few, own).length);
    // PostgreSQL writes the messages themselves in a fixed number too: the whole batch is.
    if (usingPg) expect(many).toHaveLength(few.length);
  });

  it("Telegram: the profile links and the new chats' languages of N and of 3N messages", async () => {
    const inbound = new TelegramInbound(
      traced.db,
      'http://127.0.0.1:9',
      services.messages,
      services.inbound,
      services.media,
      quiet,
    );
    const poll = async (seat: SeatFixture, count: number) => {
      const bot = { send_phone: seat.phones[0]!, token: '1:unused' };
      const users = Array.from({ length: CUSTOMERS }, (_, i) => ({
        id: 700_000_000 + ++n,
        is_bot: false,
        first_name: `Customer ${i}`,
        username: `customer_${n}`,
        language_code: 'ru',
      }));
      const updates: TgUpdate[] = spread(count, CUSTOMERS).map((c, i) => ({
        update_id: ++n,
        message: {
          message_id: i + 1,
          date: Math.floor(Date.now() / 1000),
          chat: { id: users[c]!.id, type: 'private' },
          from: users[c]!,
          text: `message ${i}`,
        },
      }));
      const sql = await batchStatements(() => inbound.handle(bot, updates));
      const profiles = await t.db
        .selectFrom('telegram_profiles')
        .select(['tg_chat_id', 'username', 'language_code'])
        .where('send_phone', '=', bot.send_phone)
        .orderBy('tg_chat_id')
        .execute();
      const chats = await t.db
        .selectFrom('sessions')
        .select(['customer_language'])
        .where('seat_id', '=', seat.seatId)
        .where('send_phone', '=', bot.send_phone)
        .execute();
      const messages = await t.db
        .selectFrom('messages')
        .select('content')
        .where('seat_id', '=', seat.seatId)
        .where('direction', '=', 'in')
        .execute();
      expect(messages).toHaveLength(count);
      expect(profiles).toEqual(
        users.map((u) => ({
          tg_chat_id: String(u.id),
          username: u.username,
          language_code: 'ru',
        })),
      );
      // Each new chat speaks its customer's app language (as Parley lists it).
      expect(chats.map((c) => c.customer_language)).toEqual(users.map(() => 'RU'));
      return sql;
    };
    const few = await poll(await createSeat(t, 'rows-tg-few'), N);
    const many = await poll(await createSeat(t, 'rows-tg-many'), 3 * N);
    const own = /telegram_profiles|set "customer_language" = case/;
    // One upsert of the links, one update of the new chats' languages.
    expect(touching(few, own)).toHaveLength(2);
    expect(touching(many, own)).toHaveLength(touching(few, own).length);
    if (usingPg) expect(many).toHaveLength(few.length);
  });
});

/**
 * Issue 33, "Inbound speed for every channel": a bot's updates are fetched by one poll after
 * another, so what a poll costs besides its batch is time every update that arrives meanwhile
 * waits before it is even fetched. A poll's updates cost one read (the account and the updates
 * seen before), not two each; a poller's cycle one statement of its own (the lease, the
 * offset past the updates stored and the poll's status together), not four.
 */
describe("a Telegram poll's statements besides its batch", () => {
  it('one read for the updates of a poll, one statement of the poller per cycle', async () => {
    const tg = await new TelegramBotApiServer().start();
    const seat = await createSeat(t, 'rows-tg-cycle');
    const token = tg.createBot('parley_cycle_bot');
    const sendPhone = seat.phones[0]!;
    await telegramBotsRepository.upsert(t.db, {
      send_phone: sendPhone,
      bot_id: token.split(':')[0]!,
      bot_username: 'parley_cycle_bot',
      token,
      now: Date.now(),
    });
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const inbound = new TelegramInbound(
      traced.db,
      tg.url,
      services.messages,
      services.inbound,
      services.media,
      log,
    );
    const poller = new TelegramPoller(traced.db, telegramConfigFor(tg.url), inbound, log);
    const users = [0, 1, 2].map((i) => ({ id: 710_000_000 + i, first_name: `Customer ${i}` }));
    // Five updates waiting before the poller starts: its first poll fetches them together.
    for (let i = 0; i < 5; i++) tg.pushMessage(token, users[i % 3]!, { text: `waiting ${i}` });
    const stored = async () =>
      (
        await t.db
          .selectFrom('messages')
          .select('content')
          .where('seat_id', '=', seat.seatId)
          .where('direction', '=', 'in')
          .execute()
      ).length;
    try {
      const { sql: all } = await w.statementsOf(async () => {
        poller.start();
        await vi.waitFor(async () => expect(await stored()).toBe(5), { timeout: 10_000 });
        // Then one at a time, each fetched by a poll of its own.
        for (let i = 0; i < 3; i++) {
          tg.pushMessage(token, users[i]!, { text: `one by one ${i}` });
          await vi.waitFor(async () => expect(await stored()).toBe(6 + i), { timeout: 10_000 });
        }
        await poller.stop();
      });
      const sql = all.map((q) => q.trim().toLowerCase());
      // Outside the batches' transactions: what the updates were read with before their batch.
      const outside: string[] = [];
      let inTx = false;
      for (const s of sql) {
        if (s.startsWith('begin')) inTx = true;
        else if (s.startsWith('commit') || s.startsWith('rollback')) inTx = false;
        else if (!inTx) outside.push(s);
      }
      const reads = outside.filter((s) => /"phone_accounts"|"inbound_messages"/.test(s));
      // Four polls with updates (five together, then three alone): one read each.
      expect(reads, reads.join('\n')).toHaveLength(4);
      // The poller's own statements: the scan's (the bots to poll, the lease taken), then one
      // per cycle (each cycle one getUpdates), and the lease freed at the stop.
      const own = outside.filter(
        (s) => /"telegram_bots"/.test(s) && !s.startsWith('select "send_phone", "token"'),
      );
      const polls = tg.bot(token).getUpdatesCalls;
      expect(polls).toBeGreaterThanOrEqual(4);
      expect(own.length, own.join('\n')).toBeLessThanOrEqual(polls + 3);
      // Every update stored once; the offset past the last one.
      expect(await stored()).toBe(8);
      const bot = await telegramBotsRepository.findByPhone(t.db, sendPhone);
      expect(Number(bot!.update_offset)).toBe(tg.bot(token).nextUpdateId);
      expect(bot!.last_poll_at).not.toBeNull();
    } finally {
      await poller.stop();
      await tg.stop();
    }
  });
});

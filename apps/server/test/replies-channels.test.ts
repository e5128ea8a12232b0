import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@parley/protocol';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { browserKey, sandboxAs } from './sandbox-helpers.js';
import { telegramConfigFor, TelegramBotApiServer } from './telegram-bot-api-server.js';

/**
 * Replies on Telegram (Bot API 7: `reply_to_message_id` out, `reply_to_message` in; the local
 * server refuses a reply to a message its chat does not have, as Telegram does) and on the
 * customer sandbox (the quote above the message on both sides).
 */
let tg: TelegramBotApiServer;
let t: TestApp;
beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  t = await createTestApp({ sandbox: 'on', telegram: telegramConfigFor(tg.url) });
});
afterAll(async () => {
  await t?.close();
  await tg?.stop();
});

let n = 0;
const WAIT = { timeout: 15_000, interval: 25 };

function history(seat: SeatFixture, customer: string): Promise<ChatMessage[]> {
  return t
    .call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: seat.phones[0]!, receiver_phone: customer, page_size: 50 },
      seat.token,
    )
    .then((res) => res.data.list);
}

function send(seat: SeatFixture, customer: string, body: Record<string, unknown>) {
  return t.call(
    '/v1/seat/chat/message',
    {
      send_phone: seat.phones[0]!,
      receiver_phone: customer,
      client_msg_id: `reply-ch-${process.pid}-${++n}`,
      ...body,
    },
    seat.token,
  );
}

describe('Telegram', () => {
  it("an operator's reply goes out with reply_to_message_id; a customer's reply comes in quoted", async () => {
    const seat = await createSeat(t, 'tg-replies');
    const botToken = tg.createBot('tg_replies_bot');
    await t.services.telegramBots.bind(seat.phones[0]!, botToken);
    const user = { id: 6_200_000_000 + process.pid, first_name: 'Olga' };
    const asked = tg.pushMessage(botToken, user, { text: 'Is it in stock?' });
    const customer = customerNumberOf(user.id);
    const question = await vi.waitFor(async () => {
      const list = await history(seat, customer);
      expect(list).toHaveLength(1);
      return list[0]!;
    }, WAIT);

    const reply = await send(seat, customer, { content: 'Yes, 3 left', reply_to: question.msg_id });
    expect(reply.code).toBe('000000');
    const sent = await vi.waitFor(() => {
      const log = tg.bot(botToken).sent;
      expect(log).toHaveLength(1);
      return log[0]!;
    }, WAIT);
    expect(sent).toMatchObject({ method: 'sendMessage', text: 'Yes, 3 left' });
    expect(sent.params.reply_to_message_id).toBe(String(asked.message.message_id));
    await vi.waitFor(async () => {
      const mine = (await history(seat, customer)).find((m) => m.msg_id === reply.data.msg_id);
      expect(mine?.status).toBe('sent');
    }, WAIT);

    // The customer replies to the bot's message, then to their own.
    const great = tg.pushReply(botToken, user, sent.message_id, { text: 'Great, I take one' });
    tg.pushReply(botToken, user, asked.message.message_id as number, { text: 'and this too' });
    const list = await vi.waitFor(async () => {
      const got = await history(seat, customer);
      expect(got).toHaveLength(4);
      return got;
    }, WAIT);
    expect(list[2]).toMatchObject({
      content: 'Great, I take one',
      reply_to: reply.data.msg_id,
      quote: { direction: 'out', type: 'text', preview: 'Yes, 3 left', deleted: false },
    });
    expect(list[3]).toMatchObject({
      content: 'and this too',
      reply_to: question.msg_id,
      quote: { direction: 'in', preview: 'Is it in stock?' },
    });

    // A reply to the customer's reply: Telegram's id of a customer message it delivered.
    const again = await send(seat, customer, { content: 'Reserved', reply_to: list[2]!.msg_id });
    expect(again.code).toBe('000000');
    const second = await vi.waitFor(() => {
      const log = tg.bot(botToken).sent;
      expect(log).toHaveLength(2);
      return log[1]!;
    }, WAIT);
    expect(second.params.reply_to_message_id).toBe(String(great.message.message_id));
    expect(second.text).toBe('Reserved');

    // The customer deleted their message on Telegram (a bot is not told): the reply still
    // goes, unquoted, instead of failing for good.
    tg.bot(botToken)
      .chats.get(String(user.id))!
      .delete(great.message.message_id as number);
    const late = await send(seat, customer, { content: 'Still here', reply_to: list[2]!.msg_id });
    expect(late.data.quote).toMatchObject({ msg_id: list[2]!.msg_id });
    const third = await vi.waitFor(() => {
      const log = tg.bot(botToken).sent;
      expect(log).toHaveLength(3);
      return log[2]!;
    }, WAIT);
    expect(third).toMatchObject({ text: 'Still here' });
    expect(third.params.allow_sending_without_reply).toBe('true');
  });
});

describe('customer sandbox', () => {
  it("the operator's reply shows its quote on the sandbox; the customer's reply shows its quote in the console", async () => {
    const seat = await createSeat(t, 'sandbox-replies');
    const key = browserKey();
    const sandbox = sandboxAs(t, key);
    const customer = nextPhone('+4495');
    const first = await sandbox.send({
      account: seat.phones[0],
      customer,
      content: 'Do you ship to Lisbon?',
    });
    expect(first.code).toBe('000000');
    const question = (await history(seat, customer))[0]!;
    const reply = await send(seat, customer, {
      content: 'We do, in 2 days',
      reply_to: question.msg_id,
    });
    expect(reply.code).toBe('000000');

    const entries = await vi.waitFor(async () => {
      const list = (await sandbox.chat(seat.phones[0]!, customer)).data!.list;
      expect(list).toHaveLength(2);
      return list;
    }, WAIT);
    expect(entries[1]).toMatchObject({
      direction: 'out',
      content: 'We do, in 2 days',
      quote: {
        id: first.data.id,
        direction: 'in',
        preview: 'Do you ship to Lisbon?',
        deleted: false,
      },
    });
    expect(entries[0]!.quote).toBeNull();

    // The customer replies to the operator's message.
    const back = await sandbox.send({
      account: seat.phones[0],
      customer,
      content: 'Perfect',
      reply_to: entries[1]!.id,
    });
    expect(back.code).toBe('000000');
    expect(back.data.quote).toMatchObject({
      id: entries[1]!.id,
      direction: 'out',
      preview: 'We do, in 2 days',
    });
    const console = await history(seat, customer);
    expect(console[2]).toMatchObject({
      content: 'Perfect',
      reply_to: reply.data.msg_id,
      quote: { direction: 'out', preview: 'We do, in 2 days', deleted: false },
    });

    // Retracted: both sides show a deleted quote.
    await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: reply.data.msg_id, scope: 'all' },
      seat.token,
    );
    await vi.waitFor(async () => {
      const list = (await sandbox.chat(seat.phones[0]!, customer)).data!.list;
      expect(list[2]!.quote).toMatchObject({ deleted: true, preview: '' });
    }, WAIT);
    expect((await history(seat, customer))[2]!.quote).toMatchObject({ deleted: true });
  });

  it("an entry of another customer's chat is refused (100001 naming reply_to); nothing is stored", async () => {
    const seat = await createSeat(t, 'sandbox-replies-2');
    const key = browserKey();
    const sandbox = sandboxAs(t, key);
    const mine = nextPhone('+4496');
    const theirs = nextPhone('+4496');
    await sandbox.send({ account: seat.phones[0], customer: mine, content: 'mine' });
    const other = await sandbox.send({
      account: seat.phones[0],
      customer: theirs,
      content: 'theirs',
    });
    const refused = await sandbox.send({
      account: seat.phones[0],
      customer: mine,
      content: 'quoted wrong',
      reply_to: other.data.id,
    });
    expect(refused.code).toBe('100001');
    expect((await sandbox.chat(seat.phones[0]!, mine)).data!.list).toHaveLength(1);
    expect(await history(seat, mine)).toHaveLength(1);
  });
});

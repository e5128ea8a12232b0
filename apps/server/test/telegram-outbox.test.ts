import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { corpus, uploaded } from './media-helpers.js';
import { telegramConfigFor, TelegramBotApiServer } from './telegram-bot-api-server.js';

// End to end: an operator's message goes API -> outbox -> worker -> the 'telegram' adapter ->
// the local Bot API; the customer's side is what that server received.
let tg: TelegramBotApiServer;
let t: TestApp;
beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  t = await createTestApp({ telegram: telegramConfigFor(tg.url) });
});
afterAll(async () => {
  await t?.close();
  await tg?.stop();
});

let n = 0;
async function customerChat(account: string) {
  const seat = await createSeat(t, account);
  const botToken = tg.createBot(`${account.replace(/-/g, '_')}_bot`);
  await t.services.telegramBots.bind(seat.phones[0]!, botToken);
  const user = { id: 6_100_000_000 + process.pid * 10 + ++n, first_name: 'Ivan' };
  tg.pushMessage(botToken, user, { text: 'hello?' });
  const customer = customerNumberOf(user.id);
  await vi.waitFor(
    async () => {
      const res = await record(seat, customer);
      expect(res.data?.list).toHaveLength(1);
    },
    { timeout: 15_000, interval: 25 },
  );
  return { seat, botToken, user, customer };
}

function record(seat: SeatFixture, customer: string) {
  return t.call(
    '/v1/seat/chat/getChatRecord',
    { send_phone: seat.phones[0]!, receiver_phone: customer, page_size: 50 },
    seat.token,
  );
}

function send(seat: SeatFixture, customer: string, body: Record<string, unknown>) {
  return t.call(
    '/v1/seat/chat/message',
    {
      send_phone: seat.phones[0]!,
      receiver_phone: customer,
      type: 'text',
      client_msg_id: `tg-outbox-${process.pid}-${++n}`,
      ...body,
    },
    seat.token,
  );
}

describe('operator messages reach the customer on Telegram', () => {
  it('text and a photo go out once through the outbox; deletion for all retracts on Telegram', async () => {
    const { seat, botToken, user, customer } = await customerChat('tg-e2e');
    const text = await send(seat, customer, { content: 'Hello from the console' });
    expect(text.code).toBe('000000');
    const image = await uploaded(t, seat.token, 'image', 'photo.png');
    const photo = await send(seat, customer, {
      type: 'image',
      content: 'our shop',
      media_id: image.media_id,
    });
    expect(photo.code).toBe('000000');

    const sent = await vi.waitFor(
      () => {
        const log = tg.bot(botToken).sent;
        expect(log).toHaveLength(2);
        return log;
      },
      { timeout: 15_000, interval: 25 },
    );
    expect(sent[0]).toMatchObject({
      method: 'sendMessage',
      chat_id: String(user.id),
      text: 'Hello from the console',
    });
    expect(sent[1]).toMatchObject({
      method: 'sendPhoto',
      chat_id: String(user.id),
      caption: 'our shop',
    });
    expect(sent[1]!.file?.bytes.equals(corpus('photo.png'))).toBe(true);

    // The console shows both as sent, never failed.
    const list = (await record(seat, customer)).data.list.filter((m) => m.direction === 'out');
    expect(list.map((m) => m.status)).toEqual(['sent', 'sent']);

    // Deleted for all: Telegram is asked to delete that very message.
    const del = await t.call(
      '/v1/seat/chat/del_message',
      { msg_id: text.data.msg_id, scope: 'all' },
      seat.token,
    );
    expect(del.code).toBe('000000');
    await vi.waitFor(
      () =>
        expect(tg.bot(botToken).deleted).toEqual([
          { chat_id: String(user.id), message_id: sent[0]!.message_id },
        ]),
      { timeout: 15_000, interval: 25 },
    );
    expect(tg.bot(botToken).sent).toHaveLength(2);
  });

  it('a chat added again with a greeting: the greeting reaches the customer on Telegram, once', async () => {
    const { seat, botToken, user, customer } = await customerChat('tg-greet');
    const sessionId = (await record(seat, customer)).data.list[0]!.session_id;
    // The operator deleted the chat; the bot knows the customer, so it can start it again.
    await t.call('/v1/seat/chat/delSession', { session_id: sessionId }, seat.token);
    const added = await t.call(
      '/v1/seat/chat/addSession',
      {
        send_phone: seat.phones[0]!,
        receiver_phone: customer,
        greeting: 'Hello again from the console',
        client_msg_id: `tg-greet-${process.pid}`,
      },
      seat.token,
    );
    expect(added.code, added.raw).toBe('000000');
    await vi.waitFor(
      () =>
        expect(tg.bot(botToken).sent).toEqual([
          expect.objectContaining({
            method: 'sendMessage',
            chat_id: String(user.id),
            text: 'Hello again from the console',
          }),
        ]),
      { timeout: 15_000, interval: 25 },
    );
  });

  it('a rate limit is waited out and sent once; a user who blocked the bot marks it failed', async () => {
    const { seat, botToken, user, customer } = await customerChat('tg-e2e-err');
    tg.failNext('sendMessage', {
      error_code: 429,
      description: 'Too Many Requests: retry after 1',
      retry_after: 1,
    });
    const first = await send(seat, customer, { content: 'after the pause' });
    expect(first.code).toBe('000000');
    await vi.waitFor(
      () => expect(tg.bot(botToken).sent.map((m) => m.text)).toEqual(['after the pause']),
      { timeout: 15_000, interval: 25 },
    );

    tg.block(botToken, user.id);
    const second = await send(seat, customer, { content: 'are you there?' });
    expect(second.code).toBe('000000');
    await vi.waitFor(
      async () => {
        const out = (await record(seat, customer)).data.list.filter((m) => m.direction === 'out');
        expect(out.map((m) => [m.content, m.status])).toEqual([
          ['after the pause', 'sent'],
          ['are you there?', 'failed'],
        ]);
      },
      { timeout: 15_000, interval: 25 },
    );
    expect(tg.bot(botToken).sent).toHaveLength(1);
  });
});

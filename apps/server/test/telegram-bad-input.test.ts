import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT, runCli, type CliIo } from '../src/cli/run.js';
import { customerNumberOf } from '../src/channels/telegram/telegram-inbound.js';
import { createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { telegramConfigFor, TelegramBotApiServer } from './telegram-bot-api-server.js';

/**
 * Telegram updates judged one by one (issue 33), against the local Bot API server (Bot API
 * 7.x, test/telegram-bot-api-server.ts): an update whose message does not fit the Bot API's
 * shape is refused alone, the bot's next updates are still stored (the offset moves past it),
 * and a text with a NUL is stored without it.
 */
let tg: TelegramBotApiServer;
let t: TestApp;
beforeAll(async () => {
  tg = await new TelegramBotApiServer().start();
  t = await createTestApp({ telegram: telegramConfigFor(tg.url) });
  await t.app.ready();
});
afterAll(async () => {
  await t?.close();
  await tg?.stop();
});

describe('a bad update among good ones', () => {
  it('is refused alone; the updates after it are stored, a NUL stripped', async () => {
    const seat = await createSeat(t, 'tg-bad-input');
    const token = tg.createBot('tg_bad_input_bot');
    const io: CliIo = { out: () => undefined, err: () => undefined };
    const bound = await runCli(
      ['account:telegram:bind', seat.phones[0]!, '--token', token],
      io,
      t.config,
    );
    expect(bound).toBe(EXIT.OK);
    const user = {
      id: 6_000_000_000 + process.pid,
      first_name: 'Olga',
      username: 'olga_b',
      language_code: 'ru',
    };
    tg.pushMessage(token, user, { text: 'first' });
    // An object where a text belongs, and a chat id that is no number.
    tg.pushMessage(token, user, { text: { not: 'a text' } });
    tg.pushUpdate(token, {
      update_id: 900_000 + process.pid,
      message: { message_id: 'x', date: 1, chat: { id: {}, type: 'private' } },
    });
    tg.pushMessage(token, user, { text: 'nul\u0000 inside' });
    tg.pushMessage(token, user, { text: 'last' });
    const list = await vi.waitFor(
      async () => {
        const res = await t.call(
          '/v1/seat/chat/getChatRecord',
          { send_phone: seat.phones[0]!, receiver_phone: customerNumberOf(user.id), page_size: 10 },
          seat.token,
        );
        expect(res.code, res.raw).toBe('000000');
        expect(res.data.list).toHaveLength(3);
        return res.data.list;
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(list.map((m) => m.content)).toEqual(['first', 'nul inside', 'last']);
  });
});

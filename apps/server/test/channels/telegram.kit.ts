import { ERROR_CODES } from '@parley/protocol';
import { customerNumberOf } from '../../src/channels/telegram/telegram-inbound.js';
import { adminCall, createAdmin } from '../admin-helpers.js';
import { TelegramBotApiServer, telegramConfigFor } from '../telegram-bot-api-server.js';
import { CUSTOMER_NAME, type Kit } from './kit.js';

/** Telegram's customer: a user of the local Bot API server writing to the seat's bot. */
export function kit(): Kit {
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

import { parseArgs, positionals, required } from '../../lib/cli-args.js';
import type { ChannelCli } from '../channel-module.js';
import type { TelegramBotsService } from './telegram-bots.service.js';
import type { TelegramService } from './telegram.service.js';

/** The Telegram bots' commands of the admin CLI (cli/run.ts lists them with its own). */
export const telegramCli: ChannelCli<{
  telegram: TelegramService;
  telegramBots: TelegramBotsService;
}> = {
  help: `Telegram bots (the account's customers write to the bot; the server polls it):
  account:telegram:bind <phone> --token <bot-token>       bind the phone account to a bot (checked
                                                          with getMe; the channel becomes telegram)
  account:telegram:unbind <phone>                         stop serving the account's bot
  account:telegram:list                                   bound bots (tokens masked)
  tg:profile <account-phone> <customer-phone> [--username <u>] [--first-name <f>]
             [--last-name <l>] [--photo-url <url>] [--chat-id <id>]
                                                          record the Telegram profile of a customer
                                                          of a Telegram account (shown on the
                                                          profile card; lets addSession reach them)
  (PARLEY_TELEGRAM_API_URL: the Bot API, default https://api.telegram.org)`,
  commands: {
    'account:telegram:bind': async (args, s, io) => {
      const usage = 'account:telegram:bind <phone> --token <bot-token>';
      const p = parseArgs(args, ['token']);
      const [phone] = positionals(p, 1, usage);
      const bot = await s.telegramBots.bind(phone!, required(p, 'token', usage));
      io.out(
        `Bound ${bot.sendPhone} to the Telegram bot @${bot.botUsername} (id ${bot.botId}, token ${bot.token})`,
      );
    },
    'account:telegram:unbind': async (args, s, io) => {
      const [phone] = positionals(parseArgs(args, []), 1, 'account:telegram:unbind <phone>');
      await s.telegramBots.unbind(phone!);
      io.out(`Unbound the Telegram bot of ${phone!.trim()}`);
    },
    'account:telegram:list': async (args, s, io) => {
      positionals(parseArgs(args, []), 0, 'account:telegram:list');
      const rows = await s.telegramBots.list();
      if (!rows.length) return io.out('No Telegram bots bound.');
      io.out('PHONE\tBOT\tBOT ID\tTOKEN\tSEAT');
      for (const r of rows) {
        io.out(
          `${r.sendPhone}\t@${r.botUsername}\t${r.botId}\t${r.token}\t${r.seatAccount ?? '-'}`,
        );
      }
    },
    'tg:profile': async (args, s, io) => {
      const p = parseArgs(args, ['username', 'first-name', 'last-name', 'photo-url', 'chat-id']);
      const [account, customer] = positionals(
        p,
        2,
        'tg:profile <account-phone> <customer-phone> [--username <u>] [--first-name <f>] [--last-name <l>] [--photo-url <url>] [--chat-id <id>]',
      );
      const row = await s.telegram.record({
        accountPhone: account!,
        customerPhone: customer!,
        username: p.options.get('username'),
        firstName: p.options.get('first-name'),
        lastName: p.options.get('last-name'),
        photoUrl: p.options.get('photo-url'),
        chatId: p.options.get('chat-id'),
      });
      const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
      io.out(
        `Recorded the Telegram profile of ${row.receiver_phone} on ${row.send_phone}` +
          `${row.username ? ` (@${row.username}${name ? `, ${name}` : ''})` : name ? ` (${name})` : ''}`,
      );
    },
  },
};

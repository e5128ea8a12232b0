import type { AccountChannelFields } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { Actor } from '../../modules/admin/audit.service.js';
import type {
  ChannelCredentials,
  SetChannelInput,
} from '../../modules/accounts/channel-credentials.js';
import { telegramBotsRepository } from './telegram-bots.repository.js';
import type { TelegramBotsService } from './telegram-bots.service.js';
import { toTelegramStatus } from './telegram.presenter.js';

/** A Telegram account's credentials: its bot's token, checked with getMe before it is bound. */
export class TelegramCredentials implements ChannelCredentials {
  readonly channel = 'telegram' as const;

  constructor(
    private readonly db: Db,
    private readonly bots: TelegramBotsService,
  ) {}

  async bind(sendPhone: string, input: SetChannelInput, actor: Actor): Promise<void> {
    if (input.channel !== this.channel) throw new Error(`not a ${this.channel} request`);
    await this.bots.bind(sendPhone, input.bot_token, actor, 'bot_token');
  }

  async forget(trx: Db, sendPhone: string): Promise<Record<string, unknown> | null> {
    const bot = await telegramBotsRepository.findByPhone(trx, sendPhone);
    if (!bot) return null;
    await telegramBotsRepository.remove(trx, sendPhone);
    return { bot_username: bot.bot_username };
  }

  /** The bound bot and its poll state: the account's `telegram` field in the console. */
  async accountFields(
    sendPhones: readonly string[],
    now: number,
  ): Promise<Map<string, Partial<AccountChannelFields>>> {
    const bots = await telegramBotsRepository.findByPhones(this.db, sendPhones);
    return new Map(bots.map((bot) => [bot.send_phone, { telegram: toTelegramStatus(bot, now) }]));
  }
}

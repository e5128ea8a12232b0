import { ERROR_CODES, PHONE_PATTERN } from '@parley/protocol';
import type { TelegramConfig } from './telegram.config.js';
import type { Db } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { inTransaction } from '../../lib/tx.js';
import { BOT_TOKEN, BotApi, BotApiError, maskToken, type TgUser } from './bot-api.js';
import { accountsRepository } from '../../modules/accounts/accounts.repository.js';
import { telegramBotsRepository } from './telegram-bots.repository.js';
import { AuditService, CLI_ACTOR, type Actor } from '../../modules/admin/audit.service.js';
import { accountSnapshot, switchChannel } from '../../modules/accounts/accounts.service.js';

export interface BoundBot {
  sendPhone: string;
  botId: string;
  botUsername: string;
  /** Masked: the token is never shown whole once stored. */
  token: string;
  seatAccount: string | null;
}

/** Binding phone accounts to Telegram bots (the admin CLI). */
export class TelegramBotsService {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<TelegramConfig, 'apiUrl'>,
    private readonly audit: AuditService = new AuditService(db),
  ) {}

  /**
   * Binds an account to the bot of `token`, after Telegram confirmed the token (getMe). The
   * account's channel becomes 'telegram'. A bad token, or Telegram out of reach, stores
   * nothing; a bot already bound to another account answers 400008.
   */
  async bind(
    phone: string,
    rawToken: string,
    actor: Actor = CLI_ACTOR,
    /** The request's name of the token (the CLI's `token`, the console's `bot_token`). */
    tokenField = 'token',
  ): Promise<BoundBot> {
    const sendPhone = phone.trim();
    const token = rawToken.trim();
    if (!PHONE_PATTERN.test(sendPhone)) throw new AppError(ERROR_CODES.INVALID_PHONE_FORMAT);
    if (!BOT_TOKEN.test(token))
      throw invalidField(tokenField, 'a bot token like 123456:ABC-DEF… (from @BotFather)');
    const account = await accountsRepository.findByPhone(this.db, sendPhone);
    if (!account) throw notFound();

    const me = await this.getMe(token, tokenField);
    const botId = String(me.id);
    const other = await telegramBotsRepository.findByBotId(this.db, botId);
    if (other && other.send_phone !== sendPhone) {
      throw new AppError(ERROR_CODES.TG_USER_EXISTS, undefined, { bound_to: other.send_phone });
    }
    try {
      await inTransaction(this.db, async (trx) => {
        await telegramBotsRepository.upsert(trx, {
          send_phone: sendPhone,
          bot_id: botId,
          bot_username: me.username ?? '',
          token,
          now: Date.now(),
        });
        await switchChannel(trx, this.audit, {
          account,
          channel: 'telegram',
          actor,
          // The token is a secret: only the bot it opens is logged.
          after: { bot_username: me.username ?? '', bot_id: botId },
        });
      });
    } catch (err) {
      // The same bot bound to another account at the same moment.
      if (isUniqueViolation(err)) throw new AppError(ERROR_CODES.TG_USER_EXISTS);
      throw err;
    }
    return {
      sendPhone,
      botId,
      botUsername: me.username ?? '',
      token: maskToken(token),
      seatAccount: null,
    };
  }

  private async getMe(token: string, tokenField: string): Promise<TgUser> {
    let me: TgUser;
    try {
      me = await new BotApi(this.config.apiUrl, token).call<TgUser>(
        'getMe',
        {},
        { timeoutMs: 15_000 },
      );
    } catch (err) {
      if (err instanceof BotApiError && err.errorCode < 500 && err.errorCode !== 429) {
        throw invalidField(
          tokenField,
          `Telegram refused the token (${err.errorCode} ${err.description})`,
        );
      }
      const reason = err instanceof Error ? err.message : String(err);
      throw new AppError(ERROR_CODES.SERVICE_ERROR, `Telegram could not be reached: ${reason}`);
    }
    if (!me || typeof me.id !== 'number' || me.is_bot !== true) {
      throw invalidField(tokenField, 'the token is not a bot’s');
    }
    // A bot with a webhook cannot be polled (getUpdates answers 409): say so now.
    const hook = await new BotApi(this.config.apiUrl, token)
      .call<{ url?: string }>('getWebhookInfo', {}, { timeoutMs: 15_000 })
      .catch(() => null);
    if (hook?.url) {
      throw invalidField(
        tokenField,
        `the bot delivers to a webhook (${hook.url}): remove it first (deleteWebhook)`,
      );
    }
    return me;
  }

  /** Unbinds the account's bot; the account stays a Telegram account, its chats stay. */
  async unbind(phone: string, actor: Actor = CLI_ACTOR): Promise<void> {
    const account = await accountsRepository.findByPhone(this.db, phone.trim());
    await inTransaction(this.db, async (trx) => {
      const bot = await telegramBotsRepository.findByPhone(trx, phone.trim());
      if (!account || !bot || !(await telegramBotsRepository.remove(trx, phone.trim()))) {
        throw notFound();
      }
      await this.audit.record(
        trx,
        actor,
        'account.set_channel',
        'account',
        account.id,
        account.send_phone,
        accountSnapshot(account, { bot_username: bot.bot_username }),
        accountSnapshot(account),
      );
    });
  }

  async list(): Promise<BoundBot[]> {
    const rows = await telegramBotsRepository.listWithSeat(this.db);
    return rows.map((r) => ({
      sendPhone: r.send_phone,
      botId: r.bot_id,
      botUsername: r.bot_username,
      token: maskToken(r.token),
      seatAccount: r.seat_account,
    }));
  }
}

import { randomBytes } from 'node:crypto';
import type { TelegramConfig } from './telegram.config.js';
import type { Db } from '../../db/database.js';
import { BotApi, BotApiError, type TgUpdate } from './bot-api.js';
import type { TelegramInbound } from './telegram-inbound.js';
import { telegramBotsRepository } from './telegram-bots.repository.js';

export interface PollerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Back-off after a failed getUpdates, doubling up to this. */
const MAX_BACKOFF_MS = 60_000;
/** Tries at storing one update before it is skipped. */
const MAX_ATTEMPTS = 5;

/**
 * Long-polls every bound bot with getUpdates. Each bot has a lease row: the instance that
 * takes it (compare-and-set on `lease_until`) polls the bot and renews the lease before each
 * poll; the others leave the bot alone until the lease runs out, then one of them takes it
 * over. So with several instances a bot is polled by exactly one, and Telegram never answers
 * 409 "terminated by other getUpdates request". The offset lives in the bot's row and moves
 * past an update only once it is stored; a replayed update is then recognised by its message.
 */
export class TelegramPoller {
  /** This instance, as lease owner. */
  readonly owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  private readonly loops = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, number>();
  private readonly abort = new AbortController();
  private scanning: Promise<void> | null = null;
  private stopping = false;
  private wakeScan: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly config: TelegramConfig,
    private readonly inbound: TelegramInbound,
    private readonly log: PollerLog,
  ) {}

  start(): void {
    if (this.scanning || !this.config.polling) return;
    this.scanning = this.scanLoop();
  }

  /** Stops polling and frees the leases, so another instance takes the bots over at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.wakeScan?.();
    await this.scanning;
    await Promise.allSettled([...this.loops.values()]);
    await this.inbound.settled();
    this.scanning = null;
  }

  /** How many bots this instance polls now. */
  get polling(): number {
    return this.loops.size;
  }

  private async scanLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        const now = Date.now();
        for (const bot of await telegramBotsRepository.listPollable(this.db, this.owner, now)) {
          if (this.loops.has(bot.send_phone)) continue;
          const until = now + this.config.leaseMs;
          if (
            await telegramBotsRepository.takeLease(
              this.db,
              { sendPhone: bot.send_phone, token: bot.token },
              this.owner,
              now,
              until,
            )
          ) {
            const loop = this.pollBot(bot).finally(() => this.loops.delete(bot.send_phone));
            this.loops.set(bot.send_phone, loop);
          }
        }
      } catch (err) {
        if (!this.stopping) this.log.error({ err }, 'telegram scan failed');
      }
      await this.sleep(this.config.scanIntervalMs);
    }
  }

  /**
   * One bot: renew the lease, long-poll, store the updates; repeat. A cycle costs one statement
   * of its own besides the updates' (renewLease: the lease, the offset past the updates stored
   * in the cycle before, the poll's status), so an update that arrives while the poller is
   * storing the ones before it waits for as little as can be before it is fetched.
   */
  private async pollBot(bot: { send_phone: string; token: string }): Promise<void> {
    const key = { sendPhone: bot.send_phone, token: bot.token };
    const api = new BotApi(this.config.apiUrl, bot.token);
    let backoff = 1000;
    /** Past the updates stored since the offset was last written (null: nothing to move). */
    let stored: number | null = null;
    /** When the last poll answered, not yet written (the admin console's status). */
    let polledAt: number | null = null;
    try {
      while (!this.stopping) {
        const now = Date.now();
        // Lost (expired and taken), unbound or rebound to another token: this loop ends (the
        // updates stored since come again to the next poller, which recognises them).
        const offset = await telegramBotsRepository.renewLease(
          this.db,
          key,
          this.owner,
          now,
          now + this.config.leaseMs,
          { offset: stored, polledAt },
        );
        if (offset === null) return;
        stored = null;
        polledAt = null;
        let updates: TgUpdate[];
        try {
          updates = await api.call<TgUpdate[]>(
            'getUpdates',
            { offset, timeout: this.config.pollTimeoutSeconds, allowed_updates: ['message'] },
            { signal: this.abort.signal, timeoutMs: (this.config.pollTimeoutSeconds + 15) * 1000 },
          );
          backoff = 1000;
          polledAt = Date.now();
        } catch (err) {
          if (this.stopping) return;
          await telegramBotsRepository
            .pollFailed(this.db, key, describePollError(err), Date.now())
            .catch(() => undefined);
          const wait =
            err instanceof BotApiError && err.retryAfterSeconds !== null
              ? err.retryAfterSeconds * 1000
              : backoff;
          this.log.warn({ err, account: bot.send_phone }, 'telegram getUpdates failed');
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
          await this.sleep(wait);
          continue;
        }
        if (updates.length === 0 || this.stopping) continue;
        // The poll's updates together through the door (one commit, as a webhook's delivery),
        // then the offset once, past every update that has its fate.
        const fates = await this.inbound.handle(bot, updates);
        const failed = fates.findIndex((f) => f.status === 'rejected');
        let next = updates.at(-1)!.update_id + 1;
        if (failed < 0) this.failures.delete(bot.send_phone);
        else {
          // Not stored: the offset stops at it and it comes again after a pause (the updates
          // after it too: those stored are recognised), up to MAX_ATTEMPTS times (one bad
          // update must not stop the bot for good).
          const update = updates[failed]!;
          const attempts = (this.failures.get(bot.send_phone) ?? 0) + 1;
          this.failures.set(bot.send_phone, attempts);
          this.log.error(
            {
              err: (fates[failed] as PromiseRejectedResult).reason,
              account: bot.send_phone,
              update: update.update_id,
              attempts,
            },
            'telegram update not stored',
          );
          if (attempts < MAX_ATTEMPTS) next = update.update_id;
          else {
            this.failures.delete(bot.send_phone);
            next = update.update_id + 1;
          }
        }
        // Written with the next cycle's lease (or when the lease is freed), before the next
        // getUpdates confirms these updates to Telegram.
        if (next > offset) stored = next;
        if (failed >= 0 && next === updates[failed]!.update_id) {
          // A pause before the failed update comes again: the offset is written now, not after
          // it, so what is stored is recorded while the bot waits (a poller taking over, the
          // admin console). Only on this path: a cycle that stores everything stays one statement.
          if (stored !== null) {
            await telegramBotsRepository.advanceOffset(this.db, bot.send_phone, this.owner, stored);
            stored = null;
          }
          await this.sleep(backoff);
        }
      }
    } catch (err) {
      if (!this.stopping)
        this.log.error({ err, account: bot.send_phone }, 'telegram poller stopped');
    } finally {
      await telegramBotsRepository
        .releaseLease(this.db, bot.send_phone, this.owner, stored)
        .catch(() => undefined);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.abort.signal.removeEventListener('abort', done);
        if (this.wakeScan === done) this.wakeScan = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.abort.signal.addEventListener('abort', done);
      this.wakeScan = done;
    });
  }
}

/** What the admin console shows of a failed getUpdates (never the token: URLs are not logged). */
function describePollError(err: unknown): string {
  if (err instanceof BotApiError) return `${err.errorCode} ${err.description}`.slice(0, 300);
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}

import type { Db } from '../../db/database.js';
import type { TelegramBotRow } from '../../db/schema.js';

export const telegramBotsRepository = {
  findByPhone(db: Db, sendPhone: string) {
    return db
      .selectFrom('telegram_bots')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .executeTakeFirst();
  },

  /** The bots of these accounts (the admin console's page of accounts). */
  findByPhones(db: Db, sendPhones: readonly string[]): Promise<TelegramBotRow[]> {
    if (sendPhones.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('telegram_bots')
      .selectAll()
      .where('send_phone', 'in', sendPhones)
      .execute();
  },

  findByBotId(db: Db, botId: string) {
    return db
      .selectFrom('telegram_bots')
      .selectAll()
      .where('bot_id', '=', botId)
      .executeTakeFirst();
  },

  listAll(db: Db): Promise<TelegramBotRow[]> {
    return db.selectFrom('telegram_bots').selectAll().orderBy('send_phone').execute();
  },

  /** Every bound bot with the seat holding its account (the CLI's list). */
  listWithSeat(db: Db) {
    return db
      .selectFrom('telegram_bots')
      .innerJoin('phone_accounts', 'phone_accounts.send_phone', 'telegram_bots.send_phone')
      .leftJoin('seats', 'seats.id', 'phone_accounts.seat_id')
      .select([
        'telegram_bots.send_phone',
        'telegram_bots.bot_id',
        'telegram_bots.bot_username',
        'telegram_bots.token',
        'seats.account as seat_account',
      ])
      .orderBy('telegram_bots.send_phone')
      .execute();
  },

  /** Binds (or rebinds) an account's bot: a new bot starts from the first pending update. */
  async upsert(
    db: Db,
    row: { send_phone: string; bot_id: string; bot_username: string; token: string; now: number },
  ) {
    await db.deleteFrom('telegram_bots').where('send_phone', '=', row.send_phone).execute();
    await db
      .insertInto('telegram_bots')
      .values({
        send_phone: row.send_phone,
        bot_id: row.bot_id,
        bot_username: row.bot_username,
        token: row.token,
        lease_owner: null,
        created_at: row.now,
      })
      .execute();
  },

  async remove(db: Db, sendPhone: string): Promise<boolean> {
    const result = await db
      .deleteFrom('telegram_bots')
      .where('send_phone', '=', sendPhone)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Bots whose lease is free (or already this instance's) at `now`. */
  listPollable(db: Db, owner: string, now: number) {
    return db
      .selectFrom('telegram_bots')
      .select(['send_phone', 'token'])
      .where((eb) => eb.or([eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
      .execute();
  },

  /**
   * Takes or renews the lease on a bot (compare-and-set: one instance wins). False when
   * another instance holds it, the bot was unbound, or its token changed.
   */
  async takeLease(
    db: Db,
    key: { sendPhone: string; token: string },
    owner: string,
    now: number,
    until: number,
  ): Promise<boolean> {
    const result = await db
      .updateTable('telegram_bots')
      .set({ lease_owner: owner, lease_until: until })
      .where('send_phone', '=', key.sendPhone)
      .where('token', '=', key.token)
      .where((eb) => eb.or([eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * A poll's one statement (telegram-poller.ts): takes or renews the lease as takeLease does
   * and, in the same row write, moves the offset past the updates stored (`offset`, forward
   * only) and records the last answered poll (`polledAt`, the admin console's status). Answers
   * the offset to poll from, or null when the lease is not this instance's (another holds it,
   * the bot was unbound, or its token changed): then nothing is written.
   */
  async renewLease(
    db: Db,
    key: { sendPhone: string; token: string },
    owner: string,
    now: number,
    until: number,
    moved: { offset: number | null; polledAt: number | null },
  ): Promise<number | null> {
    const row = await db
      .updateTable('telegram_bots')
      .set((eb) => ({
        lease_owner: owner,
        lease_until: until,
        ...(moved.offset !== null
          ? {
              update_offset: eb
                .case()
                .when('update_offset', '<', moved.offset)
                .then(moved.offset)
                .else(eb.ref('update_offset'))
                .end(),
            }
          : {}),
        ...(moved.polledAt !== null ? { last_poll_at: moved.polledAt } : {}),
      }))
      .where('send_phone', '=', key.sendPhone)
      .where('token', '=', key.token)
      .where((eb) => eb.or([eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
      .returning('update_offset')
      .executeTakeFirst();
    return row ? Number(row.update_offset) : null;
  },

  /** The long-poll answered (the admin console's status). */
  async pollSucceeded(db: Db, key: { sendPhone: string; token: string }, now: number) {
    await db
      .updateTable('telegram_bots')
      .set({ last_poll_at: now })
      .where('send_phone', '=', key.sendPhone)
      .where('token', '=', key.token)
      .execute();
  },

  async pollFailed(db: Db, key: { sendPhone: string; token: string }, error: string, now: number) {
    await db
      .updateTable('telegram_bots')
      .set({ last_error: error, last_error_at: now })
      .where('send_phone', '=', key.sendPhone)
      .where('token', '=', key.token)
      .execute();
  },

  /** Frees the lease; `offset`: past the updates stored since the last poll (forward only). */
  async releaseLease(db: Db, sendPhone: string, owner: string, offset: number | null = null) {
    await db
      .updateTable('telegram_bots')
      .set((eb) => ({
        lease_owner: null,
        lease_until: 0,
        ...(offset !== null
          ? {
              update_offset: eb
                .case()
                .when('update_offset', '<', offset)
                .then(offset)
                .else(eb.ref('update_offset'))
                .end(),
            }
          : {}),
      }))
      .where('send_phone', '=', sendPhone)
      .where('lease_owner', '=', owner)
      .execute();
  },

  async offsetOf(db: Db, sendPhone: string): Promise<number | null> {
    const row = await db
      .selectFrom('telegram_bots')
      .select('update_offset')
      .where('send_phone', '=', sendPhone)
      .executeTakeFirst();
    return row ? Number(row.update_offset) : null;
  },

  /** Moves the offset forward only, and only while `owner` holds the lease. */
  async advanceOffset(db: Db, sendPhone: string, owner: string, offset: number) {
    await db
      .updateTable('telegram_bots')
      .set({ update_offset: offset })
      .where('send_phone', '=', sendPhone)
      .where('lease_owner', '=', owner)
      .where('update_offset', '<', offset)
      .execute();
  },
};

import type { Db } from '../../db/database.js';
import type { TelegramProfileRow } from '../../db/schema.js';

export type ProfileFields = Partial<
  Pick<
    TelegramProfileRow,
    | 'tg_chat_id'
    | 'username'
    | 'first_name'
    | 'last_name'
    | 'photo_url'
    | 'language_code'
    | 'photo_media_id'
  >
>;

export const telegramRepository = {
  find(db: Db, sendPhone: string, receiverPhone: string) {
    return db
      .selectFrom('telegram_profiles')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .where('receiver_phone', '=', receiverPhone)
      .executeTakeFirst();
  },

  /**
   * One chat of a seat with its account's channel and the customer's profile (null columns
   * when none is recorded); undefined when the seat has no such chat.
   */
  findForSession(db: Db, seatId: number, sessionId: number) {
    return db
      .selectFrom('sessions')
      .innerJoin('phone_accounts', 'phone_accounts.send_phone', 'sessions.send_phone')
      .leftJoin('telegram_profiles', (join) =>
        join
          .onRef('telegram_profiles.send_phone', '=', 'sessions.send_phone')
          .onRef('telegram_profiles.receiver_phone', '=', 'sessions.receiver_phone'),
      )
      .select([
        'phone_accounts.channel',
        'telegram_profiles.id as profile_id',
        'telegram_profiles.username',
        'telegram_profiles.first_name',
        'telegram_profiles.last_name',
        'telegram_profiles.photo_url',
        'telegram_profiles.photo_media_id',
      ])
      .where('sessions.seat_id', '=', seatId)
      .where('sessions.id', '=', sessionId)
      .executeTakeFirst();
  },

  /**
   * The profile links of the customers who wrote, in one statement (one row per customer: an
   * upsert touches a row once): a new profile, or the recorded one with these fields (its
   * language kept when none is given; its photo kept).
   */
  async upsertLinks(
    db: Db,
    rows: {
      sendPhone: string;
      receiverPhone: string;
      fields: Required<
        Pick<ProfileFields, 'tg_chat_id' | 'username' | 'first_name' | 'last_name'>
      > &
        Pick<ProfileFields, 'language_code'>;
    }[],
    now: number,
  ): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('telegram_profiles')
      .values(
        rows.map(({ sendPhone, receiverPhone, fields }) => ({
          send_phone: sendPhone,
          receiver_phone: receiverPhone,
          tg_chat_id: fields.tg_chat_id,
          username: fields.username,
          first_name: fields.first_name,
          last_name: fields.last_name,
          photo_url: null,
          language_code: fields.language_code ?? null,
          photo_media_id: null,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['send_phone', 'receiver_phone']).doUpdateSet((eb) => ({
          tg_chat_id: eb.ref('excluded.tg_chat_id'),
          username: eb.ref('excluded.username'),
          first_name: eb.ref('excluded.first_name'),
          last_name: eb.ref('excluded.last_name'),
          language_code: eb.fn.coalesce(
            'excluded.language_code',
            'telegram_profiles.language_code',
          ),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  },

  /** Inserts the profile, or updates the given fields of the recorded one. */
  upsert(
    db: Db,
    key: { sendPhone: string; receiverPhone: string },
    fields: ProfileFields,
    now: number,
  ): Promise<TelegramProfileRow> {
    return db
      .insertInto('telegram_profiles')
      .values({
        send_phone: key.sendPhone,
        receiver_phone: key.receiverPhone,
        tg_chat_id: fields.tg_chat_id ?? null,
        username: fields.username ?? null,
        first_name: fields.first_name ?? null,
        last_name: fields.last_name ?? null,
        photo_url: fields.photo_url ?? null,
        language_code: fields.language_code ?? null,
        photo_media_id: fields.photo_media_id ?? null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['send_phone', 'receiver_phone']).doUpdateSet({ ...fields, updated_at: now }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};

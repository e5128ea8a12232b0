import type { Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';
import type { PhoneAccountRow } from '../../db/schema.js';

const findByPhoneQuery = compiledQuery((db, _shape: '', sendPhone: string) =>
  db.selectFrom('phone_accounts').selectAll().where('send_phone', '=', sendPhone),
);

export const accountsRepository = {
  /**
   * The accounts a seat writes from: those assigned to it, and the team accounts it is a member
   * of (issue 35: their own seat is the team's queue).
   */
  listBySeat(db: Db, seatId: number): Promise<PhoneAccountRow[]> {
    return db
      .selectFrom('phone_accounts')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('seat_id', '=', seatId),
          eb(
            'id',
            'in',
            eb.selectFrom('team_members').select('account_id').where('seat_id', '=', seatId),
          ),
        ]),
      )
      .orderBy('id')
      .execute();
  },
  /** The channel of a chat's account (undefined: the chat or its account is gone). */
  async channelOfChat(db: Db, sessionId: number): Promise<PhoneAccountRow['channel'] | undefined> {
    const row = await db
      .selectFrom('sessions')
      .innerJoin('phone_accounts', 'phone_accounts.send_phone', 'sessions.send_phone')
      .select('phone_accounts.channel')
      .where('sessions.id', '=', sessionId)
      .executeTakeFirst();
    return row?.channel;
  },

  /** Whether the seat is a member of the account's team (a team account's chats are its members'). */
  async isTeamMember(db: Db, accountId: number, seatId: number): Promise<boolean> {
    const row = await db
      .selectFrom('team_members')
      .select('seat_id')
      .where('account_id', '=', accountId)
      .where('seat_id', '=', seatId)
      .executeTakeFirst();
    return row !== undefined;
  },
  findByPhone(db: Db, sendPhone: string): Promise<PhoneAccountRow | undefined> {
    return findByPhoneQuery.run(db, '', sendPhone).then(([row]) => row);
  },
  insert(
    db: Db,
    row: { send_phone: string; label: string; channel: PhoneAccountRow['channel']; now: number },
  ) {
    return db
      .insertInto('phone_accounts')
      .values({
        send_phone: row.send_phone,
        label: row.label,
        channel: row.channel,
        seat_id: null,
        created_at: row.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  findById(db: Db, id: number): Promise<PhoneAccountRow | undefined> {
    return db.selectFrom('phone_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  },
  async setLabel(db: Db, id: number, label: string) {
    await db.updateTable('phone_accounts').set({ label }).where('id', '=', id).execute();
  },
  async assign(db: Db, id: number, seatId: number) {
    await db.updateTable('phone_accounts').set({ seat_id: seatId }).where('id', '=', id).execute();
  },
  async setChannel(db: Db, id: number, channel: PhoneAccountRow['channel']) {
    await db.updateTable('phone_accounts').set({ channel }).where('id', '=', id).execute();
  },

  listAll(db: Db) {
    return db
      .selectFrom('phone_accounts')
      .leftJoin('seats', 'seats.id', 'phone_accounts.seat_id')
      .select([
        'phone_accounts.send_phone',
        'phone_accounts.label',
        'phone_accounts.channel',
        'seats.account as seat_account',
      ])
      .orderBy('phone_accounts.id')
      .execute();
  },
};

import type { Db } from '../../db/database.js';

export const seatsRepository = {
  findByAccount(db: Db, account: string) {
    return db.selectFrom('seats').selectAll().where('account', '=', account).executeTakeFirst();
  },
  findById(db: Db, id: number) {
    return db.selectFrom('seats').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** By id (the console) or by account name (the CLI). */
  findByRef(db: Db, ref: number | string) {
    return typeof ref === 'number'
      ? seatsRepository.findById(db, ref)
      : seatsRepository.findByAccount(db, ref.trim());
  },
  insert(db: Db, row: { account: string; nickname: string; password_hash: string; now: number }) {
    return db
      .insertInto('seats')
      .values({
        account: row.account,
        nickname: row.nickname,
        password_hash: row.password_hash,
        frozen: 0,
        created_at: row.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },
  async setFrozen(db: Db, id: number, frozen: boolean) {
    await db
      .updateTable('seats')
      .set({ frozen: frozen ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  },
  /** The seats with a push socket open were seen now (the admin console's presence). */
  async touch(db: Db, ids: number[], now: number) {
    if (ids.length === 0) return;
    await db.updateTable('seats').set({ last_seen_at: now }).where('id', 'in', ids).execute();
  },
  /** A seat's activity (SeatPresence): a frozen seat is not moved by a token cached elsewhere. */
  async seen(db: Db, id: number, now: number) {
    await db
      .updateTable('seats')
      .set({ last_seen_at: now })
      .where('id', '=', id)
      .where('frozen', '=', 0)
      .execute();
  },
  async setNickname(db: Db, id: number, nickname: string) {
    await db.updateTable('seats').set({ nickname }).where('id', '=', id).execute();
  },
  async setPassword(db: Db, id: number, passwordHash: string) {
    await db
      .updateTable('seats')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .execute();
  },
  /** Seats with their number of phone accounts (one query). */
  list(db: Db) {
    return db
      .selectFrom('seats')
      .leftJoin('phone_accounts', 'phone_accounts.seat_id', 'seats.id')
      .select((eb) => [
        'seats.id',
        'seats.account',
        'seats.nickname',
        'seats.frozen',
        'seats.created_at',
        eb.fn.count<number>('phone_accounts.id').as('accounts'),
      ])
      .groupBy(['seats.id', 'seats.account', 'seats.nickname', 'seats.frozen', 'seats.created_at'])
      .orderBy('seats.id')
      .execute();
  },
  count(db: Db) {
    return db
      .selectFrom('seats')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },
};

import type { Db } from '../../db/database.js';

export const authRepository = {
  countRecentFailures(db: Db, account: string, since: number) {
    return db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account', '=', account)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  async recordFailure(db: Db, account: string, now: number, windowStart: number) {
    await db
      .deleteFrom('login_failures')
      .where('account', '=', account)
      .where('created_at', '<=', windowStart)
      .execute();
    await db.insertInto('login_failures').values({ account, created_at: now }).execute();
  },

  async clearFailures(db: Db, account: string) {
    await db.deleteFrom('login_failures').where('account', '=', account).execute();
  },

  async insertToken(
    db: Db,
    row: { token_hash: string; seat_id: number; created_at: number; expires_at: number },
  ) {
    await db.insertInto('tokens').values(row).execute();
  },

  findToken(db: Db, tokenHash: string) {
    return db
      .selectFrom('tokens')
      .innerJoin('seats', 'seats.id', 'tokens.seat_id')
      .select([
        'tokens.seat_id',
        'tokens.expires_at',
        'tokens.revoked_at',
        'seats.account',
        'seats.frozen',
      ])
      .where('tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },

  findValidHashes(db: Db, tokenHashes: string[], now: number) {
    return db
      .selectFrom('tokens')
      .innerJoin('seats', 'seats.id', 'tokens.seat_id')
      .select('tokens.token_hash')
      .where('tokens.token_hash', 'in', tokenHashes)
      .where('tokens.revoked_at', 'is', null)
      .where('tokens.expires_at', '>', now)
      .where('seats.frozen', '=', 0)
      .execute();
  },

  /** Revokes the seat's live tokens; answers how many. */
  async revokeSeatTokens(db: Db, seatId: number, now: number) {
    const result = await db
      .updateTable('tokens')
      .set({ revoked_at: now })
      .where('seat_id', '=', seatId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** Revokes one token (if still live); answers how many (0 or 1). */
  async revokeToken(db: Db, tokenHash: string, now: number) {
    const result = await db
      .updateTable('tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },
};

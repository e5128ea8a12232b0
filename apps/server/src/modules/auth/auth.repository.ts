import type { Db } from '../../db/database.js';

export const authRepository = {
  /**
   * Takes one attempt of `key`, atomically (an upsert: parallel requests are counted one by
   * one, on every instance), opening a new window when the last one ended. Answers how many
   * attempts the window now holds, this one included.
   */
  async takeAttempt(db: Db, key: string, now: number, windowStart: number): Promise<number> {
    const row = await db
      .insertInto('login_attempts')
      .values({ key, window_start: now, attempts: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const expired = eb('login_attempts.window_start', '<=', windowStart);
          return {
            attempts: eb
              .case()
              .when(expired)
              .then(1)
              .else(eb('login_attempts.attempts', '+', 1))
              .end(),
            window_start: eb
              .case()
              .when(expired)
              .then(now)
              .else(eb.ref('login_attempts.window_start'))
              .end(),
          };
        }),
      )
      .returning('attempts')
      .executeTakeFirstOrThrow();
    return Number(row.attempts);
  },

  /** An attempt that turned out not to be a failure gives its place back. */
  async giveBack(db: Db, key: string) {
    await db
      .updateTable('login_attempts')
      .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
      .where('key', '=', key)
      .where('attempts', '>', 0)
      .execute();
  },

  async clearAttempts(db: Db, key: string) {
    await db.deleteFrom('login_attempts').where('key', '=', key).execute();
  },

  /** Windows that ended count nothing: dropped, so sprayed names do not pile up. */
  async pruneAttempts(db: Db, windowStart: number) {
    await db.deleteFrom('login_attempts').where('window_start', '<=', windowStart).execute();
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

  /** The database's count of ended logins (migration 028): it moves when one may have ended. */
  async revocations(db: Db): Promise<number> {
    const row = await db
      .selectFrom('token_revocations')
      .select('n')
      .where('id', '=', 1)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
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

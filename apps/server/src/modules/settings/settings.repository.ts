import type { Db } from '../../db/database.js';

/** `server_settings`: small values every instance shares (the media URL secret, the demo mark). */
export const settingsRepository = {
  get(db: Db, key: string) {
    return db
      .selectFrom('server_settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
  },

  /** First writer wins: several instances starting at once agree on one value. */
  async insertIfAbsent(db: Db, key: string, value: string, now: number) {
    await db
      .insertInto('server_settings')
      .values({ key, value, created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  },
};

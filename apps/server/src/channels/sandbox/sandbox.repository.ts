import type { Db } from '../../db/database.js';
import type { SandboxEntriesTable, SandboxEntryRow } from '../../db/schema.js';
import type { Insertable } from 'kysely';

const withMedia = (db: Db) =>
  db
    .selectFrom('sandbox_entries as e')
    .leftJoin('media as m', 'm.media_id', 'e.media_id')
    .selectAll('e')
    .select(['m.file_name', 'm.size', 'm.duration_ms']);

export type SandboxEntryWithMedia = Awaited<ReturnType<typeof sandboxRepository.findWithMedia>>;

export const sandboxRepository = {
  /** The chat's newest entries, oldest first, with their media's name, size and length. */
  async chat(db: Db, sendPhone: string, receiverPhone: string, limit: number) {
    const rows = await withMedia(db)
      .where('e.send_phone', '=', sendPhone)
      .where('e.receiver_phone', '=', receiverPhone)
      .orderBy('e.send_phone', 'desc')
      .orderBy('e.receiver_phone', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  },

  insert(db: Db, row: Insertable<SandboxEntriesTable>): Promise<SandboxEntryRow> {
    return db.insertInto('sandbox_entries').values(row).returningAll().executeTakeFirstOrThrow();
  },

  findDelivered(db: Db, msgId: number) {
    return db
      .selectFrom('sandbox_entries')
      .selectAll()
      .where('direction', '=', 'out')
      .where('msg_id', '=', msgId)
      .executeTakeFirst();
  },

  /** One entry, with its media's name, size and length. */
  findWithMedia(db: Db, id: number) {
    return withMedia(db).where('e.id', '=', id).executeTakeFirstOrThrow();
  },

  findById(db: Db, id: number) {
    return db.selectFrom('sandbox_entries').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async markDeleted(db: Db, direction: 'in' | 'out', msgId: number) {
    await db
      .updateTable('sandbox_entries')
      .set({ deleted: 1 })
      .where('direction', '=', direction)
      .where('msg_id', '=', msgId)
      .execute();
  },

  /** Moves an entry's receipt state forward (compare-and-set): answers whether this call did. */
  async markSeen(db: Db, id: number, from: number, to: number): Promise<boolean> {
    const res = await db
      .updateTable('sandbox_entries')
      .set({ seen: to })
      .where('id', '=', id)
      .where('seen', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },

  /**
   * The key hash that holds a customer of an account: the one already bound, else `keyHash`
   * (bound now; of two browsers at once, the first insert wins and both read it back).
   */
  async claim(db: Db, sendPhone: string, receiverPhone: string, keyHash: string, now: number) {
    const held = () =>
      db
        .selectFrom('sandbox_customers')
        .select('key_hash')
        .where('send_phone', '=', sendPhone)
        .where('receiver_phone', '=', receiverPhone)
        .executeTakeFirst();
    const bound = await held();
    if (bound) return bound.key_hash;
    await db
      .insertInto('sandbox_customers')
      .values({
        send_phone: sendPhone,
        receiver_phone: receiverPhone,
        key_hash: keyHash,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['send_phone', 'receiver_phone']).doNothing())
      .execute();
    return (await held())!.key_hash;
  },
};

import type { Db } from '../../db/database.js';
import type { SandboxEntriesTable, SandboxEntryRow } from '../../db/schema.js';
import type { Insertable } from 'kysely';

export const sandboxRepository = {
  /** The chat's newest entries, oldest first. */
  async chat(db: Db, sendPhone: string, receiverPhone: string, limit: number) {
    const rows = await db
      .selectFrom('sandbox_entries')
      .selectAll()
      .where('send_phone', '=', sendPhone)
      .where('receiver_phone', '=', receiverPhone)
      .orderBy('send_phone', 'desc')
      .orderBy('receiver_phone', 'desc')
      .orderBy('id', 'desc')
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
};

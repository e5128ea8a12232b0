import type { Db } from '../../db/database.js';
import type { SandboxEntriesTable, SandboxEntryRow } from '../../db/schema.js';
import type { Insertable } from 'kysely';

/**
 * Entries with their media's name, size and length, and, for a reply, the quoted message
 * (Parley's row: the customer's page may never have had it) and its entry in this chat.
 */
const withMedia = (db: Db) =>
  db
    .selectFrom('sandbox_entries as e')
    .leftJoin('media as m', 'm.media_id', 'e.media_id')
    .leftJoin('messages as qm', 'qm.id', 'e.reply_to_msg_id')
    .leftJoin('sandbox_entries as q', (join) =>
      join
        .onRef('q.msg_id', '=', 'e.reply_to_msg_id')
        .onRef('q.send_phone', '=', 'e.send_phone')
        .onRef('q.receiver_phone', '=', 'e.receiver_phone'),
    )
    .selectAll('e')
    .select(['m.file_name', 'm.size', 'm.duration_ms'])
    .select([
      'q.id as quote_entry_id',
      'qm.direction as quote_direction',
      'qm.type as quote_type',
      'qm.content as quote_content',
      'qm.media as quote_media',
      'qm.deleted_for_all as quote_deleted',
    ]);

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

  /** An entry of this chat that carries a Parley message (what a reply may quote). */
  findInChat(db: Db, sendPhone: string, receiverPhone: string, id: number) {
    return db
      .selectFrom('sandbox_entries')
      .selectAll()
      .where('id', '=', id)
      .where('send_phone', '=', sendPhone)
      .where('receiver_phone', '=', receiverPhone)
      .where('msg_id', 'is not', null)
      .where('deleted', '=', 0)
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

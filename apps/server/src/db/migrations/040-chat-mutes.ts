import type { Kysely, Migration } from 'kysely';

/**
 * Issue 37 (a muted chat is not notified): the chats a seat muted, one row per seat and chat,
 * so each seat sharing a chat keeps its own choice. Gone with the chat or the seat. The key
 * leads with the chat (the cascade of a chat's deletion, the notifier's look-up of a few chats);
 * the seat's index answers its list.
 */
export function chatMutesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('chat_mutes')
        .addColumn('session_id', 'integer', (c) =>
          c.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_mutes_pk', ['session_id', 'seat_id'])
        .execute();
      await db.schema
        .createIndex('chat_mutes_seat_idx')
        .on('chat_mutes')
        .column('seat_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('chat_mutes').execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One table for "an external message is taken once", whatever its channel: the platform's
 * message ids and Telegram's (chat id, message id) pairs, so every channel uses the same
 * mechanism (channels/inbound.repository.ts). Replaces `platform_inbound` and
 * `telegram_inbound`; their rows are kept.
 */
export function inboundMessagesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('inbound_messages')
        .addColumn('channel', 'varchar(16)', (c) => c.notNull())
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('external_id', 'varchar(160)', (c) => c.notNull())
        // null: taken, but nothing stored (a blocked chat), or not yet stored.
        .addColumn('msg_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbound_messages_pk', ['channel', 'send_phone', 'external_id'])
        .execute();
      await sql`
        INSERT INTO inbound_messages (channel, send_phone, external_id, msg_id, created_at)
        SELECT 'platform', send_phone, platform_msg_id, msg_id, created_at FROM platform_inbound
      `.execute(db);
      await sql`
        INSERT INTO inbound_messages (channel, send_phone, external_id, msg_id, created_at)
        SELECT 'telegram', send_phone, tg_chat_id || ':' || CAST(tg_message_id AS varchar(32)),
               msg_id, created_at
        FROM telegram_inbound
      `.execute(db);
      await db.schema.dropTable('platform_inbound').execute();
      await db.schema.dropTable('telegram_inbound').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .createTable('platform_inbound')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('platform_msg_id', 'varchar(128)', (c) => c.notNull())
        .addColumn('msg_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('platform_inbound_pk', ['send_phone', 'platform_msg_id'])
        .execute();
      await db.schema
        .createTable('telegram_inbound')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('tg_chat_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('tg_message_id', 'bigint', (c) => c.notNull())
        .addColumn('msg_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('telegram_inbound_pk', [
          'send_phone',
          'tg_chat_id',
          'tg_message_id',
        ])
        .execute();
      await sql`
        INSERT INTO platform_inbound (send_phone, platform_msg_id, msg_id, created_at)
        SELECT send_phone, external_id, msg_id, created_at FROM inbound_messages
        WHERE channel = 'platform'
      `.execute(db);
      // Telegram's ids are `<chat id>:<message id>`; the chat id never holds a colon.
      const telegram = await sql<{
        send_phone: string;
        external_id: string;
        msg_id: number | null;
        created_at: number;
      }>`SELECT send_phone, external_id, msg_id, created_at FROM inbound_messages
         WHERE channel = 'telegram'`.execute(db);
      for (const row of telegram.rows) {
        const [chatId, messageId] = row.external_id.split(':');
        await sql`
          INSERT INTO telegram_inbound (send_phone, tg_chat_id, tg_message_id, msg_id, created_at)
          VALUES (${row.send_phone}, ${chatId}, ${Number(messageId)}, ${row.msg_id},
                  ${row.created_at})
        `.execute(db);
      }
      await db.schema.dropTable('inbound_messages').execute();
    },
  };
}

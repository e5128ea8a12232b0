import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The Telegram channel: the bot bound to a phone account (its token, the getUpdates offset,
 * and the lease that lets one server instance at a time poll it), the inbound messages
 * already taken (idempotency), and what else the channel learns of a customer (language,
 * profile photo stored as a media).
 */
export function telegramChannelMigration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('telegram_bots')
        .addColumn('send_phone', 'varchar(32)', (c) => c.primaryKey())
        // Telegram's id of the bot (text: ids exceed 32 bits); one bot serves one account.
        .addColumn('bot_id', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('bot_username', 'varchar(64)', (c) => c.notNull())
        .addColumn('token', 'varchar(128)', (c) => c.notNull())
        // The next update_id to ask getUpdates for (every update before it is handled).
        .addColumn('update_offset', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'varchar(64)')
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('telegram_inbound')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('tg_chat_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('tg_message_id', 'bigint', (c) => c.notNull())
        .addColumn('msg_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // A message Telegram hands over twice (a replayed update) is taken once.
        .addPrimaryKeyConstraint('telegram_inbound_pk', [
          'send_phone',
          'tg_chat_id',
          'tg_message_id',
        ])
        .execute();

      await db.schema
        .alterTable('telegram_profiles')
        .addColumn('language_code', 'varchar(16)')
        .execute();
      await db.schema
        .alterTable('telegram_profiles')
        .addColumn('photo_media_id', 'varchar(32)')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('telegram_profiles').dropColumn('photo_media_id').execute();
      await db.schema.alterTable('telegram_profiles').dropColumn('language_code').execute();
      await db.schema.dropTable('telegram_inbound').ifExists().execute();
      await db.schema.dropTable('telegram_bots').ifExists().execute();
    },
  };
}

import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The Telegram profile of a customer as one of the platform's Telegram accounts (a bot) sees
 * it: one row per account and customer. Filled by the Telegram channel (and, until it lands,
 * by the admin CLI's `tg:profile`); read by tg/userInfo and by addSession (a bot can only
 * write to someone who wrote to it first).
 */
export function telegramProfilesMigration(dialect: DialectName): Migration {
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('telegram_profiles')
        .addColumn('id', idType, pk)
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('receiver_phone', 'varchar(32)', (c) => c.notNull())
        // Telegram chat ids exceed 32 bits; kept as text so no engine rounds them.
        .addColumn('tg_chat_id', 'varchar(32)')
        .addColumn('username', 'varchar(64)')
        .addColumn('first_name', 'varchar(128)')
        .addColumn('last_name', 'varchar(128)')
        .addColumn('photo_url', 'varchar(1024)')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // Every lookup is by account and customer (tg/userInfo, addSession).
        .addUniqueConstraint('telegram_profiles_account_customer_uq', [
          'send_phone',
          'receiver_phone',
        ])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('telegram_profiles').ifExists().execute();
    },
  };
}

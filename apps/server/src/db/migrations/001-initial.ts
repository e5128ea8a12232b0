import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

export function initialMigration(dialect: DialectName): Migration {
  // Integer autoincrement ids on both engines.
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('seats')
        .addColumn('id', idType, pk)
        .addColumn('account', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('nickname', 'varchar(100)', (c) => c.notNull())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('frozen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('tokens')
        .addColumn('id', idType, pk)
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('tokens_seat_idx').on('tokens').column('seat_id').execute();

      await db.schema
        .createTable('phone_accounts')
        .addColumn('id', idType, pk)
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('label', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('channel', 'varchar(16)', (c) => c.notNull().defaultTo('platform'))
        .addColumn('seat_id', 'integer', (c) => c.references('seats.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('phone_accounts_seat_idx')
        .on('phone_accounts')
        .column('seat_id')
        .execute();

      await db.schema
        .createTable('seat_groups')
        .addColumn('id', idType, pk)
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('seat_groups_seat_name_uq', ['seat_id', 'name'])
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', idType, pk)
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('receiver_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) => c.notNull().references('seat_groups.id'))
        .addColumn('prev_group_id', 'integer')
        .addColumn('is_top', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('remark', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('un_read_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('add_time', 'bigint', (c) => c.notNull())
        .addColumn('latest_time', 'bigint', (c) => c.notNull())
        .addColumn('last_direction', 'varchar(8)')
        .addColumn('last_preview', 'varchar(200)')
        .addColumn('last_type', 'varchar(16)')
        .addColumn('customer_language', 'varchar(16)')
        .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('sessions_phones_uq', ['send_phone', 'receiver_phone'])
        .execute();
      // The user list: one group, pinned first, then latest activity, keyset on id.
      await db.schema
        .createIndex('sessions_list_idx')
        .on('sessions')
        .columns(['seat_id', 'group_id', 'is_top', 'latest_time', 'id'])
        .execute();
      // getChatRecord / message: find a seat's chat by its two numbers.
      await db.schema
        .createIndex('sessions_seat_phones_idx')
        .on('sessions')
        .columns(['seat_id', 'send_phone', 'receiver_phone'])
        .execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', idType, pk)
        .addColumn('session_id', 'integer', (c) =>
          c.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('client_msg_id', 'varchar(64)')
        .addColumn('direction', 'varchar(8)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('media', 'text')
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_for_me', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_for_all', 'integer', (c) => c.notNull().defaultTo(0))
        // NULL client ids (customer messages) never collide on either engine.
        .addUniqueConstraint('messages_seat_client_uq', ['seat_id', 'client_msg_id'])
        .execute();
      await db.schema
        .createIndex('messages_session_idx')
        .on('messages')
        .columns(['session_id', 'id'])
        .execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('id', idType, pk)
        .addColumn('account', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_account_idx')
        .on('login_failures')
        .columns(['account', 'created_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'login_failures',
        'messages',
        'sessions',
        'seat_groups',
        'phone_accounts',
        'tokens',
        'seats',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}

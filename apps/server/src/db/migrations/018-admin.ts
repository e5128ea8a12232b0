import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The administrator's console (issue 12): administrators and their tokens (apart from seats
 * and theirs, so neither kind of token can open the other's calls), the audit log of their
 * actions with before/after JSON, when a seat was last seen, the Telegram long-poll's state,
 * the translation characters per engine and hour (the overview's "today"), and indexes for the
 * overview's counts and the outbox list.
 */
export function adminMigration(dialect: DialectName): Migration {
  // Integer autoincrement ids on both engines (as 001).
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('admins')
        .addColumn('id', idType, pk)
        .addColumn('account', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('admin_tokens')
        .addColumn('id', idType, pk)
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('admin_tokens_admin_idx')
        .on('admin_tokens')
        .column('admin_id')
        .execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', idType, pk)
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('actor', 'varchar(64)', (c) => c.notNull())
        .addColumn('action', 'varchar(32)', (c) => c.notNull())
        .addColumn('target_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', 'integer', (c) => c.notNull())
        .addColumn('target', 'varchar(128)', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .execute();
      // Newest first, whole or by one filter (keyset on id).
      for (const [name, columns] of [
        ['audit_log_action_idx', ['action', 'id']],
        ['audit_log_actor_idx', ['actor', 'id']],
        ['audit_log_target_idx', ['target_type', 'target_id', 'id']],
        ['audit_log_at_idx', ['at', 'id']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('audit_log')
          .columns([...columns])
          .execute();
      }

      await db.schema.alterTable('seats').addColumn('last_seen_at', 'bigint').execute();
      await db.schema.alterTable('telegram_bots').addColumn('last_poll_at', 'bigint').execute();
      await db.schema.alterTable('telegram_bots').addColumn('last_error', 'text').execute();
      await db.schema.alterTable('telegram_bots').addColumn('last_error_at', 'bigint').execute();

      await db.schema
        .createTable('translation_usage')
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('engine', 'varchar(32)', (c) => c.notNull())
        .addColumn('characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('memory_characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('translation_usage_pk', ['hour', 'engine'])
        .execute();

      // Messages of today and of the last 48 h (the overview) by time.
      await db.schema
        .createIndex('messages_created_idx')
        .on('messages')
        .columns(['created_at', 'seat_id'])
        .execute();
      // The outbox list, newest first, by status and by seat; the overview's counts.
      await db.schema
        .createIndex('outbox_status_idx')
        .on('outbox')
        .columns(['status', 'id'])
        .execute();
      await db.schema
        .createIndex('outbox_seat_idx')
        .on('outbox')
        .columns(['seat_id', 'status', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('outbox_seat_idx').ifExists().execute();
      await db.schema.dropIndex('outbox_status_idx').ifExists().execute();
      await db.schema.dropIndex('messages_created_idx').ifExists().execute();
      await db.schema.dropTable('translation_usage').execute();
      await db.schema.alterTable('telegram_bots').dropColumn('last_error_at').execute();
      await db.schema.alterTable('telegram_bots').dropColumn('last_error').execute();
      await db.schema.alterTable('telegram_bots').dropColumn('last_poll_at').execute();
      await db.schema.alterTable('seats').dropColumn('last_seen_at').execute();
      await db.schema.dropTable('audit_log').execute();
      await db.schema.dropTable('admin_tokens').execute();
      await db.schema.dropTable('admins').execute();
    },
  };
}

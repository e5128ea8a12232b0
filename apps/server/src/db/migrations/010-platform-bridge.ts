import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The platform bridge: inbound idempotency (one row per platform message id and account), the
 * outbox of operator actions waiting for their channel, the channel's id of each message, and
 * the customer sandbox's own store.
 */
export function platformBridgeMigration(dialect: DialectName): Migration {
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>) {
      // The channel's id of a message: given by the platform (incoming) or answered by the
      // channel on delivery (outgoing); a deletion for all retracts it by this id.
      await db.schema.alterTable('messages').addColumn('external_id', 'varchar(128)').execute();

      await db.schema
        .createTable('platform_inbound')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('platform_msg_id', 'varchar(128)', (c) => c.notNull())
        // null: the request was taken but stored nothing (a blocked chat).
        .addColumn('msg_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('platform_inbound_pk', ['send_phone', 'platform_msg_id'])
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', idType, pk)
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('msg_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        // Due time; a claim moves it to the end of the lease, so a dead worker's claim expires.
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'varchar(512)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // The worker's claim: pending rows by due time (finished rows stay out of its way).
      await db.schema
        .createIndex('outbox_due_idx')
        .on('outbox')
        .columns(['status', 'next_at'])
        .execute();

      await db.schema
        .createTable('sandbox_entries')
        .addColumn('id', idType, pk)
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('receiver_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('direction', 'varchar(8)', (c) => c.notNull())
        // Parley's message id (the idempotency key of a delivery).
        .addColumn('msg_id', 'integer')
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('media_id', 'varchar(128)')
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
        // An operator's message: 0 stored, 1 fetched by the customer's page ('delivered' sent
        // back), 2 shown in view ('read' sent back).
        .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('sandbox_entries_chat_idx')
        .on('sandbox_entries')
        .columns(['send_phone', 'receiver_phone', 'id'])
        .execute();
      await db.schema
        .createIndex('sandbox_entries_msg_uq')
        .on('sandbox_entries')
        .columns(['direction', 'msg_id'])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sandbox_entries').ifExists().execute();
      await db.schema.dropTable('outbox').ifExists().execute();
      await db.schema.dropTable('platform_inbound').ifExists().execute();
      await db.schema.alterTable('messages').dropColumn('external_id').execute();
    },
  };
}

import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Batch replies: one row per (seat, batch_id), one item per targeted chat, and one pace row per
 * seat that the background sender uses to keep every seat's batches at the configured rate
 * across all server instances.
 */
export function batchesMigration(dialect: DialectName): Migration {
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('batches')
        .addColumn('id', idType, pk)
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('batch_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('media_id', 'varchar(128)')
        // sha256 of the normalised request: a repeat with another payload is refused.
        .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        // 1 once every item has been tried (the sender stops looking at it).
        .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('batches_seat_batch_uq', ['seat_id', 'batch_id'])
        .execute();
      // The sender: the seats with unfinished batches (few rows, whatever the history).
      await db.schema
        .createIndex('batches_done_idx')
        .on('batches')
        .columns(['done', 'seat_id'])
        .execute();

      await db.schema
        .createTable('batch_items')
        .addColumn('id', idType, pk)
        .addColumn('batch_row_id', 'integer', (c) =>
          c.notNull().references('batches.id').onDelete('cascade'),
        )
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        // No foreign key: a chat deleted meanwhile keeps its (failed) result.
        .addColumn('session_id', 'integer', (c) => c.notNull())
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('receiver_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('msg_id', 'integer')
        .addColumn('code', 'varchar(8)')
        // A claim by one sender lasts until this time (0: not claimed).
        .addColumn('claim_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('batch_items_batch_session_uq', ['batch_row_id', 'session_id'])
        .execute();
      // batch_status: a batch's items in order.
      await db.schema
        .createIndex('batch_items_batch_idx')
        .on('batch_items')
        .columns(['batch_row_id', 'id'])
        .execute();
      // The sender claims a seat's oldest pending item.
      await db.schema
        .createIndex('batch_items_claim_idx')
        .on('batch_items')
        .columns(['seat_id', 'status', 'id'])
        .execute();

      await db.schema
        .createTable('batch_pace')
        .addColumn('seat_id', 'integer', (c) =>
          c.primaryKey().references('seats.id').onDelete('cascade'),
        )
        // The seat's next message may not go out before this time.
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['batch_pace', 'batch_items', 'batches']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}

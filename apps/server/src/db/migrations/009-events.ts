import type { Kysely, Migration } from 'kysely';

/**
 * The push channel's log: one row per event of a seat, numbered per seat (`seq`, from the
 * seat's counter row, taken in the same transaction as the change), so a console that was
 * offline resumes from the last number it saw. Old rows are pruned after the retention.
 */
export function eventsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('event_counters')
        .addColumn('seat_id', 'integer', (c) =>
          c.primaryKey().references('seats.id').onDelete('cascade'),
        )
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        // Resume: a seat's events after a number, in order.
        .addPrimaryKeyConstraint('events_pk', ['seat_id', 'seq'])
        .execute();
      // The prune job: the oldest events of every seat.
      await db.schema.createIndex('events_at_idx').on('events').column('at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('events').ifExists().execute();
      await db.schema.dropTable('event_counters').ifExists().execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * Translation characters per quarter hour, seat and engine (the owner's charts). The hourly
 * `translation_usage` cannot be split at the half hours of a zone like Asia/Kolkata (+05:30) nor
 * by seat; every zone's offset is a whole number of quarter hours, so a local hour or day is
 * always a whole number of these slots. Written beside `translation_usage` as a translation is
 * metered; (seat_id, slot) answers one seat's range.
 */
export function translationSlotsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('translation_slots')
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('engine', 'varchar(32)', (c) => c.notNull())
        .addColumn('characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('memory_characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('translation_slots_pk', ['slot', 'seat_id', 'engine'])
        .execute();
      await db.schema
        .createIndex('translation_slots_seat_idx')
        .on('translation_slots')
        .columns(['seat_id', 'slot'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('translation_slots').execute();
    },
  };
}

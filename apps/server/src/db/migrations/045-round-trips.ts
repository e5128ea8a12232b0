import type { Kysely, Migration } from 'kysely';

/**
 * Issue 36 (back-translation): the round trip of each reply a seat had translated, by the
 * SHA-256 of the operator's words and of the translation (a sent message's original_content and
 * content find it again), so the bubble shows its back-translation on demand without an engine;
 * and round trips per quarter hour and seat for the owner's charts (as translation_slots).
 */
export function roundTripsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('round_trips')
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('original_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('sent_hash', 'varchar(64)', (c) => c.notNull())
        // The engine that made the translation (the bubble says so); null when nothing needed one.
        .addColumn('engine', 'varchar(32)')
        // Null when no engine could translate it back.
        .addColumn('back_translation', 'text')
        .addColumn('back_engine', 'varchar(32)')
        // JSON array of the protocol's RoundTripFlag.
        .addColumn('flags', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('round_trips_pk', ['seat_id', 'original_hash', 'sent_hash'])
        .execute();
      await db.schema
        .createTable('round_trip_slots')
        .addColumn('slot', 'bigint', (c) => c.notNull())
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('back_translations', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('flagged', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('round_trip_slots_pk', ['slot', 'seat_id'])
        .execute();
      await db.schema
        .createIndex('round_trip_slots_seat_idx')
        .on('round_trip_slots')
        .columns(['seat_id', 'slot'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('round_trip_slots').execute();
      await db.schema.dropTable('round_trips').execute();
    },
  };
}

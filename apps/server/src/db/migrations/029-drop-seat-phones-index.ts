import type { Kysely, Migration } from 'kysely';

/**
 * Drops `sessions_seat_phones_idx` (seat_id, send_phone, receiver_phone). A chat's two numbers
 * are unique across the platform (`sessions_phones_uq`), so that index finds the same one row
 * with the seat as a filter, and every lookup of an account's chats leads with send_phone too.
 * Each message, sent or received, rewrites its chat's row (its latest time is in the list
 * index, so PostgreSQL cannot update it in place): one index fewer to write each time.
 */
export function dropSeatPhonesIndexMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('sessions_seat_phones_idx').ifExists().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .createIndex('sessions_seat_phones_idx')
        .on('sessions')
        .columns(['seat_id', 'send_phone', 'receiver_phone'])
        .execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The group list's unread sums (polled every 10 s by every console) read only unread chats:
 * a partial covering index instead of a pass over every chat of the seat.
 * (bench/README.md, finding 2.)
 */
export function listIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('sessions_unread_idx')
        .on('sessions')
        .columns(['seat_id', 'group_id', 'latest_time', 'un_read_count', 'last_direction'])
        .where(sql.ref('un_read_count'), '>', 0)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('sessions_unread_idx').ifExists().execute();
    },
  };
}

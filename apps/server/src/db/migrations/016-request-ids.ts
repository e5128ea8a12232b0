import type { Kysely, Migration } from 'kysely';

/**
 * The id of the HTTP request that queued an outbox item or recorded a push event, so the log
 * lines of its delivery (on whichever instance, whenever) carry the request's id.
 */
export function requestIdsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('outbox').addColumn('request_id', 'varchar(128)').execute();
      await db.schema.alterTable('events').addColumn('request_id', 'varchar(128)').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('events').dropColumn('request_id').execute();
      await db.schema.alterTable('outbox').dropColumn('request_id').execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * Issue 37 (Web Push): each device (browser) a seat asked to be notified on, by its push
 * service's endpoint (RFC 8030) and the keys its messages are encrypted to (RFC 8291), with the
 * login it was made under (a logout of that login removes it; a revoked or expired login is
 * never sent to). One endpoint belongs to one seat: the key is its SHA-256 (endpoints run to
 * 2 KB, past an index's comfortable width).
 */
export function pushSubscriptionsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('endpoint_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('endpoint', 'varchar(2048)', (c) => c.notNull())
        .addColumn('p256dh', 'varchar(128)', (c) => c.notNull())
        .addColumn('auth', 'varchar(64)', (c) => c.notNull())
        // The language this device auto-translates customers' messages into (null: off).
        .addColumn('translate_to', 'varchar(16)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('push_subscriptions_seat_idx')
        .on('push_subscriptions')
        .column('seat_id')
        .execute();
      await db.schema
        .createIndex('push_subscriptions_token_idx')
        .on('push_subscriptions')
        .column('token_hash')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('push_subscriptions').execute();
    },
  };
}

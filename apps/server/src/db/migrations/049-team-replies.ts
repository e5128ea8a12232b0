import type { Kysely, Migration } from 'kysely';

/**
 * Issue 35, "a reply sent within 10 s after another member's reply to the same customer asks
 * for confirmation first": the last member who replied to each customer of a team account, and
 * when. One row per chat of a team account (a customer of a number), written after each reply
 * there; an account that is not a team account never has one.
 */
export function teamRepliesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('team_replies')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('receiver_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_replies_pk', ['send_phone', 'receiver_phone'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('team_replies').execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * Issue 27 (WhatsApp, part): a customer's reaction to a message (`messages.reaction`: the emoji
 * the customer last set on it, null when none; generic, only WhatsApp feeds it today), and the
 * sending pace of each WhatsApp number (`whatsapp_numbers.pace_next_at`: the earliest time its
 * next message may go to the Graph API, reserved by every instance's deliveries alike).
 */
export function reactionsPacingMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // Nullable without a default: on PostgreSQL a change of the catalogue only, however big.
      await db.schema.alterTable('messages').addColumn('reaction', 'varchar(64)').execute();
      await db.schema
        .alterTable('whatsapp_numbers')
        .addColumn('pace_next_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('whatsapp_numbers').dropColumn('pace_next_at').execute();
      await db.schema.alterTable('messages').dropColumn('reaction').execute();
    },
  };
}

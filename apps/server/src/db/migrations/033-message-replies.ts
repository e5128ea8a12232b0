import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Replies (issue 26): a message may quote an earlier message of its chat. `reply_to_id` names
 * it; `reply_quote` keeps what the quote shows (JSON: direction, type, preview), written with
 * the message so no read of a history joins the quoted row; a quoted message retracted for all
 * has its quotes' `reply_quote` cleared, which shows as "deleted message". A channel names a
 * quoted message by its own id: `messages (session_id, external_id)` finds it in its chat.
 * The sandbox's entries keep the quoted message's Parley id for the customer's page.
 */
export function messageRepliesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('messages').addColumn('reply_to_id', 'integer').execute();
      await db.schema.alterTable('messages').addColumn('reply_quote', 'text').execute();
      await sql`CREATE INDEX messages_reply_to_idx ON messages (reply_to_id)
        WHERE reply_to_id IS NOT NULL`.execute(db);
      await sql`CREATE INDEX messages_external_idx ON messages (session_id, external_id)
        WHERE external_id IS NOT NULL`.execute(db);
      await db.schema
        .alterTable('sandbox_entries')
        .addColumn('reply_to_msg_id', 'integer')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sandbox_entries').dropColumn('reply_to_msg_id').execute();
      await sql`DROP INDEX messages_external_idx`.execute(db);
      await sql`DROP INDEX messages_reply_to_idx`.execute(db);
      await db.schema.alterTable('messages').dropColumn('reply_quote').execute();
      await db.schema.alterTable('messages').dropColumn('reply_to_id').execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * The WhatsApp channel (Meta's Cloud API): the Business number bound to a phone account (its
 * IDs, the system user's access token and the app secret that signs webhooks, the verify token
 * Parley generated, what Meta said of the number, and the last Graph API error), the customers
 * it talks to (profile name, when they last wrote: the 24-hour window), and WhatsApp's ids of
 * the messages both ways (statuses find the operator's message by it; a reply's quoted id).
 */
export function whatsappMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('whatsapp_numbers')
        .addColumn('send_phone', 'varchar(32)', (c) => c.primaryKey())
        // One Business number serves one account: its webhooks find the account by it.
        .addColumn('phone_number_id', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('waba_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('access_token', 'varchar(1024)', (c) => c.notNull())
        .addColumn('app_secret', 'varchar(256)', (c) => c.notNull())
        .addColumn('verify_token', 'varchar(64)', (c) => c.notNull())
        .addColumn('verified_name', 'varchar(256)', (c) => c.notNull())
        .addColumn('display_phone_number', 'varchar(64)', (c) => c.notNull())
        .addColumn('quality_rating', 'varchar(16)', (c) => c.notNull())
        // 'ok', 'token_invalid' (error 190), 'error' (anything else the Graph API refused).
        .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('ok'))
        .addColumn('last_error', 'varchar(512)')
        .addColumn('last_error_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('whatsapp_contacts')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('wa_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('profile_name', 'varchar(256)')
        // The customer's last message: free-form replies are allowed for 24 hours after it.
        .addColumn('last_inbound_at', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('whatsapp_contacts_pk', ['send_phone', 'wa_id'])
        .execute();

      await db.schema
        .createTable('whatsapp_messages')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('wamid', 'varchar(256)', (c) => c.notNull())
        .addColumn('msg_id', 'integer', (c) => c.notNull())
        .addColumn('direction', 'varchar(8)', (c) => c.notNull())
        // An inbound reply: the wamid of the message it quotes (context.message_id).
        .addColumn('context_wamid', 'varchar(256)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('whatsapp_messages_pk', ['send_phone', 'wamid'])
        .execute();
      await db.schema
        .createIndex('whatsapp_messages_msg_idx')
        .on('whatsapp_messages')
        .column('msg_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('whatsapp_messages').ifExists().execute();
      await db.schema.dropTable('whatsapp_contacts').ifExists().execute();
      await db.schema.dropTable('whatsapp_numbers').ifExists().execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * WhatsApp templates: why a channel refused a message for good, when the console has words for
 * it (`messages.fail_reason`: 'whatsapp_window', error 131047 past the 24-hour window), and the
 * template an operator's message goes out as (its name, language and the Graph API components
 * with the placeholders' values; the message's text is the template as the customer reads it).
 */
export function whatsappTemplatesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('messages').addColumn('fail_reason', 'varchar(32)').execute();
      await db.schema
        .createTable('whatsapp_template_sends')
        .addColumn('msg_id', 'integer', (c) =>
          c.primaryKey().references('messages.id').onDelete('cascade'),
        )
        .addColumn('name', 'varchar(512)', (c) => c.notNull())
        .addColumn('language', 'varchar(16)', (c) => c.notNull())
        // JSON: the `components` of the Cloud API's template message.
        .addColumn('components', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('whatsapp_template_sends').ifExists().execute();
      await db.schema.alterTable('messages').dropColumn('fail_reason').execute();
    },
  };
}

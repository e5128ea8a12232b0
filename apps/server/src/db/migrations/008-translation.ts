import type { Kysely, Migration } from 'kysely';

/**
 * The translation memory shared by all seats (a text is sent to an engine once per source and
 * target), and the operator's original words of a translated outgoing message.
 */
export function translationMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('translation_memory')
        .addColumn('engine', 'varchar(32)', (c) => c.notNull())
        .addColumn('source_lang', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_lang', 'varchar(16)', (c) => c.notNull())
        .addColumn('text_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('translated', 'text', (c) => c.notNull())
        .addColumn('detected_lang', 'varchar(16)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // The lookup key is the primary key: one seek per batch of texts.
        .addPrimaryKeyConstraint('translation_memory_pk', [
          'engine',
          'source_lang',
          'target_lang',
          'text_hash',
        ])
        .execute();
      await db.schema.alterTable('messages').addColumn('original_content', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('messages').dropColumn('original_content').execute();
      await db.schema.dropTable('translation_memory').ifExists().execute();
    },
  };
}

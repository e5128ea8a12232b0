import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Issue 36: the workspace's glossary (terms never translated, order-number patterns, fixed
 * translations per language pair), the engines the owner chose per language pair, and one row
 * (id 1) holding the glossary's version (raised by every change: the translation memory is keyed
 * by it) and what DeepL was last told (its v3 glossary and the version it holds). Glossary hits
 * join the owner's quarter-hour translation figures.
 */
export function glossaryMigration(dialect: DialectName): Migration {
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('glossary_entries')
        .addColumn('id', idType, (c) =>
          dialect === 'pg' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('term', 'varchar(400)', (c) => c.notNull())
        // The term lower-cased: one entry per kind, term and pair whatever the case.
        .addColumn('term_key', 'varchar(400)', (c) => c.notNull())
        .addColumn('translation', 'varchar(400)')
        // Base languages of a fixed translation; '' for the other kinds (so the key is unique).
        .addColumn('source_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('target_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('glossary_entries_key', [
          'kind',
          'term_key',
          'source_lang',
          'target_lang',
        ])
        .execute();
      await db.schema
        .createTable('engine_routes')
        .addColumn('id', idType, (c) =>
          dialect === 'pg' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('source_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('target_lang', 'varchar(8)', (c) => c.notNull())
        // Engine names in fallback order, comma-separated.
        .addColumn('engines', 'varchar(200)', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('engine_routes_pair', ['source_lang', 'target_lang'])
        .execute();
      await db.schema
        .createTable('glossary_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('deepl_glossary_id', 'varchar(128)')
        // The version DeepL's glossary holds and its pairs (JSON), when it was last told.
        .addColumn('deepl_state', 'text')
        .execute();
      await sql`insert into glossary_state (id, version) values (1, 0)`.execute(db);
      await db.schema
        .alterTable('translation_slots')
        .addColumn('glossary_hits', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('translation_slots').dropColumn('glossary_hits').execute();
      await db.schema.dropTable('glossary_state').execute();
      await db.schema.dropTable('engine_routes').execute();
      await db.schema.dropTable('glossary_entries').execute();
    },
  };
}

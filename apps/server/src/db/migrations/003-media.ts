import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Uploaded media (bytes live in the media storage under their sha256), the server settings
 * that instances share (the media URL secret), and the media reference of a message.
 */
export function mediaMigration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('media')
        // Random and URL-safe: the id alone never lets anyone guess another upload.
        .addColumn('media_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('mime', 'varchar(100)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('duration_ms', 'integer')
        .addColumn('thumb_sha256', 'varchar(64)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Reclaiming bytes later: which media still use a stored file.
      await db.schema.createIndex('media_sha_idx').on('media').column('sha256').execute();

      await db.schema
        .createTable('server_settings')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema.alterTable('messages').addColumn('media_id', 'varchar(32)').execute();
      // Serving a media of a chat that moved to another seat with its phone account.
      await db.schema
        .createIndex('messages_media_idx')
        .on('messages')
        .columns(['media_id', 'seat_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('messages_media_idx').ifExists().execute();
      await db.schema.alterTable('messages').dropColumn('media_id').execute();
      await db.schema.dropTable('server_settings').ifExists().execute();
      await db.schema.dropTable('media').ifExists().execute();
    },
  };
}

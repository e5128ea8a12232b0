import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Message search and the address book.
 *
 * - SQLite: `messages_fts`, an FTS5 table with the trigram tokenizer (case-insensitive) over
 *   `messages.content` as external content (the text is stored once, in `messages`), kept in
 *   step by triggers. A quoted phrase of trigrams finds any substring of 3+ characters.
 * - PostgreSQL: a GIN trigram index (`pg_trgm`) on `messages.content`, which serves
 *   `content ILIKE '%word%'`, and `messages (seat_id, id)` for the seat's newest messages. Extensions are database-wide while our tables live in the
 *   connection's schema: the extension is created once (in `public`) and its operator class
 *   is referenced with the schema it really lives in.
 * - Both: `sessions (seat_id, receiver_phone, id)` for the address book's order and keyset.
 */
export function searchMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        await sql`create virtual table messages_fts using fts5(
          content, content = 'messages', content_rowid = 'id', tokenize = 'trigram'
        )`.execute(db);
        await sql`create trigger messages_fts_insert after insert on messages begin
          insert into messages_fts (rowid, content) values (new.id, new.content);
        end`.execute(db);
        await sql`create trigger messages_fts_delete after delete on messages begin
          insert into messages_fts (messages_fts, rowid, content)
            values ('delete', old.id, old.content);
        end`.execute(db);
        // Only a change of the text touches the index (status and flags change far more often).
        await sql`create trigger messages_fts_update after update of content on messages begin
          insert into messages_fts (messages_fts, rowid, content)
            values ('delete', old.id, old.content);
          insert into messages_fts (rowid, content) values (new.id, new.content);
        end`.execute(db);
        await sql`insert into messages_fts (messages_fts) values ('rebuild')`.execute(db);
      } else {
        const opclass = await trigramOpclass(db);
        await sql`create index messages_content_trgm_idx on messages
          using gin (content ${sql.raw(opclass)})`.execute(db);
        // The seat's newest messages, walked first for words found often (search.repository).
        await db.schema
          .createIndex('messages_seat_idx')
          .on('messages')
          .columns(['seat_id', 'id'])
          .execute();
      }
      await db.schema
        .createIndex('sessions_book_idx')
        .on('sessions')
        .columns(['seat_id', 'receiver_phone', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('sessions_book_idx').ifExists().execute();
      if (dialect === 'sqlite') {
        for (const t of ['messages_fts_insert', 'messages_fts_delete', 'messages_fts_update']) {
          await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
        }
        await sql`drop table if exists messages_fts`.execute(db);
      } else {
        await db.schema.dropIndex('messages_content_trgm_idx').ifExists().execute();
        await db.schema.dropIndex('messages_seat_idx').ifExists().execute();
      }
    },
  };
}

/**
 * `pg_trgm`'s GIN operator class, schema-qualified. The extension is created in `public` when
 * missing; where it already exists (in any schema) that one is used. Kysely runs migrations
 * under a database-wide advisory lock, so two schemas migrating at once do not race here.
 */
async function trigramOpclass(db: Kysely<unknown>): Promise<string> {
  const find = () =>
    sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  let found = (await find()).rows[0];
  if (!found) {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    found = (await find()).rows[0];
  }
  if (!found) throw new Error('the pg_trgm extension could not be created');
  return `${quoteIdent(found.schema)}.gin_trgm_ops`;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * SQLite: a group commit of sends writes its messages' search entries in one statement
 * (searchRepository.deferEntries). FTS5 keeps a transaction's new entries in memory
 * and writes them out as a segment of the index whenever another statement that may need
 * rolling back starts; a send's message was one statement, so each message wrote a segment of
 * its own, and those were merged later (bench/sqlite-fts.mjs: 66 µs a message row by row, 47
 * when a batch's rows are one statement, 14 without entries).
 *
 * While `search_entries_deferred` holds a row, the insert trigger adds no entry; the one
 * transaction that holds it (its row is never committed) writes the entries itself before it
 * commits. Any other writer, the CLI, a second instance or sqlite3 by hand, sees it empty.
 * PostgreSQL's trigram index is not concerned.
 */
export function searchEntriesDeferredMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`create table search_entries_deferred (id integer primary key)`.execute(db);
      await sql`drop trigger messages_fts_insert`.execute(db);
      await sql`create trigger messages_fts_insert after insert on messages
        when not exists (select 1 from search_entries_deferred)
        begin
          insert into messages_fts (rowid, content) values (new.id, new.content);
        end`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== 'sqlite') return;
      await sql`drop trigger messages_fts_insert`.execute(db);
      await sql`create trigger messages_fts_insert after insert on messages begin
        insert into messages_fts (rowid, content) values (new.id, new.content);
      end`.execute(db);
      await sql`drop table search_entries_deferred`.execute(db);
    },
  };
}

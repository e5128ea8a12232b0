import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Issue 35 (team accounts; docs/decisions/2026-11-29-team-accounts.md): a phone account made a
 * team account has a queue seat (the holder of its chats no member holds), its member seats,
 * its routing and capacity per seat; `team_queue` keeps when a chat entered the queue (its
 * wait; the truth of "queued" is the chat's seat being the queue seat); `team_notes` are the
 * private notes of its chats, apart from messages so no channel ever sees them.
 */
export function teamAccountsMigration(dialect: DialectName): Migration {
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('team_accounts')
        .addColumn('account_id', 'integer', (c) =>
          c.primaryKey().references('phone_accounts.id').onDelete('cascade'),
        )
        .addColumn('queue_seat_id', 'integer', (c) => c.notNull().unique().references('seats.id'))
        .addColumn('routing', 'varchar(16)', (c) => c.notNull())
        .addColumn('capacity', 'integer', (c) => c.notNull())
        // Ties rotate: the next routing starts after this member (by seat id).
        .addColumn('last_routed_seat_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('team_members')
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('team_accounts.account_id').onDelete('cascade'),
        )
        .addColumn('seat_id', 'integer', (c) =>
          c.notNull().references('seats.id').onDelete('cascade'),
        )
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('team_members_pk', ['account_id', 'seat_id'])
        .execute();
      // A seat's teams (the queue call, the isolation query).
      await db.schema
        .createIndex('team_members_seat_idx')
        .on('team_members')
        .columns(['seat_id', 'account_id'])
        .execute();
      await db.schema
        .createTable('team_queue')
        .addColumn('session_id', 'integer', (c) =>
          c.primaryKey().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('since', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('team_notes')
        .addColumn('id', idType, pk)
        .addColumn('session_id', 'integer', (c) =>
          c.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('account_id', 'integer', (c) => c.notNull())
        // Null: the owner (an administrator) wrote it.
        .addColumn('author_seat_id', 'integer')
        .addColumn('author', 'varchar(128)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('team_notes_session_idx')
        .on('team_notes')
        .columns(['session_id', 'id'])
        .execute();
      await db.schema
        .createIndex('team_notes_account_idx')
        .on('team_notes')
        .columns(['account_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('team_notes').execute();
      await db.schema.dropTable('team_queue').execute();
      await db.schema.dropTable('team_members').execute();
      await db.schema.dropTable('team_accounts').execute();
    },
  };
}

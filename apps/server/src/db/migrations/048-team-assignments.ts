import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Issue 35 (the owner's view of team accounts): each assignment of a team account's chat as a
 * fact the charts and CSV exports count, written in the assignment's transaction: a take from
 * the queue, an automatic routing, a hand-over (by a member, or the owner's when a member
 * leaves), a return to the queue. `queued_ms` is the chat's time in the queue (from entering it
 * to a take or a routing). `seat_id` is the member concerned: the one who receives the chat, or
 * for a return to the queue the one who gives it up; a seat's series counts its own.
 */
export function teamAssignmentsMigration(dialect: DialectName): Migration {
  const idType = dialect === 'pg' ? 'serial' : 'integer';
  const pk = (col: ColumnDefinitionBuilder) =>
    dialect === 'pg' ? col.primaryKey() : col.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('team_assignments')
        .addColumn('id', idType, pk)
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        // No foreign key: a fact stays counted when its chat is deleted later.
        .addColumn('session_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        // Null: it came from the queue.
        .addColumn('from_seat_id', 'integer')
        .addColumn('queued_ms', 'bigint')
        .execute();
      // The series read a range of time per bucket; a seat's series checks its seat in the index.
      await db.schema
        .createIndex('team_assignments_at_idx')
        .on('team_assignments')
        .columns(['at', 'seat_id'])
        .execute();
      // The per-seat export counts a batch of seats over a range.
      await db.schema
        .createIndex('team_assignments_seat_idx')
        .on('team_assignments')
        .columns(['seat_id', 'at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('team_assignments').execute();
    },
  };
}

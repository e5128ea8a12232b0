import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Issue 35 (the owner's view of team accounts): each assignment of a team account's chat as a
 * fact the charts and CSV exports count, written in the assignment's transaction: a take from
 * the queue, an automatic routing, a hand-over (by a member, or the owner's when a member
 * leaves), a return to the queue. `queued_ms` is the chat's time in the queue (from entering it
 * to a take or a routing). `seat_id` is the member concerned: the one who receives the chat, or
 * for a return to the queue the one who gives it up; a seat's series counts its own.
 *
 * And team_members gets the list-version triggers (migration 025): what a seat may see of a
 * team (its queue, the chats a hand-over may bring) follows its membership, so a membership
 * change moves that seat's list version as a change of its chats does.
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
      await membershipVersionTriggers(db, dialect);
    },
    async down(db: Kysely<unknown>) {
      for (const op of ['insert', 'update', 'delete']) {
        const name = sql.id(`team_members_list_version_${op}`);
        if (dialect === 'pg') await sql`drop trigger if exists ${name} on team_members`.execute(db);
        else await sql`drop trigger if exists ${name}`.execute(db);
      }
      await db.schema.dropTable('team_assignments').execute();
    },
  };
}

/** team_members' rows move their seat's list version, as sessions' and seat_groups' do (025). */
async function membershipVersionTriggers(db: Kysely<unknown>, dialect: DialectName) {
  if (dialect === 'pg') {
    // seat_list_bump (025, with 026's notice and 027's once per transaction) reads seat_id.
    for (const op of ['insert', 'update', 'delete']) {
      await sql`create constraint trigger ${sql.id(`team_members_list_version_${op}`)}
        after ${sql.raw(op)} on team_members
        deferrable initially deferred for each row
        execute function seat_list_bump()`.execute(db);
    }
    return;
  }
  const bump = (row: 'new' | 'old') =>
    sql`insert into seat_list_versions (seat_id, version)
      values (${sql.raw(row)}.seat_id, 1)
      on conflict (seat_id) do update set version = version + 1;`;
  await sql`create trigger team_members_list_version_insert after insert on team_members
    begin ${bump('new')} end`.execute(db);
  await sql`create trigger team_members_list_version_delete after delete on team_members
    begin ${bump('old')} end`.execute(db);
  await sql`create trigger team_members_list_version_update after update on team_members
    begin ${bump('old')}
      insert into seat_list_versions (seat_id, version)
        select new.seat_id, 1 where new.seat_id is not old.seat_id
        on conflict (seat_id) do update set version = version + 1;
    end`.execute(db);
}

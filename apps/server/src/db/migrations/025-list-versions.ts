import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * A version per seat of what its lists show (getGroupInfo, getGroupList): raised by the
 * database on every change of one of its chats or groups, whoever makes it (either instance,
 * the CLI, a statement by hand). A list answered under version V is answered again from its
 * bytes while the version is still V (apps/server/src/lib/list-cache.ts): the 10-second poll
 * of an unchanged console reads one row. Never lowered, never reset (a seat's id used again
 * goes on from where it was).
 *
 * PostgreSQL: deferred row triggers, so the version row is locked only at commit, after every
 * other lock of the transaction (taken earlier, it would order itself before the locks of
 * chats updated later in the same transaction and could close a deadlock cycle).
 */
export function listVersionsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('seat_list_versions')
        .addColumn('seat_id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await pgTriggers(db);
    },
    async down(db: Kysely<unknown>) {
      for (const table of TABLES) {
        for (const op of ['insert', 'update', 'delete']) {
          const name = sql.id(`${table}_list_version_${op}`);
          if (dialect === 'sqlite') await sql`drop trigger if exists ${name}`.execute(db);
          else await sql`drop trigger if exists ${name} on ${sql.id(table)}`.execute(db);
        }
      }
      if (dialect === 'pg') await sql`drop function if exists seat_list_bump()`.execute(db);
      await db.schema.dropTable('seat_list_versions').ifExists().execute();
    },
  };
}

/** What a seat's lists are read from (group_counts and session_hours follow sessions). */
const TABLES = ['sessions', 'seat_groups'] as const;

function sqliteBump(row: 'new' | 'old') {
  return sql`insert into seat_list_versions (seat_id, version)
    values (${sql.raw(row)}.seat_id, 1)
    on conflict (seat_id) do update set version = version + 1;`;
}

async function sqliteTriggers(db: Kysely<unknown>) {
  for (const table of TABLES) {
    const t = sql.id(table);
    await sql`create trigger ${sql.id(`${table}_list_version_insert`)} after insert on ${t}
      begin ${sqliteBump('new')} end`.execute(db);
    await sql`create trigger ${sql.id(`${table}_list_version_delete`)} after delete on ${t}
      begin ${sqliteBump('old')} end`.execute(db);
    // A row moved to another seat changes both seats' lists.
    await sql`create trigger ${sql.id(`${table}_list_version_update`)} after update on ${t}
      begin ${sqliteBump('old')}
        insert into seat_list_versions (seat_id, version)
          select new.seat_id, 1 where new.seat_id is not old.seat_id
          on conflict (seat_id) do update set version = version + 1;
      end`.execute(db);
  }
}

/** The channel the seats' list changes are announced on ('<schema>:<seat id>', migration 026). */
export const LIST_VERSION_CHANNEL = 'parley_list_versions';

/**
 * The version trigger's function; with `notify` (migration 026) it also announces the change;
 * with `once` (migration 027) it raises a seat's version once per transaction: a batch of sends
 * to one seat changed many of its chats, and one raise (one new row version) says it as well.
 */
export async function seatListBumpFunction(db: Kysely<unknown>, notify: boolean, once = false) {
  const bump = (row: 'old' | 'new') => {
    const raise =
      sql.raw(`insert into seat_list_versions (seat_id, version) values (${row}.seat_id, 1)
            on conflict (seat_id) do update set version = seat_list_versions.version + 1;
          ${notify ? `perform pg_notify('${LIST_VERSION_CHANNEL}', tg_table_schema || ':' || ${row}.seat_id);` : ''}`);
    // The version row written by this transaction already (its xmin) is raised enough.
    return once
      ? sql`if not exists (select 1 from seat_list_versions
              where seat_id = ${sql.raw(row)}.seat_id and xmin = pg_current_xact_id()::xid) then
            ${raise}
          end if;`
      : raise;
  };
  await sql`create or replace function seat_list_bump() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.seat_id is not null then
        ${bump('old')}
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.seat_id is distinct from old.seat_id) then
        if new.seat_id is not null then
          ${bump('new')}
        end if;
      end if;
      return null;
    end $$`.execute(db);
}

async function pgTriggers(db: Kysely<unknown>) {
  await seatListBumpFunction(db, false);
  for (const table of TABLES) {
    for (const op of ['insert', 'update', 'delete']) {
      await sql`create constraint trigger ${sql.id(`${table}_list_version_${op}`)}
        after ${sql.raw(op)} on ${sql.id(table)}
        deferrable initially deferred for each row
        execute function seat_list_bump()`.execute(db);
    }
  }
}

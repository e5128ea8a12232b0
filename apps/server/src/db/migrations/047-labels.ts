import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { LIST_VERSION_CHANNEL } from './025-list-versions.js';

/**
 * Labels (issue 35): the owner's labels (`labels`; a name unique letter case aside through
 * `name_key`, its lower case) and the labels on each chat's customer (`chat_labels`). A chat row
 * shows its labels by name, so both tables move the list version of the seat holding the chat
 * (the list cache's rule, migration 025): putting a label on or taking it off moves that seat's,
 * and a label's rename or new colour moves the version of every seat holding a chat it is on. A
 * deleted label leaves its chats through the cascade, whose deletions move them too.
 *
 * `chat_labels`' key leads with the chat (a page's labels, the list filter's probe per chat);
 * `chat_labels_label_idx` finds a label's chats (a rename's seats, the filter from the label's
 * side, the owner's counts).
 */
export function labelsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('labels')
        .addColumn('id', dialect === 'pg' ? 'serial' : 'integer', (c) =>
          dialect === 'pg' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('name_key', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('color', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('chat_labels')
        .addColumn('session_id', 'integer', (c) =>
          c.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('label_id', 'integer', (c) =>
          c.notNull().references('labels.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_labels_pk', ['session_id', 'label_id'])
        .execute();
      await db.schema
        .createIndex('chat_labels_label_idx')
        .on('chat_labels')
        .columns(['label_id', 'session_id'])
        .execute();
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await pgTriggers(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'pg') {
        await sql`drop table if exists chat_labels`.execute(db);
        await sql`drop table if exists labels`.execute(db);
        await sql`drop function if exists chat_label_list_bump()`.execute(db);
        await sql`drop function if exists label_list_bump()`.execute(db);
      } else {
        await db.schema.dropTable('chat_labels').ifExists().execute();
        await db.schema.dropTable('labels').ifExists().execute();
      }
    },
  };
}

/** SQLite: the version of the seat holding the chat, raised in the statement. */
const sqliteBumpOf = (sessionId: string) =>
  sql.raw(`insert into seat_list_versions (seat_id, version)
      select seat_id, 1 from sessions where id = ${sessionId}
      on conflict (seat_id) do update set version = version + 1;`);

async function sqliteTriggers(db: Kysely<unknown>) {
  await sql`create trigger chat_labels_list_version_insert after insert on chat_labels
    begin ${sqliteBumpOf('new.session_id')} end`.execute(db);
  await sql`create trigger chat_labels_list_version_delete after delete on chat_labels
    begin ${sqliteBumpOf('old.session_id')} end`.execute(db);
  await sql`create trigger labels_list_version_update after update on labels
    when new.name is not old.name or new.color is not old.color
    begin
      insert into seat_list_versions (seat_id, version)
        select distinct s.seat_id, 1 from chat_labels cl, sessions s
        where cl.label_id = new.id and s.id = cl.session_id
        on conflict (seat_id) do update set version = version + 1;
    end`.execute(db);
}

/**
 * PostgreSQL: deferred row triggers as migration 025's (the version row locked at commit, after
 * the transaction's other locks), announcing each raise as it does (migration 026).
 */
async function pgTriggers(db: Kysely<unknown>) {
  const raise = (seat: string) =>
    sql.raw(`insert into seat_list_versions (seat_id, version) values (${seat}, 1)
        on conflict (seat_id) do update set version = seat_list_versions.version + 1;
      perform pg_notify('${LIST_VERSION_CHANNEL}', tg_table_schema || ':' || ${seat});`);
  await sql`create or replace function chat_label_list_bump() returns trigger language plpgsql as $$
    declare
      holder integer;
    begin
      if tg_op = 'DELETE' then
        select seat_id into holder from sessions where id = old.session_id;
      else
        select seat_id into holder from sessions where id = new.session_id;
      end if;
      -- A chat deleted with its labels: the chat's own deletion moved its seat's version.
      if holder is not null then
        ${raise('holder')}
      end if;
      return null;
    end $$`.execute(db);
  await sql`create or replace function label_list_bump() returns trigger language plpgsql as $$
    declare
      holder integer;
    begin
      if new.name is distinct from old.name or new.color is distinct from old.color then
        for holder in
          select distinct s.seat_id from chat_labels cl
            join sessions s on s.id = cl.session_id
            where cl.label_id = new.id
            order by s.seat_id
        loop
          ${raise('holder')}
        end loop;
      end if;
      return null;
    end $$`.execute(db);
  for (const op of ['insert', 'delete']) {
    await sql`create constraint trigger ${sql.id(`chat_labels_list_version_${op}`)}
      after ${sql.raw(op)} on chat_labels
      deferrable initially deferred for each row
      execute function chat_label_list_bump()`.execute(db);
  }
  await sql`create constraint trigger labels_list_version_update
    after update on labels
    deferrable initially deferred for each row
    execute function label_list_bump()`.execute(db);
}

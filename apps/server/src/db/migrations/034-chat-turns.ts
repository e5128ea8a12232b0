import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * The chats' turns, kept as messages are written (the owner's charts: chats waiting, first
 * responses). A turn is a message whose direction differs from the message before it in its
 * chat: an 'in' turn (the chat's first message too) begins a wait, an 'out' turn ends it and
 * keeps when that wait began. The charts read a range of turns by time instead of replaying
 * every message of the range in chat order (bench/admin-stats.mjs).
 *
 * A chat's messages are compared in the order their turns are recorded (`seq`). On PostgreSQL
 * the trigger first locks the chats of its statement (in id order, as a send's statement does)
 * and only then reads their last turns, so two transactions writing to one chat at once see each
 * other's turn; every writer updates the chat's row anyway. The lock is the one that update
 * takes (FOR NO KEY UPDATE): FOR UPDATE would also wait on the key-share lock the message's own
 * foreign key holds on the chat, so two writers of one chat deadlocked (session-counts.test.ts).
 * SQLite has one writer.
 */
export function chatTurnsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const seq = dialect === 'pg' ? sql`seq bigserial primary key` : sql`seq integer primary key`;
      await sql`create table chat_turns (
        ${seq},
        message_id bigint not null,
        session_id integer not null,
        seat_id integer not null,
        direction varchar(8) not null,
        created_at bigint not null,
        started_at bigint
      )`.execute(db);
      // Backfill: every message's turn as the charts replayed them (chat order by id).
      await sql`insert into chat_turns
          (message_id, session_id, seat_id, direction, created_at, started_at)
        select id, session_id, seat_id, direction, created_at,
          case when direction = 'out' then
            lag(created_at) over (partition by session_id order by id) end
        from (
          select m.id, m.session_id, m.seat_id, m.direction, m.created_at,
            lag(m.direction) over (partition by m.session_id order by m.id) as prev
          from messages m
        ) x
        where (direction = 'in' and (prev is null or prev = 'out'))
          or (direction = 'out' and prev = 'in')
        order by id`.execute(db);
      // The charts' ranges: by time, the seat checked in the index, the rest read from it.
      await sql`create index chat_turns_time_idx
        on chat_turns (created_at, seat_id, session_id, direction, started_at)`.execute(db);
      // A chat's last turn (the trigger), and a chat's turns when its messages go.
      await sql`create index chat_turns_session_idx on chat_turns (session_id, seq)`.execute(db);
      if (dialect === 'pg') await pgTriggers(db);
      else await sqliteTriggers(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'pg') {
        await sql`drop trigger messages_turns_insert on messages`.execute(db);
        await sql`drop trigger messages_turns_delete on messages`.execute(db);
        await sql`drop function chat_turns_insert()`.execute(db);
        await sql`drop function chat_turns_delete()`.execute(db);
      } else {
        await sql`drop trigger messages_turns_insert`.execute(db);
        await sql`drop trigger messages_turns_delete`.execute(db);
      }
      await sql`drop table chat_turns`.execute(db);
    },
  };
}

async function sqliteTriggers(db: Kysely<unknown>) {
  await sql`create trigger messages_turns_insert after insert on messages begin
    insert into chat_turns (message_id, session_id, seat_id, direction, created_at, started_at)
      select new.id, new.session_id, new.seat_id, new.direction, new.created_at,
        case when new.direction = 'out' then last.created_at end
      from (select 1) one
      left join (
        select direction, created_at from chat_turns
        where session_id = new.session_id order by seq desc limit 1
      ) last on 1 = 1
      where (new.direction = 'in' and (last.direction is null or last.direction = 'out'))
        or (new.direction = 'out' and last.direction = 'in');
  end`.execute(db);
  await sql`create trigger messages_turns_delete after delete on messages begin
    delete from chat_turns where session_id = old.session_id and message_id = old.id;
  end`.execute(db);
}

async function pgTriggers(db: Kysely<unknown>) {
  // One statement's messages, in id order per chat: the one before the statement's first is
  // the chat's last turn (its direction is the chat's since), the others the statement's own.
  await sql`create function chat_turns_insert() returns trigger language plpgsql as $fn$
    begin
      perform 1 from sessions
        where id in (select distinct session_id from new_rows) order by id for no key update;
      insert into chat_turns (message_id, session_id, seat_id, direction, created_at, started_at)
        select id, session_id, seat_id, direction, created_at,
          case when direction = 'out' then coalesce(
            lag(created_at) over (partition by session_id order by id),
            (select t.created_at from chat_turns t
              where t.session_id = turned.session_id order by t.seq desc limit 1)) end
        from (
          select n.id, n.session_id, n.seat_id, n.direction, n.created_at,
            coalesce(lag(n.direction) over (partition by n.session_id order by n.id), (
              select t.direction from chat_turns t
              where t.session_id = n.session_id order by t.seq desc limit 1)) as prev
          from new_rows n
        ) turned
        where (direction = 'in' and (prev is null or prev = 'out'))
          or (direction = 'out' and prev = 'in')
        order by id;
      return null;
    end
  $fn$`.execute(db);
  await sql`create function chat_turns_delete() returns trigger language plpgsql as $fn$
    begin
      delete from chat_turns t using old_rows o
        where t.session_id = o.session_id and t.message_id = o.id;
      return null;
    end
  $fn$`.execute(db);
  await sql`create trigger messages_turns_insert after insert on messages
    referencing new table as new_rows
    for each statement execute function chat_turns_insert()`.execute(db);
  await sql`create trigger messages_turns_delete after delete on messages
    referencing old table as old_rows
    for each statement execute function chat_turns_delete()`.execute(db);
}

import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { DialectName } from '../database.js';

/** The hour a chat's latest activity falls in (epoch ms / 1 h, rounded down): session_hours. */
export const COUNT_HOUR_MS = 3_600_000;

/**
 * Counts of the group list and the user list, kept by the database in the transaction of each
 * change of a chat (docs/decisions/2026-11-24-kept-counts.md), so the 10-second poll reads a
 * handful of rows instead of summing every unread chat:
 *
 * - `group_counts` holds, per group: `chats`, `waiting_chats` (last message from the customer),
 *   `unread` (sum of `un_read_count`) and `waiting_unread` (the same, of waiting chats). A
 *   table of its own, not columns of `seat_groups`: a group's row is locked by its deletion
 *   and by the foreign keys of chats moved into it, and the counts must not wait on those;
 *   no foreign key either (a group's deletion removes its row; a missing row counts zero);
 * - `session_hours` holds the same four per seat, hour of `latest_time` and group: the "last 24
 *   hours" tab moves with the clock, not with a write, so the part of a count active since a
 *   moment is the sum of the later hours plus the chats of the boundary hour itself (read from
 *   `sessions` by an index: `sessions_unread_time_idx`, `sessions_list_idx`). A row whose hour holds no chat any more is deleted.
 *
 * SQLite: row triggers. PostgreSQL: statement triggers over the transition tables, which apply
 * one statement's changes at once in key order (groups by id, then hours) after the
 * statement has locked all its chats, so two transactions changing chats of the same groups
 * take the count rows' locks in the same order.
 */
export function sessionCountsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('group_counts')
        .addColumn('group_id', 'integer', (c) => c.primaryKey())
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('chats', 'integer', (c) => c.notNull())
        .addColumn('waiting_chats', 'integer', (c) => c.notNull())
        .addColumn('unread', 'integer', (c) => c.notNull())
        .addColumn('waiting_unread', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('group_counts_seat_idx')
        .on('group_counts')
        .columns(['seat_id', 'group_id'])
        .execute();
      await db.schema
        .createTable('session_hours')
        .addColumn('seat_id', 'integer', (c) => c.notNull())
        .addColumn('hour', 'bigint', (c) => c.notNull())
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('chats', 'integer', (c) => c.notNull())
        .addColumn('waiting_chats', 'integer', (c) => c.notNull())
        .addColumn('unread', 'integer', (c) => c.notNull())
        .addColumn('waiting_unread', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('session_hours_pk', ['seat_id', 'hour', 'group_id'])
        .execute();
      // The boundary hour's unread chats (group list); the group list no longer sums every
      // unread chat of the seat (sessions_unread_idx), it reads the kept counts.
      await db.schema
        .createIndex('sessions_unread_time_idx')
        .on('sessions')
        .columns(['seat_id', 'latest_time', 'un_read_count', 'last_direction'])
        .where(sql.ref('un_read_count'), '>', 0)
        .execute();
      await db.schema.dropIndex('sessions_unread_idx').ifExists().execute();

      // Counts of the chats already there.
      await sql`insert into group_counts
          (group_id, seat_id, chats, waiting_chats, unread, waiting_unread)
        select group_id, seat_id, ${SUMS} from sessions group by group_id, seat_id`.execute(db);
      await sql`insert into session_hours
          (seat_id, hour, group_id, chats, waiting_chats, unread, waiting_unread)
        select seat_id, latest_time / ${sql.lit(COUNT_HOUR_MS)}, group_id, ${SUMS}
        from sessions group by seat_id, latest_time / ${sql.lit(COUNT_HOUR_MS)}, group_id`.execute(
        db,
      );
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await pgTriggers(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') {
        for (const t of [
          'sessions_counts_insert',
          'sessions_counts_update',
          'sessions_counts_delete',
        ]) {
          await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
        }
      } else {
        for (const t of [
          'sessions_counts_insert',
          'sessions_counts_update',
          'sessions_counts_delete',
        ]) {
          await sql`drop trigger if exists ${sql.id(t)} on sessions`.execute(db);
        }
        await sql`drop function if exists session_counts_apply()`.execute(db);
      }
      await db.schema.dropTable('session_hours').ifExists().execute();
      await db.schema.dropTable('group_counts').ifExists().execute();
      await db.schema.dropIndex('sessions_unread_time_idx').ifExists().execute();
      await db.schema
        .createIndex('sessions_unread_idx')
        .on('sessions')
        .columns(['seat_id', 'group_id', 'latest_time', 'un_read_count', 'last_direction'])
        .where(sql.ref('un_read_count'), '>', 0)
        .execute();
    },
  };
}

const H = sql.lit(COUNT_HOUR_MS);
const SUMS = sql`count(*), sum(case when last_direction = 'in' then 1 else 0 end),
  sum(un_read_count), sum(case when last_direction = 'in' then un_read_count else 0 end)`;

/** SQLite: add (sign 1) or take away (sign -1) one chat row `r` ('new' or 'old'). */
function sqliteApply(r: 'new' | 'old', sign: 1 | -1) {
  const s = sql.lit(sign);
  const row = sql.raw(r);
  const waiting = sql`(case when ${row}.last_direction = 'in' then 1 else 0 end)`;
  return sql`
    insert into group_counts (group_id, seat_id, chats, waiting_chats, unread, waiting_unread)
      values (${row}.group_id, ${row}.seat_id, ${s}, ${s} * ${waiting}, ${s} * ${row}.un_read_count,
        ${s} * ${waiting} * ${row}.un_read_count)
      on conflict (group_id) do update set
        chats = chats + excluded.chats,
        waiting_chats = waiting_chats + excluded.waiting_chats,
        unread = unread + excluded.unread,
        waiting_unread = waiting_unread + excluded.waiting_unread;
    insert into session_hours (seat_id, hour, group_id, chats, waiting_chats, unread, waiting_unread)
      values (${row}.seat_id, ${row}.latest_time / ${H}, ${row}.group_id, ${s}, ${s} * ${waiting},
        ${s} * ${row}.un_read_count, ${s} * ${waiting} * ${row}.un_read_count)
      on conflict (seat_id, hour, group_id) do update set
        chats = chats + excluded.chats,
        waiting_chats = waiting_chats + excluded.waiting_chats,
        unread = unread + excluded.unread,
        waiting_unread = waiting_unread + excluded.waiting_unread;
    delete from session_hours
      where seat_id = ${row}.seat_id and hour = ${row}.latest_time / ${H}
        and group_id = ${row}.group_id and chats = 0;`;
}

async function sqliteTriggers(db: Kysely<unknown>) {
  await sql`create trigger sessions_counts_insert after insert on sessions begin
    ${sqliteApply('new', 1)}
  end`.execute(db);
  await sql`create trigger sessions_counts_delete after delete on sessions begin
    ${sqliteApply('old', -1)}
  end`.execute(db);
  // Only a change of what is counted, or of where it is counted, touches the counts.
  await sql`create trigger sessions_counts_update
    after update of seat_id, group_id, latest_time, un_read_count, last_direction on sessions
    when old.seat_id is not new.seat_id or old.group_id is not new.group_id
      or old.latest_time / ${H} is not new.latest_time / ${H}
      or old.un_read_count is not new.un_read_count
      or (old.last_direction = 'in') is not (new.last_direction = 'in')
    begin
      ${sqliteApply('old', -1)}
      ${sqliteApply('new', 1)}
    end`.execute(db);
}

async function pgTriggers(db: Kysely<unknown>) {
  // One statement's chats, leaving (old rows, -1) and arriving (new rows, +1), summed per
  // group and per hour; rows whose sums are all zero change nothing and lock nothing.
  const side = (table: string, sign: number) => sql`
    select seat_id, group_id, latest_time / ${H} as hour,
      ${sql.lit(sign)} as chats,
      ${sql.lit(sign)} * (case when last_direction = 'in' then 1 else 0 end) as waiting_chats,
      ${sql.lit(sign)} * un_read_count as unread,
      ${sql.lit(sign)} * (case when last_direction = 'in' then un_read_count else 0 end)
        as waiting_unread
    from ${sql.raw(table)}`;
  const nonzero = sql`(sum(chats) <> 0 or sum(waiting_chats) <> 0 or sum(unread) <> 0
    or sum(waiting_unread) <> 0)`;
  // Each statement reads the transition tables again (they hold this statement's rows only).
  const apply = (changes: RawBuilder<unknown>) => sql`
    if not exists (select 1 from (${changes}) c group by seat_id, group_id, hour
        having ${nonzero}) then
      return null;
    end if;
    insert into group_counts as g
        (group_id, seat_id, chats, waiting_chats, unread, waiting_unread)
      select group_id, min(seat_id), sum(chats), sum(waiting_chats), sum(unread),
        sum(waiting_unread)
      from (${changes}) c
      group by group_id having ${nonzero}
      order by group_id
      on conflict (group_id) do update set
        chats = g.chats + excluded.chats,
        waiting_chats = g.waiting_chats + excluded.waiting_chats,
        unread = g.unread + excluded.unread,
        waiting_unread = g.waiting_unread + excluded.waiting_unread;
    insert into session_hours as h
        (seat_id, hour, group_id, chats, waiting_chats, unread, waiting_unread)
      select seat_id, hour, group_id, sum(chats), sum(waiting_chats), sum(unread),
        sum(waiting_unread)
      from (${changes}) c
      group by seat_id, hour, group_id having ${nonzero}
      order by seat_id, hour, group_id
      on conflict (seat_id, hour, group_id) do update set
        chats = h.chats + excluded.chats,
        waiting_chats = h.waiting_chats + excluded.waiting_chats,
        unread = h.unread + excluded.unread,
        waiting_unread = h.waiting_unread + excluded.waiting_unread;
    delete from session_hours h
      where h.chats = 0
        and (h.seat_id, h.hour, h.group_id) in (select seat_id, hour, group_id from (${changes}) c);`;
  await sql`create function session_counts_apply() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        ${apply(side('new_rows', 1))}
      elsif tg_op = 'DELETE' then
        ${apply(side('old_rows', -1))}
      else
        ${apply(sql`${side('old_rows', -1)} union all ${side('new_rows', 1)}`)}
      end if;
      return null;
    end
  $fn$`.execute(db);
  await sql`create trigger sessions_counts_insert after insert on sessions
    referencing new table as new_rows
    for each statement execute function session_counts_apply()`.execute(db);
  await sql`create trigger sessions_counts_update after update on sessions
    referencing old table as old_rows new table as new_rows
    for each statement execute function session_counts_apply()`.execute(db);
  await sql`create trigger sessions_counts_delete after delete on sessions
    referencing old table as old_rows
    for each statement execute function session_counts_apply()`.execute(db);
}

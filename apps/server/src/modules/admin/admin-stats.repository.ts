import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Bucket } from '../../lib/time-zone.js';

/**
 * The charts' series, bucketed in the database: the buckets go in as a VALUES list (start and
 * end instants of each local hour or day, computed by the server from the zone's rules), each
 * joined to its rows by a range on an indexed time, so every series is one query over an index
 * and only one row per bucket (and direction or engine) leaves the database.
 */
function bucketsCte(buckets: Bucket[]): RawBuilder<unknown> {
  const rows = buckets.map(
    (b, i) => sql`(cast(${i} as integer), cast(${b.start} as bigint), cast(${b.end} as bigint))`,
  );
  return sql`b(i, s, e) as (values ${sql.join(rows)})`;
}

const seatOf = (column: string, seatId: number | null) =>
  seatId === null ? sql`` : sql`and ${sql.ref(column)} = ${seatId}`;
/**
 * A seat's messages by time: the seat is checked in messages_created_idx (created_at, seat_id)
 * as the range is read. `+ 0` keeps the planner off the seat's other indexes, which would read
 * every message the seat ever had.
 */
const messagesOfSeat = (seatId: number | null) =>
  seatId === null ? sql`` : sql`and m.seat_id + 0 = ${seatId}`;

/**
 * A chat's turns from `since` on: each message whose direction differs from the message before
 * it in the chat (the one before `since` looked up once per chat, in messages_session_idx). An
 * 'in' turn starts a wait, an 'out' turn ends it. Blocked chats are left out, as from the
 * overview's waiting count; a seat's are its messages'.
 */
function turnsCte(since: number, seatId: number | null): RawBuilder<unknown> {
  return sql`flow as (
      select m.id, m.session_id, m.direction, m.created_at,
        lag(m.direction) over w as prev,
        row_number() over w as nth
      from messages m join sessions s on s.id = m.session_id
      where m.created_at >= ${since} and s.blocked = 0 ${messagesOfSeat(seatId)}
      -- By an expression: the messages of the range are read by time and sorted, not every
      -- message in chat order.
      window w as (partition by m.session_id + 0 order by m.id)
    ), known as (
      select id, session_id, direction, created_at,
        case when nth = 1 then (
          select p.direction from messages p
          where p.session_id = flow.session_id and p.id < flow.id
          order by p.id desc limit 1
        ) else prev end as prev
      from flow
    ), turns as materialized (
      select id, session_id, direction, created_at from known
      where (direction = 'in' and (prev is null or prev = 'out'))
         or (direction = 'out' and prev = 'in')
    )`;
}

export const adminStatsRepository = {
  /** Messages in and out per bucket (messages_created_idx: created_at, then seat_id). */
  async messages(db: Db, buckets: Bucket[], seatId: number | null) {
    const result = await sql<{ i: number; direction: 'in' | 'out'; n: number | string }>`
      with ${bucketsCte(buckets)}
      select b.i, m.direction, count(*) as n
      from b join messages m on m.created_at >= b.s and m.created_at < b.e
      ${messagesOfSeat(seatId)}
      group by b.i, m.direction`.execute(db);
    return result.rows.map((r) => ({ i: Number(r.i), direction: r.direction, n: Number(r.n) }));
  },

  /**
   * Waits and first responses per bucket, from one pass over the chats' turns since the first
   * bucket's start (the last bucket given should reach past now: the server counts the chats
   * waiting at each bucket's end back from those waiting now).
   *
   * A reply ending a wait is timed from the wait's first customer message (the turn before it;
   * a wait begun before the range is looked up in its chat). Median (the two middle ones
   * averaged) and 90th percentile (nearest rank) by window ranks.
   */
  async waits(db: Db, buckets: Bucket[], seatId: number | null) {
    const result = await sql<{
      i: number;
      started: number | string | null;
      ended: number | string | null;
      n: number | string | null;
      median: number | string | null;
      p90: number | string | null;
    }>`
      with ${turnsCte(buckets[0]!.start, seatId)}, ${bucketsCte(buckets)},
      paired as (
        select id, session_id, direction, created_at,
          lag(created_at) over (partition by session_id order by id) as started_at
        from turns
      ), replies as materialized (
        select created_at, created_at - coalesce(started_at, (
          select min(w.created_at) from messages w
          where w.session_id = paired.session_id and w.id < paired.id and w.id > coalesce((
            select max(o.id) from messages o
            where o.session_id = paired.session_id and o.id < paired.id and o.direction = 'out'
          ), 0)
        )) as ms
        from paired where direction = 'out'
      ), ranked as (
        select b.i, r.ms,
          row_number() over (partition by b.i order by r.ms) as rn,
          count(*) over (partition by b.i) as n
        from b join replies r on r.created_at >= b.s and r.created_at < b.e
        where r.ms is not null
      ), responses as (
        select i, max(n) as n,
          avg(case when rn in ((n + 1) / 2, (n + 2) / 2) then ms end) as median,
          max(case when rn = (9 * n + 9) / 10 then ms end) as p90
        from ranked group by i
      ), counts as (
        select b.i,
          sum(case when turn.direction = 'in' then 1 else 0 end) as started,
          sum(case when turn.direction = 'out' then 1 else 0 end) as ended
        from b join turns turn on turn.created_at >= b.s and turn.created_at < b.e
        group by b.i
      )
      select b.i, c.started, c.ended, r.n, r.median, r.p90
      from b left join counts c on c.i = b.i left join responses r on r.i = b.i`.execute(db);
    return result.rows.map((r) => ({
      i: Number(r.i),
      started: Number(r.started ?? 0),
      ended: Number(r.ended ?? 0),
      n: Number(r.n ?? 0),
      median: r.median === null ? null : Math.round(Number(r.median)),
      p90: r.p90 === null ? null : Number(r.p90),
    }));
  },

  /** Translation characters per bucket and engine (translation_slots: its key, or the seat's index). */
  async translation(db: Db, buckets: Bucket[], seatId: number | null) {
    const result = await sql<{
      i: number;
      engine: string;
      characters: number | string;
      memory_characters: number | string;
    }>`
      with ${bucketsCte(buckets)}
      select b.i, t.engine, sum(t.characters) as characters,
        sum(t.memory_characters) as memory_characters
      from b join translation_slots t on t.slot >= b.s and t.slot < b.e
      ${seatOf('t.seat_id', seatId)}
      group by b.i, t.engine`.execute(db);
    return result.rows.map((r) => ({
      i: Number(r.i),
      engine: r.engine,
      characters: Number(r.characters),
      memory: Number(r.memory_characters),
    }));
  },

  /** Chats waiting now, outside Blocked (the kept counts, as the overview reads them). */
  async waitingNow(db: Db, seatId: number | null) {
    let q = db
      .selectFrom('group_counts')
      .innerJoin('seat_groups', 'seat_groups.id', 'group_counts.group_id')
      .select((eb) => eb.fn.sum<number>('group_counts.waiting_chats').as('n'))
      .where('seat_groups.type', '!=', 'blocked');
    if (seatId !== null) q = q.where('group_counts.seat_id', '=', seatId);
    const row = await q.executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  /** A seat's messages per quarter hour (the server folds them into local hours of the day). */
  async quarterHours(db: Db, seatId: number, from: number, until: number) {
    const result = await sql<{ q: number | string; direction: 'in' | 'out'; n: number | string }>`
      select m.created_at / 900000 as q, m.direction, count(*) as n
      from messages m
      where m.created_at >= ${from} and m.created_at < ${until} ${messagesOfSeat(seatId)}
      group by m.created_at / 900000, m.direction`.execute(db);
    return result.rows.map((r) => ({
      quarter: Number(r.q),
      direction: r.direction,
      n: Number(r.n),
    }));
  },

  /**
   * A seat's chats waiting longest now: when each wait began and how many customer messages
   * wait; nothing that says who or what.
   */
  async waitingLongest(db: Db, seatId: number, limit: number) {
    const result = await sql<{ since: number | string; n: number | string }>`
      select min(m.created_at) as since, count(*) as n
      from sessions s join messages m on m.session_id = s.id
      where s.seat_id = ${seatId} and s.last_direction = 'in' and s.blocked = 0
        and m.direction = 'in'
        and m.id > coalesce((
          select max(o.id) from messages o where o.session_id = s.id and o.direction = 'out'
        ), 0)
      group by s.id
      order by since, s.id
      limit ${limit}`.execute(db);
    return result.rows.map((r) => ({ since: Number(r.since), n: Number(r.n) }));
  },

  /** The engines with characters between two instants (an export's columns). */
  async engines(db: Db, from: number, until: number, seatId: number | null) {
    let q = db
      .selectFrom('translation_slots')
      .select('engine')
      .distinct()
      .where('slot', '>=', from)
      .where('slot', '<', until);
    if (seatId !== null) q = q.where('seat_id', '=', seatId);
    return (await q.orderBy('engine').execute()).map((r) => r.engine);
  },
};

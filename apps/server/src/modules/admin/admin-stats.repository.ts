import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
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

/**
 * Each bucket joined to its rows of `table` (aliased `alias`, with the `columns` read) where
 * `range` holds, read as a range of an index per bucket. PostgreSQL gets a LATERAL subquery
 * (OFFSET 0 keeps it from being pulled up into a plain join): with a VALUES list it cannot
 * estimate, its planner would otherwise read the table once and compare every row with every
 * bucket (30 ms for a seat's month of the demo, 1.5 ms by the index). SQLite's CROSS JOIN keeps
 * the buckets outside, where it already searches the index.
 */
function perBucket(
  db: Db,
  table: string,
  alias: string,
  columns: string[],
  range: RawBuilder<unknown>,
) {
  const t = sql.table(table);
  const a = sql.raw(alias);
  if (dialectOf(db) === 'sqlite') return sql`cross join ${t} ${a} on ${range}`;
  const read = sql.join(columns.map((c) => sql.ref(`${alias}.${c}`)));
  return sql`cross join lateral (select ${read} from ${t} ${a} where ${range} offset 0) ${a}`;
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

/** A seat's turns, checked in chat_turns_time_idx as the range is read (as messagesOfSeat). */
const turnsOfSeat = (seatId: number | null) =>
  seatId === null ? sql`` : sql`and t.seat_id + 0 = ${seatId}`;

export const adminStatsRepository = {
  /** Messages in and out per bucket (messages_created_idx: created_at, then seat_id). */
  async messages(db: Db, buckets: Bucket[], seatId: number | null) {
    const result = await sql<{ i: number; direction: 'in' | 'out'; n: number | string }>`
      with ${bucketsCte(buckets)}
      select b.i, m.direction, count(*) as n
      from b ${perBucket(db, 'messages', 'm', ['direction'], sql`m.created_at >= b.s and m.created_at < b.e ${messagesOfSeat(seatId)}`)}
      group by b.i, m.direction`.execute(db);
    return result.rows.map((r) => ({ i: Number(r.i), direction: r.direction, n: Number(r.n) }));
  },

  /**
   * Waits and first responses per bucket, from the chats' turns kept as messages are written
   * (chat_turns, migration 034), read by time in chat_turns_time_idx: an 'in' turn begins a
   * wait, an 'out' turn ends it and keeps when it began (the last bucket given should reach
   * past now: the server counts the chats waiting at each bucket's end back from those waiting
   * now). Chats blocked now are left out, as from the overview's waiting count.
   *
   * Median (the two middle ones averaged) and 90th percentile (nearest rank) by window ranks.
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
      with ${bucketsCte(buckets)},
      turns as materialized (
        select b.i, t.direction, t.created_at - t.started_at as ms
        from b ${perBucket(db, 'chat_turns', 't', ['session_id', 'direction', 'created_at', 'started_at'], sql`t.created_at >= b.s and t.created_at < b.e ${turnsOfSeat(seatId)}`)}
        -- A subquery by the chat's key, not a join: a planner without statistics of a fresh
        -- table would start from the chats and read every bucket again for each.
        where (select s.blocked from sessions s where s.id = t.session_id) = 0
      ), ranked as (
        select i, ms,
          row_number() over (partition by i order by ms) as rn,
          count(*) over (partition by i) as n
        from turns where direction = 'out' and ms is not null
      ), responses as (
        select i, max(n) as n,
          avg(case when rn in ((n + 1) / 2, (n + 2) / 2) then ms end) as median,
          max(case when rn = (9 * n + 9) / 10 then ms end) as p90
        from ranked group by i
      ), counts as (
        select i,
          sum(case when direction = 'in' then 1 else 0 end) as started,
          sum(case when direction = 'out' then 1 else 0 end) as ended
        from turns group by i
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
      glossary_hits: number | string;
    }>`
      with ${bucketsCte(buckets)}
      select b.i, t.engine, sum(t.characters) as characters,
        sum(t.memory_characters) as memory_characters, sum(t.glossary_hits) as glossary_hits
      from b ${perBucket(db, 'translation_slots', 't', ['engine', 'characters', 'memory_characters', 'glossary_hits'], sql`t.slot >= b.s and t.slot < b.e ${seatOf('t.seat_id', seatId)}`)}
      group by b.i, t.engine`.execute(db);
    return result.rows.map((r) => ({
      i: Number(r.i),
      engine: r.engine,
      characters: Number(r.characters),
      memory: Number(r.memory_characters),
      glossaryHits: Number(r.glossary_hits),
    }));
  },

  /**
   * Back-translations and flagged round trips per bucket (round_trip_slots, migration 045: its
   * key, or the seat's index), a series of its own beside the translation characters.
   */
  async roundTrips(db: Db, buckets: Bucket[], seatId: number | null) {
    const result = await sql<{
      i: number;
      back_translations: number | string;
      flagged: number | string;
    }>`
      with ${bucketsCte(buckets)}
      select b.i, sum(r.back_translations) as back_translations, sum(r.flagged) as flagged
      from b ${perBucket(db, 'round_trip_slots', 'r', ['back_translations', 'flagged'], sql`r.slot >= b.s and r.slot < b.e ${seatOf('r.seat_id', seatId)}`)}
      group by b.i`.execute(db);
    return result.rows.map((r) => ({
      i: Number(r.i),
      backTranslations: Number(r.back_translations),
      flagged: Number(r.flagged),
    }));
  },

  /**
   * Team accounts' assignments per bucket (team_assignments, migration 048, read by time in
   * team_assignments_at_idx; a seat's series checks the seat in the index as the range is read):
   * assignments to a member (takes, routings, hand-overs), hand-overs, returns to the queue, and
   * the time in queue of the chats taken or routed, mean and 90th percentile (nearest rank).
   */
  async assignments(db: Db, buckets: Bucket[], seatId: number | null) {
    const result = await sql<{
      i: number;
      assigned: number | string | null;
      handovers: number | string | null;
      queued: number | string | null;
      avg: number | string | null;
      p90: number | string | null;
    }>`
      with ${bucketsCte(buckets)},
      facts as materialized (
        select b.i, a.kind, a.queued_ms
        from b ${perBucket(db, 'team_assignments', 'a', ['kind', 'queued_ms'], sql`a.at >= b.s and a.at < b.e ${seatId === null ? sql`` : sql`and a.seat_id + 0 = ${seatId}`}`)}
      ), ranked as (
        select i, queued_ms,
          row_number() over (partition by i order by queued_ms) as rn,
          count(*) over (partition by i) as n
        from facts where queued_ms is not null
      ), waits as (
        select i, avg(queued_ms) as avg, max(case when rn = (9 * n + 9) / 10 then queued_ms end) as p90
        from ranked group by i
      ), counts as (
        select i,
          sum(case when kind = 'queue' then 0 else 1 end) as assigned,
          sum(case when kind = 'handover' then 1 else 0 end) as handovers,
          sum(case when kind = 'queue' then 1 else 0 end) as queued
        from facts group by i
      )
      select c.i, c.assigned, c.handovers, c.queued, w.avg, w.p90
      from counts c left join waits w on w.i = c.i`.execute(db);
    return result.rows.map((r) => ({
      i: Number(r.i),
      assignments: Number(r.assigned ?? 0),
      handovers: Number(r.handovers ?? 0),
      backToQueue: Number(r.queued ?? 0),
      waitAvg: r.avg === null ? null : Math.round(Number(r.avg)),
      waitP90: r.p90 === null ? null : Number(r.p90),
    }));
  },

  /** Per seat of `seatIds` over [from, until): assignments to it, hand-overs to it, its returns to the queue, and the mean time in queue of the chats it took or was routed. */
  async seatAssignments(db: Db, seatIds: number[], from: number, until: number) {
    const rows = await db
      .selectFrom('team_assignments')
      .select((eb) => [
        'seat_id',
        sql<number | string>`sum(case when kind = 'queue' then 0 else 1 end)`.as('assigned'),
        sql<number | string>`sum(case when kind = 'handover' then 1 else 0 end)`.as('handovers'),
        sql<number | string>`sum(case when kind = 'queue' then 1 else 0 end)`.as('queued'),
        eb.fn.avg<number | string | null>('queued_ms').as('avg'),
      ])
      .where('seat_id', 'in', seatIds.length ? seatIds : [0])
      .where('at', '>=', from)
      .where('at', '<', until)
      .groupBy('seat_id')
      .execute();
    return rows.map((r) => ({
      seatId: Number(r.seat_id),
      assignments: Number(r.assigned),
      handovers: Number(r.handovers),
      backToQueue: Number(r.queued),
      waitAvg: r.avg === null ? null : Math.round(Number(r.avg)),
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
  /** A page of seats in id order (the per-seat export's rows, by keyset on the key). */
  seatsAfter(db: Db, afterId: number, limit: number) {
    return db
      .selectFrom('seats')
      .select(['id', 'account', 'nickname'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  /**
   * Messages in and out of each of `seatIds` between two instants: the range read once in
   * messages_created_idx, the seats checked in it (`+ 0`, as messagesOfSeat).
   */
  async seatMessages(db: Db, seatIds: number[], from: number, until: number) {
    const result = await sql<{ seat_id: number; direction: 'in' | 'out'; n: number | string }>`
      select m.seat_id, m.direction, count(*) as n
      from messages m
      where m.created_at >= ${from} and m.created_at < ${until}
        and m.seat_id + 0 in (${sql.join(seatIds)})
      group by m.seat_id, m.direction`.execute(db);
    return result.rows.map((r) => ({
      seatId: Number(r.seat_id),
      direction: r.direction,
      n: Number(r.n),
    }));
  },

  /**
   * First responses of each of `seatIds` between two instants, their median and 90th
   * percentile as the series take them: the replies of chat_turns_time_idx's range.
   */
  async seatResponses(db: Db, seatIds: number[], from: number, until: number) {
    const result = await sql<{
      seat_id: number;
      n: number | string;
      median: number | string | null;
      p90: number | string | null;
    }>`
      with replies as (
        select t.seat_id, t.created_at - t.started_at as ms
        from chat_turns t
        where t.created_at >= ${from} and t.created_at < ${until}
          and t.seat_id + 0 in (${sql.join(seatIds)})
          and t.direction = 'out' and t.started_at is not null
          and (select s.blocked from sessions s where s.id = t.session_id) = 0
      ), ranked as (
        select seat_id, ms,
          row_number() over (partition by seat_id order by ms) as rn,
          count(*) over (partition by seat_id) as n
        from replies
      )
      select seat_id, max(n) as n,
        avg(case when rn in ((n + 1) / 2, (n + 2) / 2) then ms end) as median,
        max(case when rn = (9 * n + 9) / 10 then ms end) as p90
      from ranked group by seat_id`.execute(db);
    return result.rows.map((r) => ({
      seatId: Number(r.seat_id),
      n: Number(r.n),
      median: r.median === null ? null : Math.round(Number(r.median)),
      p90: r.p90 === null ? null : Number(r.p90),
    }));
  },

  /** Translation characters of each of `seatIds` by engine (translation_slots_seat_idx). */
  async seatTranslation(db: Db, seatIds: number[], from: number, until: number) {
    const rows = await db
      .selectFrom('translation_slots')
      .select((eb) => [
        'seat_id',
        'engine',
        eb.fn.sum<number | string>('characters').as('characters'),
        eb.fn.sum<number | string>('memory_characters').as('memory'),
      ])
      .where('seat_id', 'in', seatIds)
      .where('slot', '>=', from)
      .where('slot', '<', until)
      .groupBy(['seat_id', 'engine'])
      .execute();
    return rows.map((r) => ({
      seatId: Number(r.seat_id),
      engine: r.engine,
      characters: Number(r.characters),
      memory: Number(r.memory),
    }));
  },

  /** Chats waiting now of each of `seatIds`, outside Blocked (the kept counts). */
  async seatsWaitingNow(db: Db, seatIds: number[]) {
    const rows = await db
      .selectFrom('group_counts')
      .innerJoin('seat_groups', 'seat_groups.id', 'group_counts.group_id')
      .select((eb) => [
        'group_counts.seat_id',
        eb.fn.sum<number | string>('group_counts.waiting_chats').as('n'),
      ])
      .where('group_counts.seat_id', 'in', seatIds)
      .where('seat_groups.type', '!=', 'blocked')
      .groupBy('group_counts.seat_id')
      .execute();
    return rows.map((r) => ({ seatId: Number(r.seat_id), n: Number(r.n) }));
  },
};

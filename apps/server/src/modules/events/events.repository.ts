import { sql, type Selectable } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import { compiledQuery } from '../../db/compiled-query.js';
import { preparedStatement } from '../../db/prepared.js';
import type { EventsTable } from '../../db/schema.js';

/** PostgreSQL: the counter's upsert feeds the event's insert (compiled once). */
const appendQuery = compiledQuery(
  (
    db,
    _shape: '',
    seatId: number,
    type: string,
    data: string,
    at: number,
    requestId: string | null,
  ) =>
    db
      .with('counter', (q) =>
        q
          .insertInto('event_counters')
          .values({ seat_id: seatId, last_seq: 1 })
          .onConflict((oc) =>
            oc.column('seat_id').doUpdateSet({ last_seq: sql`event_counters.last_seq + 1` }),
          )
          .returning('last_seq'),
      )
      .insertInto('events')
      .columns(['seat_id', 'seq', 'type', 'data', 'at', 'request_id'])
      .expression((eb) =>
        eb
          .selectFrom('counter')
          .select([
            eb.val(seatId).as('seat_id'),
            'counter.last_seq',
            eb.val(type).as('type'),
            eb.val(data).as('data'),
            eb.val(at).as('at'),
            eb.val(requestId).as('request_id'),
          ]),
      )
      .returning('seq'),
);

const nextSeqQuery = compiledQuery((db, _shape: '', seatId: number) =>
  db
    .insertInto('event_counters')
    .values({ seat_id: seatId, last_seq: 1 })
    .onConflict((oc) =>
      oc.column('seat_id').doUpdateSet({ last_seq: sql`event_counters.last_seq + 1` }),
    )
    .returning('last_seq'),
);

const insertQuery = compiledQuery(
  (
    db,
    _shape: '',
    seatId: number,
    seq: number,
    type: string,
    data: string,
    at: number,
    requestId: string | null,
  ) =>
    db.insertInto('events').values({ seat_id: seatId, seq, type, data, at, request_id: requestId }),
);

/**
 * PostgreSQL: the CTEs that number and store the events of the CTE `new_events` (seat_id, ord,
 * type, data, at, request_id): each seat's counter is raised once by its number of events, in
 * seat order, and its events take the numbers below the new value in `ord` order. One text for
 * appendMany and for the send statement that records its own events
 * (messagesRepository.sendTexts).
 */
export const NUMBERED_EVENTS_SQL = `n as (select seat_id, count(*) as k from new_events group by seat_id),
  counter as (
    insert into event_counters (seat_id, last_seq)
      select seat_id, k from n order by seat_id
    on conflict (seat_id) do update set last_seq = event_counters.last_seq + excluded.last_seq
    returning seat_id, last_seq),
  recorded as (
    insert into events (seat_id, seq, type, data, at, request_id)
      select e.seat_id,
        counter.last_seq - n.k + row_number() over (partition by e.seat_id order by e.ord),
        e.type, e.data, e.at, e.request_id
      from new_events e join n on n.seat_id = e.seat_id join counter on counter.seat_id = e.seat_id
      order by e.seat_id, e.ord
    returning seat_id, seq)`;

/** eventsRepository.appendMany on PostgreSQL: one fixed text, each column an array. */
const appendManyStatement = preparedStatement<{
  seat_id: number;
  seq: number;
}>(`with new_events as (
    select * from unnest($1::integer[], $2::text[], $3::text[], $4::bigint[], $5::text[])
      with ordinality as v (seat_id, type, data, at, request_id, ord)),
  ${NUMBERED_EVENTS_SQL}
  select seat_id, seq from recorded order by seat_id, seq`);

/** An event to record, before it is numbered. */
type NewEvent = {
  seat_id: number;
  type: string;
  data: string;
  at: number;
  request_id: string | null;
};

/** Rows per multi-row statement on SQLite (6 values an event: far below its 32,766). */
const SQLITE_CHUNK = 1_000;

/**
 * appendMany on SQLite, whose transaction holds the write lock from its start: each seat's
 * counter raised once by its number of events, then the events in one insert (a statement a
 * chunk, not two an event: a team's queue told to 20 members was 40).
 */
async function appendManySqlite(db: Db, rows: NewEvent[]) {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.seat_id, (counts.get(r.seat_id) ?? 0) + 1);
  // Each seat's first new number.
  const first = new Map<number, number>();
  const seats = [...counts.keys()];
  for (let i = 0; i < seats.length; i += SQLITE_CHUNK) {
    const raised = await db
      .insertInto('event_counters')
      .values(
        seats.slice(i, i + SQLITE_CHUNK).map((id) => ({ seat_id: id, last_seq: counts.get(id)! })),
      )
      .onConflict((oc) =>
        oc
          .column('seat_id')
          .doUpdateSet({ last_seq: sql`event_counters.last_seq + excluded.last_seq` }),
      )
      .returning(['seat_id', 'last_seq'])
      .execute();
    for (const r of raised) first.set(r.seat_id, Number(r.last_seq) - counts.get(r.seat_id)! + 1);
  }
  const numbered = rows.map((r) => {
    const seq = first.get(r.seat_id)!;
    first.set(r.seat_id, seq + 1);
    return { ...r, seq };
  });
  for (let i = 0; i < numbered.length; i += SQLITE_CHUNK) {
    await db
      .insertInto('events')
      .values(numbered.slice(i, i + SQLITE_CHUNK))
      .execute();
  }
  return numbered.map((r) => r.seq);
}

/** An event as the log holds it (what a socket is sent). */
export type LoggedEvent = Selectable<EventsTable>;

export const eventsRepository = {
  /**
   * The seat's next event number. The counter row's lock is held until the transaction ends,
   * so a seat's events commit in the order of their numbers (a resume never skips one).
   */
  async nextSeq(db: Db, seatId: number): Promise<number> {
    const [row] = await nextSeqQuery.run(db, '', seatId);
    return Number(row!.last_seq);
  },

  /**
   * The seat's next event, numbered and stored: on PostgreSQL one statement (the counter's
   * upsert feeds the insert: one round trip per event instead of two), on SQLite the two
   * statements in the caller's transaction.
   */
  async append(
    db: Db,
    row: { seat_id: number; type: string; data: string; at: number; request_id: string | null },
  ): Promise<number> {
    if (dialectOf(db) === 'sqlite') {
      const seq = await eventsRepository.nextSeq(db, row.seat_id);
      await eventsRepository.insert(db, { ...row, seq });
      return seq;
    }
    const [inserted] = await appendQuery.run(
      db,
      '',
      row.seat_id,
      row.type,
      row.data,
      row.at,
      row.request_id,
    );
    return Number(inserted!.seq);
  },

  /**
   * Several events, each numbered in its seat's order (PostgreSQL, one statement: each seat's
   * counter is raised once by its number of events, in seat order).
   */
  async appendMany(db: Db, rows: NewEvent[]): Promise<number[]> {
    if (dialectOf(db) === 'sqlite') return appendManySqlite(db, rows);
    const numbered = await appendManyStatement.run(db, [
      rows.map((r) => r.seat_id),
      rows.map((r) => r.type),
      rows.map((r) => r.data),
      rows.map((r) => r.at),
      rows.map((r) => r.request_id),
    ]);
    // Each seat's numbers, ascending, go to its events in the order given.
    const bySeat = new Map<number, number[]>();
    for (const r of numbered) {
      let seqs = bySeat.get(r.seat_id);
      if (!seqs) bySeat.set(r.seat_id, (seqs = []));
      seqs.push(Number(r.seq));
    }
    const next = new Map<number, number>();
    return rows.map((r) => {
      const i = next.get(r.seat_id) ?? 0;
      next.set(r.seat_id, i + 1);
      return bySeat.get(r.seat_id)![i]!;
    });
  },

  async insert(
    db: Db,
    row: {
      seat_id: number;
      seq: number;
      type: string;
      data: string;
      at: number;
      request_id: string | null;
    },
  ) {
    await insertQuery.run(db, '', row.seat_id, row.seq, row.type, row.data, row.at, row.request_id);
  },

  /** The newest event number of each of these seats (seats without events are left out). */
  lastSeqs(db: Db, seatIds: number[]) {
    if (seatIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('event_counters')
      .select(['seat_id', 'last_seq'])
      .where('seat_id', 'in', seatIds)
      .execute();
  },

  /** The seat's events after `afterSeq`, oldest first. */
  after(db: Db, seatId: number, afterSeq: number, limit: number) {
    return db
      .selectFrom('events')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('seq', '>', afterSeq)
      .orderBy('seat_id')
      .orderBy('seq')
      .limit(limit)
      .execute();
  },

  async pruneBefore(db: Db, time: number): Promise<number> {
    const result = await db.deleteFrom('events').where('at', '<', time).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

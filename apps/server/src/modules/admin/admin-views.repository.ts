import type { ChannelName } from '@parley/protocol';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { containsPattern } from '../../lib/like.js';

export interface SeatFilter {
  keyword?: string;
  status: 'all' | 'active' | 'frozen';
}

/** Not a team's queue seat (it holds a team account's queue; the owner sees it as the team). */
function notQueueSeat(eb: ExpressionBuilder<Database, 'seats'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('team_accounts')
        .select('team_accounts.account_id')
        .whereRef('team_accounts.queue_seat_id', '=', 'seats.id'),
    ),
  );
}

function seatWhere(eb: ExpressionBuilder<Database, 'seats'>, f: SeatFilter) {
  const conditions = [notQueueSeat(eb)];
  if (f.status !== 'all') conditions.push(eb('seats.frozen', '=', f.status === 'frozen' ? 1 : 0));
  if (f.keyword) {
    const pattern = containsPattern(f.keyword.toLowerCase());
    conditions.push(
      eb.or([
        sql<boolean>`lower(${sql.ref('seats.account')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('seats.nickname')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return eb.and(conditions);
}

export interface AccountFilter {
  keyword?: string;
  seatId?: number;
  unassigned: boolean;
  channel?: ChannelName;
}

function accountWhere(eb: ExpressionBuilder<Database, 'phone_accounts'>, f: AccountFilter) {
  const conditions = [];
  if (f.seatId !== undefined) conditions.push(eb('phone_accounts.seat_id', '=', f.seatId));
  if (f.unassigned) conditions.push(eb('phone_accounts.seat_id', 'is', null));
  if (f.channel) conditions.push(eb('phone_accounts.channel', '=', f.channel));
  if (f.keyword) {
    const pattern = containsPattern(f.keyword.toLowerCase());
    conditions.push(
      eb.or([
        sql<boolean>`${sql.ref('phone_accounts.send_phone')} like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('phone_accounts.label')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return eb.and(conditions);
}

export interface OutboxFilter {
  status?: 'pending' | 'failed';
  seatId?: number;
}

function outboxView(db: Db) {
  return db
    .selectFrom('outbox')
    .innerJoin('messages', 'messages.id', 'outbox.msg_id')
    .innerJoin('sessions', 'sessions.id', 'messages.session_id')
    .innerJoin('seats', 'seats.id', 'outbox.seat_id')
    .select([
      'outbox.id',
      'outbox.msg_id',
      'outbox.kind',
      'outbox.status',
      'outbox.attempts',
      'outbox.last_error',
      'outbox.next_at',
      'outbox.created_at',
      'outbox.updated_at',
      'outbox.seat_id',
      'seats.account as seat_account',
      'messages.session_id',
      'messages.type',
      'messages.content',
      'sessions.send_phone',
      'sessions.receiver_phone',
    ]);
}

/** Read-only queries of the admin console: lists and the overview's numbers. */
export const adminViewsRepository = {
  /** Seats by account (the unique key: keyset on it). */
  seatsPage(db: Db, f: SeatFilter, afterAccount: string | null, limit: number) {
    let q = db
      .selectFrom('seats')
      .select(['id', 'account', 'nickname', 'frozen', 'created_at', 'last_seen_at'])
      .where((eb) => seatWhere(eb, f));
    if (afterAccount !== null) q = q.where('account', '>', afterAccount);
    return q.orderBy('account').limit(limit).execute();
  },
  seatsCount(db: Db, f: SeatFilter) {
    return db
      .selectFrom('seats')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => seatWhere(eb, f))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },
  /** Every seat (the overview). */
  allSeats(db: Db) {
    return db
      .selectFrom('seats')
      .select(['id', 'account', 'nickname', 'frozen', 'last_seen_at'])
      .where((eb) => notQueueSeat(eb))
      .orderBy('account')
      .execute();
  },

  /** The kept counts of the seats' groups: chats, unread, and waiting chats outside Blocked. */
  seatCounts(db: Db, seatIds: number[] | null) {
    let q = db
      .selectFrom('group_counts')
      .innerJoin('seat_groups', 'seat_groups.id', 'group_counts.group_id')
      .select((eb) => [
        'group_counts.seat_id',
        eb.fn.sum<number>('group_counts.chats').as('chats'),
        eb.fn.sum<number>('group_counts.unread').as('unread'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('seat_groups.type', '=', 'blocked')
              .then(sql<number>`0`)
              .else(eb.ref('group_counts.waiting_chats'))
              .end(),
          )
          .as('waiting'),
      ])
      .groupBy('group_counts.seat_id');
    if (seatIds) q = q.where('group_counts.seat_id', 'in', seatIds.length ? seatIds : [0]);
    return q.execute();
  },

  /**
   * When each seat's longest-waiting customer started waiting: the first customer message after
   * the seat's last reply, over chats whose last message is the customer's (not blocked).
   */
  waitingSince(db: Db, seatIds: number[] | null) {
    let q = db
      .selectFrom('sessions')
      .innerJoin('messages', 'messages.session_id', 'sessions.id')
      .select((eb) => ['sessions.seat_id', eb.fn.min<number>('messages.created_at').as('since')])
      .where('sessions.last_direction', '=', 'in')
      .where('sessions.blocked', '=', 0)
      .where('messages.direction', '=', 'in')
      .where(
        'messages.id',
        '>',
        sql<number>`coalesce((select max(o.id) from messages o where o.session_id = ${sql.ref('sessions.id')} and o.direction = 'out'), 0)`,
      )
      .groupBy('sessions.seat_id');
    if (seatIds) q = q.where('sessions.seat_id', 'in', seatIds.length ? seatIds : [0]);
    return q.execute();
  },

  phonesOf(db: Db, seatIds: number[]) {
    return db
      .selectFrom('phone_accounts')
      .select(['seat_id', 'send_phone'])
      .where('seat_id', 'in', seatIds.length ? seatIds : [0])
      .orderBy('id')
      .execute();
  },

  accountsPage(db: Db, f: AccountFilter, afterPhone: string | null, limit: number) {
    let q = db
      .selectFrom('phone_accounts')
      .leftJoin('seats', 'seats.id', 'phone_accounts.seat_id')
      .select((eb) => [
        'phone_accounts.id',
        'phone_accounts.send_phone',
        'phone_accounts.label',
        'phone_accounts.channel',
        'phone_accounts.seat_id',
        'phone_accounts.created_at',
        'seats.account as seat_account',
        eb
          .selectFrom('sessions')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('sessions.send_phone', '=', 'phone_accounts.send_phone')
          .as('chats'),
      ])
      .where((eb) => accountWhere(eb, f));
    if (afterPhone !== null) q = q.where('phone_accounts.send_phone', '>', afterPhone);
    return q.orderBy('phone_accounts.send_phone').limit(limit).execute();
  },
  accountsCount(db: Db, f: AccountFilter) {
    return db
      .selectFrom('phone_accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => accountWhere(eb, f))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  },

  /** Messages in and out since `since`, per seat (messages_created_idx). */
  messagesSince(db: Db, since: number) {
    return db
      .selectFrom('messages')
      .select((eb) => ['seat_id', 'direction', eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since)
      .groupBy(['seat_id', 'direction'])
      .execute();
  },

  /**
   * First-response times of the replies sent since `repliedSince`: in each chat, from the first
   * customer message after a reply (or the first of the window from `since`) to the next reply.
   * Window functions on both databases, so only one row per reply leaves the database.
   */
  async firstResponses(db: Db, since: number, repliedSince: number) {
    const result = await sql<{ seat_id: number; ms: number | string }>`
      with flow as (
        select id, seat_id, session_id, direction, created_at,
          lag(direction) over (partition by session_id order by id) as prev
        from messages where created_at >= ${since}
      ), edges as (
        select id, seat_id, session_id, direction, created_at from flow
        where (direction = 'in' and (prev is null or prev = 'out'))
           or (direction = 'out' and prev = 'in')
      ), paired as (
        select seat_id, direction, created_at,
          lag(direction) over (partition by session_id order by id) as start_direction,
          lag(created_at) over (partition by session_id order by id) as started_at
        from edges
      )
      select seat_id, created_at - started_at as ms from paired
      where direction = 'out' and start_direction = 'in' and created_at >= ${repliedSince}`.execute(
      db,
    );
    return result.rows.map((r) => ({ seat_id: r.seat_id, ms: Number(r.ms) }));
  },

  outboxCounts(db: Db) {
    return db
      .selectFrom('outbox')
      .select((eb) => ['seat_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ['pending', 'failed'])
      .groupBy(['seat_id', 'status'])
      .execute();
  },

  translationSince(db: Db, sinceHour: number) {
    return db
      .selectFrom('translation_usage')
      .select((eb) => [
        'engine',
        eb.fn.sum<number>('characters').as('characters'),
        eb.fn.sum<number>('memory_characters').as('memory_characters'),
      ])
      .where('hour', '>=', sinceHour)
      .groupBy('engine')
      .orderBy('engine')
      .execute();
  },

  /** What changes when the overview's numbers may have: a cheap fingerprint of them. */
  async fingerprint(db: Db): Promise<string> {
    const [m, o, t, s] = await Promise.all([
      db
        .selectFrom('messages')
        .select((eb) => eb.fn.max<number>('id').as('v'))
        .executeTakeFirst(),
      db
        .selectFrom('outbox')
        .select((eb) => [eb.fn.max<number>('updated_at').as('v'), eb.fn.countAll<number>().as('n')])
        .executeTakeFirst(),
      db
        .selectFrom('translation_usage')
        .select((eb) => [
          eb.fn.sum<number>('characters').as('c'),
          eb.fn.sum<number>('memory_characters').as('m'),
        ])
        .executeTakeFirst(),
      db
        .selectFrom('event_counters')
        .select((eb) => eb.fn.sum<number>('last_seq').as('v'))
        .executeTakeFirst(),
    ]);
    return [m?.v, o?.v, o?.n, t?.c, t?.m, s?.v].map((v) => String(v ?? 0)).join(':');
  },

  /** The newest assignment and the queues' rows: what moves with a team's view (both small reads by key). */
  async teamsFingerprint(db: Db): Promise<string> {
    const [a, q] = await Promise.all([
      db
        .selectFrom('team_assignments')
        .select((eb) => eb.fn.max<number>('id').as('v'))
        .executeTakeFirst(),
      db
        .selectFrom('team_queue')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max<number>('since').as('v')])
        .executeTakeFirst(),
    ]);
    return [a?.v, q?.n, q?.v].map((v) => String(v ?? 0)).join(':');
  },

  outboxPage(db: Db, f: OutboxFilter, beforeId: number | null, limit: number) {
    let q = outboxView(db);
    q = f.status
      ? q.where('outbox.status', '=', f.status)
      : q.where('outbox.status', 'in', ['pending', 'failed']);
    if (f.seatId !== undefined) q = q.where('outbox.seat_id', '=', f.seatId);
    if (beforeId !== null) q = q.where('outbox.id', '<', beforeId);
    return q.orderBy('outbox.id', 'desc').limit(limit).execute();
  },
  outboxCount(db: Db, f: OutboxFilter) {
    let q = db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n'));
    q = f.status
      ? q.where('outbox.status', '=', f.status)
      : q.where('outbox.status', 'in', ['pending', 'failed']);
    if (f.seatId !== undefined) q = q.where('outbox.seat_id', '=', f.seatId);
    return q.executeTakeFirstOrThrow().then((r) => Number(r.n));
  },
  /** One delivery as the list shows it, whatever its status. */
  outboxItem(db: Db, id: number) {
    return outboxView(db).where('outbox.id', '=', id).executeTakeFirst();
  },
  outboxById(db: Db, id: number) {
    return db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
  },
};

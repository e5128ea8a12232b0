import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import type {
  PhoneAccountRow,
  SessionRow,
  TeamAccountRow,
  TeamAssignmentRow,
  TeamNoteRow,
} from '../../db/schema.js';
import { containsPattern } from '../../lib/like.js';

/** A member seat as the team calls show it. */
export interface MemberRow {
  seat_id: number;
  account: string;
  nickname: string;
  frozen: number;
  last_seen_at: number | null;
}

/** A chat found for a team call, with its team (absent: not a team account's chat). */
export type TeamChatRow = SessionRow & {
  account_id: number;
  queue_seat_id: number;
  routing: TeamAccountRow['routing'];
};

/** A team with its phone account's number and name, as the queue shows it. */
export type TeamWithAccount = TeamAccountRow & Pick<PhoneAccountRow, 'send_phone' | 'label'>;

const memberColumns = [
  'seats.id as seat_id',
  'seats.account',
  'seats.nickname',
  'seats.frozen',
  'seats.last_seen_at',
] as const;

/** Queries of team accounts (issue 35); the rules are TeamsService's. */
export const teamsRepository = {
  /**
   * The sending account's seat and the last reply to this customer of the number (its member's
   * nickname): one primary-key read each. No account: undefined.
   */
  lastReply(db: Db, sendPhone: string, receiverPhone: string) {
    return db
      .selectFrom('phone_accounts as a')
      .leftJoin('team_replies as r', (j) =>
        j.onRef('r.send_phone', '=', 'a.send_phone').on('r.receiver_phone', '=', receiverPhone),
      )
      .leftJoin('seats as s', 's.id', 'r.seat_id')
      .select(['a.seat_id as account_seat_id', 'r.seat_id', 'r.at', 's.nickname'])
      .where('a.send_phone', '=', sendPhone)
      .executeTakeFirst();
  },
  /** The member who just replied to this customer of a team account. */
  async recordReply(db: Db, sendPhone: string, receiverPhone: string, seatId: number, at: number) {
    await db
      .insertInto('team_replies')
      .values({ send_phone: sendPhone, receiver_phone: receiverPhone, seat_id: seatId, at })
      .onConflict((oc) =>
        oc.columns(['send_phone', 'receiver_phone']).doUpdateSet({ seat_id: seatId, at }),
      )
      .execute();
  },
  findByAccount(db: Db, accountId: number): Promise<TeamAccountRow | undefined> {
    return db
      .selectFrom('team_accounts')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  },
  /** The team whose queue seat this is (none: an ordinary seat). */
  findByQueueSeat(db: Db, seatId: number): Promise<TeamAccountRow | undefined> {
    return db
      .selectFrom('team_accounts')
      .selectAll()
      .where('queue_seat_id', '=', seatId)
      .executeTakeFirst();
  },
  /**
   * A team with its account's number and name, by account or by queue seat: one read. `lock`:
   * on PostgreSQL the team's row is locked for the caller's transaction, so a team's routing
   * decisions and queue changes are made one at a time (SQLite's transactions already are).
   */
  withAccount(
    db: Db,
    by: { accountId: number } | { queueSeatId: number },
    lock = false,
  ): Promise<TeamWithAccount | undefined> {
    const query = db
      .selectFrom('team_accounts')
      .innerJoin('phone_accounts', 'phone_accounts.id', 'team_accounts.account_id')
      .selectAll('team_accounts')
      .select(['phone_accounts.send_phone', 'phone_accounts.label'])
      .where(
        'accountId' in by ? 'team_accounts.account_id' : 'team_accounts.queue_seat_id',
        '=',
        'accountId' in by ? by.accountId : by.queueSeatId,
      );
    return (
      lock && dialectOf(db) === 'pg' ? query.forUpdate('team_accounts') : query
    ).executeTakeFirst();
  },
  insertTeam(db: Db, row: TeamAccountRow) {
    return db.insertInto('team_accounts').values(row).execute();
  },
  async updateTeam(db: Db, accountId: number, set: Pick<TeamAccountRow, 'routing' | 'capacity'>) {
    await db.updateTable('team_accounts').set(set).where('account_id', '=', accountId).execute();
  },
  async setLastRouted(db: Db, accountId: number, seatId: number) {
    await db
      .updateTable('team_accounts')
      .set({ last_routed_seat_id: seatId })
      .where('account_id', '=', accountId)
      .execute();
  },
  /** Every team with its phone account, by account id. */
  listTeams(db: Db) {
    return db
      .selectFrom('team_accounts')
      .innerJoin('phone_accounts', 'phone_accounts.id', 'team_accounts.account_id')
      .selectAll('team_accounts')
      .select(['phone_accounts.send_phone', 'phone_accounts.label'])
      .orderBy('team_accounts.account_id')
      .execute();
  },
  /** The teams a seat is a member of, with their phone accounts. */
  teamsOfSeat(db: Db, seatId: number) {
    return db
      .selectFrom('team_members')
      .innerJoin('team_accounts', 'team_accounts.account_id', 'team_members.account_id')
      .innerJoin('phone_accounts', 'phone_accounts.id', 'team_accounts.account_id')
      .selectAll('team_accounts')
      .select(['phone_accounts.send_phone', 'phone_accounts.label'])
      .where('team_members.seat_id', '=', seatId)
      .orderBy('team_accounts.account_id')
      .execute();
  },
  members(db: Db, accountId: number): Promise<MemberRow[]> {
    return db
      .selectFrom('team_members')
      .innerJoin('seats', 'seats.id', 'team_members.seat_id')
      .select(memberColumns)
      .where('team_members.account_id', '=', accountId)
      .orderBy('seats.id')
      .execute();
  },
  /**
   * The members with the chats each holds of the account, active since `since` and not blocked
   * (what routing weighs): one statement, the counts by the sessions' seat index.
   */
  membersWithOpen(
    db: Db,
    accountId: number,
    sendPhone: string,
    since: number,
  ): Promise<(MemberRow & { open: number | string })[]> {
    return db
      .selectFrom('team_members')
      .innerJoin('seats', 'seats.id', 'team_members.seat_id')
      .select(memberColumns)
      .select((eb) =>
        eb
          .selectFrom('sessions')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('sessions.seat_id', '=', 'seats.id')
          .where('sessions.send_phone', '=', sendPhone)
          .where('sessions.latest_time', '>=', since)
          .where('sessions.blocked', '=', 0)
          .as('open'),
      )
      .where('team_members.account_id', '=', accountId)
      .orderBy('seats.id')
      .$narrowType<{ open: number | string }>()
      .execute();
  },
  findSeats(db: Db, ids: number[]): Promise<MemberRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('seats')
      .select(memberColumns)
      .where('seats.id', 'in', ids)
      .orderBy('seats.id')
      .execute();
  },
  async addMembers(db: Db, accountId: number, seatIds: number[], now: number) {
    if (seatIds.length === 0) return;
    await db
      .insertInto('team_members')
      .values(seatIds.map((seat_id) => ({ account_id: accountId, seat_id, joined_at: now })))
      .execute();
  },
  async removeMembers(db: Db, accountId: number, seatIds: number[]) {
    if (seatIds.length === 0) return;
    await db
      .deleteFrom('team_members')
      .where('account_id', '=', accountId)
      .where('seat_id', 'in', seatIds)
      .execute();
  },

  /**
   * The chat `sessionId` if it is a team account's chat that `seatId` holds or that belongs to
   * a team `seatId` is a member of (whoever holds it): the candidates of the isolation rule,
   * which TeamsService.chatFor judges (docs/decisions/2026-11-29-team-accounts.md).
   */
  chatOfSeatTeams(db: Db, seatId: number, sessionId: number): Promise<TeamChatRow | undefined> {
    return db
      .selectFrom('sessions')
      .innerJoin('phone_accounts', 'phone_accounts.send_phone', 'sessions.send_phone')
      .innerJoin('team_accounts', 'team_accounts.account_id', 'phone_accounts.id')
      .selectAll('sessions')
      .select(['team_accounts.account_id', 'team_accounts.queue_seat_id', 'team_accounts.routing'])
      .where('sessions.id', '=', sessionId)
      .where((eb) =>
        eb.or([
          eb('sessions.seat_id', '=', seatId),
          eb.exists(
            eb
              .selectFrom('team_members')
              .select(sql<number>`1`.as('one'))
              .whereRef('team_members.account_id', '=', 'team_accounts.account_id')
              .where('team_members.seat_id', '=', seatId),
          ),
        ]),
      )
      .executeTakeFirst() as Promise<TeamChatRow | undefined>;
  },

  /**
   * Moves one chat from seat `from` to seat `to` (its group `groupId`), only if `from` still
   * holds it: the one statement a take, a hand-over or a return to the queue is decided by (two
   * takes at once: the second finds the chat no longer the queue's and moves nothing). On
   * PostgreSQL the second waits for the first's row lock, then reads the row it left.
   */
  moveChat(
    db: Db,
    sessionId: number,
    from: number,
    to: number,
    groupId: number,
  ): Promise<SessionRow | undefined> {
    return db
      .updateTable('sessions')
      .set({ seat_id: to, group_id: groupId, prev_group_id: null, is_top: 0 })
      .where('id', '=', sessionId)
      .where('seat_id', '=', from)
      .returningAll()
      .executeTakeFirst();
  },
  /** The chat's messages and the customer's media in them follow the chat to seat `to`. */
  async moveChatContent(db: Db, sessionId: number, from: number, to: number) {
    await db
      .updateTable('messages')
      .set({ seat_id: to })
      .where('session_id', '=', sessionId)
      .execute();
    // Only the customer's media: an operator's upload may be a quick reply of its seat too.
    await db
      .updateTable('media')
      .set({ seat_id: to })
      .where('seat_id', '=', from)
      .where('media_id', 'in', (eb) =>
        eb
          .selectFrom('messages')
          .select('media_id')
          .where('session_id', '=', sessionId)
          .where('direction', '=', 'in')
          .where('media_id', 'is not', null)
          .$narrowType<{ media_id: string }>(),
      )
      .execute();
  },
  /** A customer's media just received into the queue, re-owned by the chat's holder. */
  async moveMedia(db: Db, mediaId: string, from: number, to: number) {
    await db
      .updateTable('media')
      .set({ seat_id: to })
      .where('media_id', '=', mediaId)
      .where('seat_id', '=', from)
      .execute();
  },
  /** The chats `seatId` holds of the account (a member leaving hands them back). */
  chatsHeld(db: Db, sendPhone: string, seatId: number) {
    return db
      .selectFrom('sessions')
      .select('id')
      .where('send_phone', '=', sendPhone)
      .where('seat_id', '=', seatId)
      .orderBy('id')
      .execute()
      .then((rows) => rows.map((r) => r.id));
  },
  /** Who holds the chat of these two numbers now (a team account's message finds its holder). */
  holderOf(db: Db, sendPhone: string, receiverPhone: string) {
    return db
      .selectFrom('sessions')
      .select(['id', 'seat_id'])
      .where('send_phone', '=', sendPhone)
      .where('receiver_phone', '=', receiverPhone)
      .executeTakeFirst();
  },

  async enqueue(db: Db, sessionIds: number[], accountId: number, since: number) {
    if (sessionIds.length === 0) return;
    const rows = sessionIds.map((session_id) => ({ session_id, account_id: accountId, since }));
    await db
      .insertInto('team_queue')
      .values(rows)
      .onConflict((oc) => oc.column('session_id').doUpdateSet({ since }))
      .execute();
  },
  /** The chat leaves the queue: when it entered it (null: no row, it waits since it was opened). */
  async dequeue(db: Db, sessionId: number): Promise<number | null> {
    const row = await db
      .deleteFrom('team_queue')
      .where('session_id', '=', sessionId)
      .returning('since')
      .executeTakeFirst();
    return row ? Number(row.since) : null;
  },
  /** Assignments as facts the owner's charts count (in the assignment's transaction). */
  async recordAssignments(db: Db, rows: Omit<TeamAssignmentRow, 'id'>[]) {
    if (rows.length === 0) return;
    await db.insertInto('team_assignments').values(rows).execute();
  },

  /** A queue's count and oldest wait (a chat without a queue row waits since it was opened). */
  async queueSummary(db: Db, queueSeatId: number) {
    const row = await db
      .selectFrom('sessions')
      .leftJoin('team_queue', 'team_queue.session_id', 'sessions.id')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('n'),
        eb.fn
          .min<number | string | null>(eb.fn.coalesce('team_queue.since', 'sessions.add_time'))
          .as('oldest'),
      ])
      .where('sessions.seat_id', '=', queueSeatId)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), oldest: row.oldest === null ? null : Number(row.oldest) };
  },
  /**
   * The chats waiting longest first, with queueSummary's count and oldest wait in the same
   * statement (window aggregates see the whole queue before the limit; an empty page: none).
   */
  async queuePage(db: Db, queueSeatId: number, limit: number) {
    const rows = await db
      .selectFrom('sessions')
      .leftJoin('team_queue', 'team_queue.session_id', 'sessions.id')
      .selectAll('sessions')
      .select((eb) => [
        eb.fn.coalesce('team_queue.since', 'sessions.add_time').as('since'),
        eb.fn.countAll<number | string>().over().as('queue_count'),
        eb.fn
          .min<number | string>(eb.fn.coalesce('team_queue.since', 'sessions.add_time'))
          .over()
          .as('queue_oldest'),
      ])
      .where('sessions.seat_id', '=', queueSeatId)
      .orderBy('since')
      .orderBy('sessions.id')
      .limit(limit)
      .execute();
    const first = rows[0];
    return {
      rows,
      count: first ? Number(first.queue_count) : 0,
      oldest: first ? Number(first.queue_oldest) : null,
    };
  },
  insertNote(db: Db, row: Omit<TeamNoteRow, 'id'>): Promise<TeamNoteRow> {
    return db.insertInto('team_notes').values(row).returningAll().executeTakeFirstOrThrow();
  },
  notesOf(db: Db, sessionId: number): Promise<TeamNoteRow[]> {
    return db
      .selectFrom('team_notes')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('id')
      .execute();
  },
  /**
   * Notes containing `keyword` of the chats the seat may see (held, or in a queue of its
   * teams), newest first. A scan of the notes' text: notes are few beside messages.
   */
  searchNotes(db: Db, seatId: number, keyword: string, limit: number): Promise<TeamNoteRow[]> {
    const pattern = containsPattern(keyword.toLowerCase());
    return db
      .selectFrom('team_notes')
      .innerJoin('sessions', 'sessions.id', 'team_notes.session_id')
      .selectAll('team_notes')
      .where(sql<boolean>`lower(${sql.ref('team_notes.content')}) like ${pattern} escape '\\'`)
      .where((eb) =>
        eb.or([
          eb('sessions.seat_id', '=', seatId),
          eb(
            'sessions.seat_id',
            'in',
            eb
              .selectFrom('team_members')
              .innerJoin('team_accounts', 'team_accounts.account_id', 'team_members.account_id')
              .select('team_accounts.queue_seat_id')
              .where('team_members.seat_id', '=', seatId),
          ),
        ]),
      )
      .orderBy('team_notes.id', 'desc')
      .limit(limit)
      .execute();
  },
  /** The owner's view: an account's notes, newest first. */
  notesOfAccount(db: Db, accountId: number, keyword: string | undefined, limit: number) {
    let q = db.selectFrom('team_notes').selectAll().where('account_id', '=', accountId);
    if (keyword) {
      const pattern = containsPattern(keyword.toLowerCase());
      q = q.where(sql<boolean>`lower(${sql.ref('content')}) like ${pattern} escape '\\'`);
    }
    return q.orderBy('id', 'desc').limit(limit).execute();
  },
  /** PostgreSQL: the team row locked, so two changes of one team's members queue up. */
  async lockTeam(db: Db, accountId: number) {
    if (dialectOf(db) !== 'pg') return;
    await db
      .selectFrom('team_accounts')
      .select('account_id')
      .where('account_id', '=', accountId)
      .forUpdate()
      .execute();
  },
};

import {
  ERROR_CODES,
  RECENT_WINDOW_MS,
  TEAM_NOTES_SEARCH_MAX,
  TEAM_QUEUE_PAGE_MAX,
  type AdminCallRequest,
  type CallRequest,
  type TeamNote,
  type TeamQueue,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type {
  PhoneAccountRow,
  SessionRow,
  TeamAccountRow,
  TeamAssignmentRow,
  TeamNoteRow,
} from '../../db/schema.js';
import { AppError, invalidField, notFound } from '../../lib/app-error.js';
import { inTransaction } from '../../lib/tx.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { AuditService, CLI_ACTOR, type Actor } from '../admin/audit.service.js';
import { SeatEvents } from '../events/seat-events.js';
import { groupsRepository } from '../groups/groups.repository.js';
import { labelsRepository } from '../labels/labels.repository.js';
import type { MediaUrls } from '../media/media-urls.js';
import { messagesRepository } from '../messages/messages.repository.js';
import { toChatMessage } from '../messages/messages.presenter.js';
import { seatsRepository } from '../seats/seats.repository.js';
import { toSessionItem } from '../sessions/sessions.presenter.js';
import { sessionsRepository } from '../sessions/sessions.repository.js';
import {
  teamsRepository,
  type MemberRow,
  type TeamChatRow,
  type TeamWithAccount,
} from './teams.repository.js';

/** Whether a seat is online now (the owner's rule: AdminConsoleService.onlineNow). */
export type OnlineRule = (seat: { id: number; last_seen_at: number | null }) => boolean;

/** The name of a team's queue seat: not a valid seat account, so no seat can take it. */
const queueSeatAccount = (accountId: number) => `team queue ${accountId}`;

const alreadyTaken = () => new AppError(ERROR_CODES.CHAT_ALREADY_TAKEN);

/**
 * Team accounts (issue 35; docs/decisions/2026-11-29-team-accounts.md): the owner makes a phone
 * account a team account; each of its chats is held by one member (the chat's seat) or waits in
 * its queue (held by the team's queue seat). Every seat call of teams finds its chat through
 * `chatFor`, the isolation rule's one place.
 */
export class TeamsService {
  /** Seat id -> whether it is a team's queue seat (a seat never becomes one later). */
  /**
   * Whether a seat is a team's queue seat, once known: a seat never changes kind (a queue seat is
   * made as a new seat), so an answer holds for good. A lookup in flight is shared, so messages
   * to one seat wait on the same read and keep their order (and their batch).
   */
  private readonly queueSeats = new Map<number, boolean | Promise<boolean>>();

  constructor(
    private readonly db: Db,
    private readonly events: SeatEvents = new SeatEvents(),
    private readonly audit: AuditService = new AuditService(db),
    private readonly urls?: MediaUrls,
    private online: OnlineRule = () => false,
  ) {}

  /** Where the app is wired: the owner's online rule (sockets here, last_seen_at). */
  setOnlineRule(rule: OnlineRule): void {
    this.online = rule;
  }

  private member(row: MemberRow) {
    return {
      seat_id: row.seat_id,
      nickname: row.nickname,
      online: !row.frozen && this.online({ id: row.seat_id, last_seen_at: row.last_seen_at }),
      frozen: row.frozen === 1,
    };
  }

  /**
   * The isolation rule: the chat if the seat holds it (a team account's chat) or it waits in
   * the queue of a team the seat is a member of; any other chat is as absent as a missing one.
   * `take`: a chat of the seat's own team another member holds is "already taken" (409002).
   */
  private async chatFor(
    db: Db,
    seatId: number,
    sessionId: number,
    mode: 'see' | 'take' = 'see',
  ): Promise<TeamChatRow> {
    const row = await teamsRepository.chatOfSeatTeams(db, seatId, sessionId);
    if (!row) throw notFound();
    if (row.seat_id === seatId || row.seat_id === row.queue_seat_id) return row;
    throw mode === 'take' ? alreadyTaken() : notFound();
  }

  /** A chat the seat holds (hand-over, back to queue): a queued one must be taken first. */
  private async heldBy(db: Db, seatId: number, sessionId: number) {
    const row = await this.chatFor(db, seatId, sessionId);
    if (row.seat_id !== seatId)
      throw invalidField('session_id', 'waits in the queue: take it first');
    return row;
  }

  private async ungroupedOf(db: Db, seatId: number) {
    const group = await groupsRepository.findByType(db, seatId, 'ungrouped');
    if (!group) throw new Error(`seat ${seatId} has no Ungrouped group`);
    return group;
  }

  /** Moves the chat from `from` to `to` with its messages, or undefined when `from` lost it. */
  private async move(db: Db, chat: { id: number }, from: number, to: number) {
    const group = await this.ungroupedOf(db, to);
    const moved = await teamsRepository.moveChat(db, chat.id, from, to, group.id);
    if (!moved) return undefined;
    await teamsRepository.moveChatContent(db, chat.id, from, to);
    return moved;
  }

  /**
   * An assignment as a fact the owner's charts count (team_assignments), in its transaction.
   * `queuedSince`: when a chat taken or routed from the queue entered it (its time in queue).
   */
  private async record(
    db: Db,
    chat: { id: number; account_id: number },
    kind: TeamAssignmentRow['kind'],
    seatId: number,
    fromSeatId: number | null,
    queuedSince: number | null = null,
    at = Date.now(),
  ) {
    await teamsRepository.recordAssignments(db, [
      {
        at,
        account_id: chat.account_id,
        session_id: chat.id,
        kind,
        seat_id: seatId,
        from_seat_id: fromSeatId,
        queued_ms: queuedSince === null ? null : Math.max(0, at - queuedSince),
      },
    ]);
  }

  private note(row: TeamNoteRow): TeamNote {
    return {
      note_id: row.id,
      session_id: row.session_id,
      kind: row.kind,
      author: row.author,
      author_seat_id: row.author_seat_id,
      content: row.content,
      created_at: Number(row.created_at),
    };
  }

  private async writeNote(
    db: Db,
    chat: TeamChatRow,
    author: { seatId: number | null; name: string },
    kind: TeamNoteRow['kind'],
    content: string,
  ) {
    const row = await teamsRepository.insertNote(db, {
      session_id: chat.id,
      account_id: chat.account_id,
      author_seat_id: author.seatId,
      author: author.name,
      kind,
      content,
      created_at: Date.now(),
    });
    return this.note(row);
  }

  /** One team's queue as its members see it. */
  private async queueOf(
    db: Db,
    team: TeamWithAccount,
    limit = TEAM_QUEUE_PAGE_MAX,
  ): Promise<TeamQueue> {
    const { rows, ...summary } = await teamsRepository.queuePage(db, team.queue_seat_id, limit);
    // One read for the page's labels, as getGroupInfo's rows have theirs.
    const labels = await labelsRepository.ofChats(
      db,
      rows.map((r) => r.id),
    );
    const recentSince = Date.now() - RECENT_WINDOW_MS;
    return {
      account_id: team.account_id,
      send_phone: team.send_phone,
      label: team.label,
      routing: team.routing,
      count: summary.count,
      oldest_since: summary.oldest,
      chats: rows.map((r) => ({
        session_id: r.id,
        send_phone: r.send_phone,
        receiver_phone: r.receiver_phone,
        customer_name: r.customer_name,
        un_read_count: r.un_read_count,
        latest_time: Number(r.latest_time),
        since: Number(r.since),
        last_message: toSessionItem(r, recentSince, this.urls).last_message,
        labels: labels.get(r.id) ?? [],
      })),
    };
  }

  /**
   * A queued chat's labels changed (LabelsService): its team's members are told the queue, so
   * their Queue rows show them. A seat that is no team's queue: nothing.
   */
  async labelsChanged(db: Db, holderSeatId: number): Promise<void> {
    const team = await teamsRepository.withAccount(db, { queueSeatId: holderSeatId });
    if (team) await this.tellQueue(db, team);
  }

  /** Every member is told the account's queue as it now is (in the change's transaction). */
  private async announceQueue(db: Db, accountId: number) {
    const team = await teamsRepository.withAccount(db, { accountId });
    if (team) await this.tellQueue(db, team);
  }

  /** announceQueue of a team already read. */
  private async tellQueue(db: Db, team: TeamWithAccount) {
    const queue = await this.queueOf(db, team);
    const members = await teamsRepository.members(db, team.account_id);
    await this.events.teamQueue(
      db,
      members.map((m) => m.seat_id),
      queue,
    );
  }

  // --- seat calls -------------------------------------------------------------------------

  async queue(seatId: number, input: CallRequest<'/v1/seat/team/queue'>) {
    const teams = await teamsRepository.teamsOfSeat(this.db, seatId);
    const out: TeamQueue[] = [];
    for (const team of teams) out.push(await this.queueOf(this.db, team, input.page_size));
    return { teams: out };
  }

  async take(seatId: number, input: CallRequest<'/v1/seat/team/take'>) {
    const moved = await inTransaction(this.db, async (trx) => {
      const chat = await this.chatFor(trx, seatId, input.session_id, 'take');
      if (chat.seat_id === seatId) return { row: chat as SessionRow, chat: null };
      const row = await this.move(trx, chat, chat.queue_seat_id, seatId);
      if (!row) throw alreadyTaken();
      const since = await teamsRepository.dequeue(trx, chat.id);
      await this.record(trx, chat, 'take', seatId, null, since ?? Number(chat.add_time));
      await this.events.chatsHandedOver(
        trx,
        seatId,
        [row],
        new Map([[chat.queue_seat_id, [chat.id]]]),
      );
      await this.announceQueue(trx, chat.account_id);
      return { row, chat };
    });
    return toSessionItem(moved.row, Date.now() - RECENT_WINDOW_MS, this.urls);
  }

  async handOver(seatId: number, input: CallRequest<'/v1/seat/team/handOver'>) {
    return inTransaction(this.db, async (trx) => {
      const chat = await this.heldBy(trx, seatId, input.session_id);
      const members = await teamsRepository.members(trx, chat.account_id);
      const to = members.find((m) => m.seat_id === input.to_seat_id);
      if (!to) throw new AppError(ERROR_CODES.TEAM_NOT_MEMBER);
      if (to.frozen) throw new AppError(ERROR_CODES.TEAM_SEAT_FROZEN);
      const me = members.find((m) => m.seat_id === seatId);
      if (to.seat_id === seatId) return { session_id: chat.id, holder: this.member(to) };
      const row = await this.move(trx, chat, seatId, to.seat_id);
      if (!row) throw notFound();
      await this.record(trx, chat, 'handover', to.seat_id, seatId);
      const note = input.note
        ? await this.writeNote(
            trx,
            chat,
            { seatId, name: me?.nickname ?? String(seatId) },
            'handover',
            input.note,
          )
        : null;
      await this.events.chatsHandedOver(trx, to.seat_id, [row], new Map([[seatId, [chat.id]]]));
      await this.events.teamAssigned(trx, to.seat_id, {
        session_id: chat.id,
        from: me ? this.member(me) : null,
        note,
      });
      return { session_id: chat.id, holder: this.member(to) };
    });
  }

  async backToQueue(seatId: number, input: CallRequest<'/v1/seat/team/backToQueue'>) {
    return inTransaction(this.db, async (trx) => {
      const chat = await this.heldBy(trx, seatId, input.session_id);
      const row = await this.move(trx, chat, seatId, chat.queue_seat_id);
      if (!row) throw notFound();
      await teamsRepository.enqueue(trx, [chat.id], chat.account_id, Date.now());
      await this.record(trx, chat, 'queue', seatId, seatId);
      if (input.note) {
        const [me] = await teamsRepository.findSeats(trx, [seatId]);
        await this.writeNote(
          trx,
          chat,
          { seatId, name: me?.nickname ?? String(seatId) },
          'handover',
          input.note,
        );
      }
      await this.events.chatsHandedOver(
        trx,
        chat.queue_seat_id,
        [row],
        new Map([[seatId, [chat.id]]]),
      );
      await this.announceQueue(trx, chat.account_id);
      return { session_id: chat.id };
    });
  }

  async members(seatId: number, input: CallRequest<'/v1/seat/team/members'>) {
    const chat = await this.chatFor(this.db, seatId, input.session_id);
    const members = await teamsRepository.members(this.db, chat.account_id);
    const holder = members.find((m) => m.seat_id === chat.seat_id);
    return {
      account_id: chat.account_id,
      holder: holder ? this.member(holder) : null,
      members: members.map((m) => this.member(m)),
    };
  }

  /**
   * Who hears of a seat looking at a chat it may see: the seats that may see it too (a queued
   * chat: every member; a held one: its holder), and the seat's name. Else as absent (400001).
   */
  async presenceOf(seatId: number, sessionId: number) {
    const chat = await this.chatFor(this.db, seatId, sessionId);
    const members = await teamsRepository.members(this.db, chat.account_id);
    const me = members.find((m) => m.seat_id === seatId);
    const audience =
      chat.seat_id === chat.queue_seat_id ? members.map((m) => m.seat_id) : [chat.seat_id];
    return { chat, audience, nickname: me?.nickname ?? String(seatId) };
  }

  /**
   * A team chat's messages, read-only: how a member reads a chat waiting in its queue before
   * taking it (or one it holds). Reading does not mark it read: the chat is not yet the seat's.
   */
  async chatRecord(seatId: number, input: CallRequest<'/v1/seat/team/chatRecord'>) {
    const chat = await this.chatFor(this.db, seatId, input.session_id);
    const rows = await messagesRepository.pageBefore(
      this.db,
      chat.id,
      input.before_id,
      input.page_size + 1,
    );
    return {
      list: rows
        .slice(0, input.page_size)
        .reverse()
        .map((r) => toChatMessage(r, this.urls!)),
      has_more: rows.length > input.page_size,
    };
  }

  async addNote(seatId: number, input: CallRequest<'/v1/seat/team/addNote'>) {
    return inTransaction(this.db, async (trx) => {
      const chat = await this.chatFor(trx, seatId, input.session_id);
      const [me] = await teamsRepository.findSeats(trx, [seatId]);
      const note = await this.writeNote(
        trx,
        chat,
        { seatId, name: me?.nickname ?? String(seatId) },
        'note',
        input.content,
      );
      // The holder's consoles (or, for a queued chat, every member's) show it live.
      const told =
        chat.seat_id === chat.queue_seat_id
          ? (await teamsRepository.members(trx, chat.account_id)).map((m) => m.seat_id)
          : [chat.seat_id];
      await this.events.teamNote(trx, told, note);
      return note;
    });
  }

  async notes(seatId: number, input: CallRequest<'/v1/seat/team/notes'>) {
    const chat = await this.chatFor(this.db, seatId, input.session_id);
    const rows = await teamsRepository.notesOf(this.db, chat.id);
    return { notes: rows.map((r) => this.note(r)) };
  }

  async searchNotes(seatId: number, input: CallRequest<'/v1/seat/team/searchNotes'>) {
    const rows = await teamsRepository.searchNotes(
      this.db,
      seatId,
      input.keyword,
      TEAM_NOTES_SEARCH_MAX,
    );
    return { notes: rows.map((r) => this.note(r)) };
  }

  // --- the owner ---------------------------------------------------------------------------

  async list() {
    const teams = await teamsRepository.listTeams(this.db);
    const out = [];
    for (const t of teams) out.push(await this.adminTeam(this.db, t));
    return { teams: out };
  }

  private async adminTeam(db: Db, team: TeamWithAccount) {
    // Every chat each member holds of the account, however old (routing counts recent ones).
    const members = await teamsRepository.membersWithOpen(db, team.account_id, team.send_phone, 0);
    const summary = await teamsRepository.queueSummary(db, team.queue_seat_id);
    return {
      account_id: team.account_id,
      send_phone: team.send_phone,
      label: team.label,
      routing: team.routing,
      capacity: team.capacity,
      members: members.map((m) => ({
        seat_id: m.seat_id,
        account: m.account,
        nickname: m.nickname,
        frozen: m.frozen === 1,
        open_chats: Number(m.open),
      })),
      queue_count: summary.count,
      oldest_since: summary.oldest,
    };
  }

  /**
   * Makes an account a team account or changes one. A new team gets its queue seat, which the
   * account is assigned to; the account's chats stay with its seat if that seat is a member,
   * else they go to the queue. A member left out hands its chats of the account to the queue.
   */
  async set(input: AdminCallRequest<'/v1/admin/teams/set'>, actor: Actor = CLI_ACTOR) {
    const account = await accountsRepository.findById(this.db, input.account_id);
    if (!account) throw notFound();
    const ids = [...new Set(input.member_ids)].sort((a, b) => a - b);
    const seats = await teamsRepository.findSeats(this.db, ids);
    if (seats.length !== ids.length) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    for (const s of seats) {
      if (await this.isQueueSeat(s.seat_id)) throw new AppError(ERROR_CODES.USER_NOT_FOUND);
    }
    // The members left out hand their chats to this member (checked before anything changes).
    const receiver =
      input.receiver_id === undefined
        ? null
        : (seats.find((s) => s.seat_id === input.receiver_id) ?? null);
    if (input.receiver_id !== undefined && !receiver)
      throw new AppError(ERROR_CODES.TEAM_NOT_MEMBER);
    if (receiver?.frozen) throw new AppError(ERROR_CODES.TEAM_SEAT_FROZEN);
    return inTransaction(this.db, async (trx) => {
      const now = Date.now();
      let team = await teamsRepository.findByAccount(trx, account.id);
      let queued = 0;
      let handed = 0;
      const oldMembers = team ? await teamsRepository.members(trx, account.id) : [];
      const before = team
        ? {
            routing: team.routing,
            capacity: team.capacity,
            member_ids: oldMembers.map((m) => m.seat_id),
          }
        : null;
      if (!team) {
        const queueSeat = await seatsRepository.insert(trx, {
          account: queueSeatAccount(account.id),
          nickname: `Queue ${account.send_phone}`,
          // Not a hash of any password: the queue seat never logs in (it is frozen as well).
          password_hash: '!',
          now,
        });
        await seatsRepository.setFrozen(trx, queueSeat.id, true);
        await groupsRepository.insertBuiltIns(trx, queueSeat.id, now);
        team = {
          account_id: account.id,
          queue_seat_id: queueSeat.id,
          routing: input.routing,
          capacity: input.capacity,
          last_routed_seat_id: null,
          created_at: now,
        };
        await teamsRepository.insertTeam(trx, team);
        await accountsRepository.assign(trx, account.id, queueSeat.id);
        if (account.seat_id !== null && !ids.includes(account.seat_id)) {
          const ungrouped = await this.ungroupedOf(trx, queueSeat.id);
          const from = await sessionsRepository.seatsOfAccount(trx, account.send_phone);
          const chats = await sessionsRepository.handOverAccount(
            trx,
            account.send_phone,
            queueSeat.id,
            ungrouped.id,
          );
          await messagesRepository.handOverAccount(trx, account.send_phone, queueSeat.id);
          await teamsRepository.enqueue(
            trx,
            chats.map((c) => c.id),
            account.id,
            now,
          );
          await this.events.chatsHandedOver(trx, queueSeat.id, chats, from);
          queued += chats.length;
        }
      } else {
        await teamsRepository.lockTeam(trx, account.id);
        await teamsRepository.updateTeam(trx, account.id, {
          routing: input.routing,
          capacity: input.capacity,
        });
        team = { ...team, routing: input.routing, capacity: input.capacity };
      }
      const old = before?.member_ids ?? [];
      const removed = old.filter((id) => !ids.includes(id));
      const added = ids.filter((id) => !old.includes(id));
      for (const seatId of removed) {
        const leaving = oldMembers.find((m) => m.seat_id === seatId)!;
        const n = await this.returnChats(trx, team, account, leaving, receiver);
        if (receiver) handed += n;
        else queued += n;
      }
      await teamsRepository.removeMembers(trx, account.id, removed);
      await teamsRepository.addMembers(trx, account.id, added, now);
      await this.audit.record(
        trx,
        actor,
        'account.set_team',
        'account',
        account.id,
        account.send_phone,
        before,
        {
          routing: input.routing,
          capacity: input.capacity,
          member_ids: ids,
          queued_chats: queued,
          ...(receiver ? { receiver_id: receiver.seat_id, handed_chats: handed } : {}),
        },
      );
      await this.announceQueue(trx, account.id);
      const view = await this.adminTeam(trx, {
        ...team,
        send_phone: account.send_phone,
        label: account.label,
      });
      this.queueSeats.set(team.queue_seat_id, true);
      return { team: view, queued_chats: queued, handed_chats: handed };
    });
  }

  /**
   * A leaving member's chats of the account go back to the queue, or to `receiver` (told at once,
   * as by a hand-over); how many. Nothing is lost: each moves with its messages and media.
   */
  private async returnChats(
    db: Db,
    team: TeamAccountRow,
    account: PhoneAccountRow,
    leaving: MemberRow,
    receiver: MemberRow | null,
  ) {
    const seatId = leaving.seat_id;
    const to = receiver?.seat_id ?? team.queue_seat_id;
    const ids = await teamsRepository.chatsHeld(db, account.send_phone, seatId);
    const rows: SessionRow[] = [];
    for (const id of ids) {
      const row = await this.move(db, { id }, seatId, to);
      if (row) rows.push(row);
    }
    const now = Date.now();
    const chatIds = rows.map((r) => r.id);
    if (!receiver) await teamsRepository.enqueue(db, chatIds, account.id, now);
    await teamsRepository.recordAssignments(
      db,
      chatIds.map((id) => ({
        at: now,
        account_id: account.id,
        session_id: id,
        kind: receiver ? ('handover' as const) : ('queue' as const),
        seat_id: receiver ? to : seatId,
        from_seat_id: seatId,
        queued_ms: null,
      })),
    );
    await this.events.chatsHandedOver(db, to, rows, new Map([[seatId, chatIds]]));
    if (receiver) {
      for (const id of chatIds) {
        await this.events.teamAssigned(db, to, {
          session_id: id,
          from: this.member(leaving),
          note: null,
        });
      }
    }
    return rows.length;
  }

  async notesOfAccount(input: AdminCallRequest<'/v1/admin/teams/notes'>) {
    const team = await teamsRepository.findByAccount(this.db, input.account_id);
    if (!team) throw notFound();
    const rows = await teamsRepository.notesOfAccount(
      this.db,
      input.account_id,
      input.keyword || undefined,
      TEAM_NOTES_SEARCH_MAX,
    );
    return { notes: rows.map((r) => this.note(r)) };
  }

  // --- the inbound door --------------------------------------------------------------------

  /** Whether a seat is a team's queue seat: asked once per seat id, then known for ever. */
  isQueueSeat(seatId: number): Promise<boolean> {
    // Known, or being read: the same answer (one read per seat, whatever waits on it).
    const known = this.queueSeats.get(seatId);
    if (known !== undefined) return Promise.resolve(known);
    const lookup = teamsRepository.findByQueueSeat(this.db, seatId).then(
      (team) => {
        this.queueSeats.set(seatId, team !== undefined);
        return team !== undefined;
      },
      (err: unknown) => {
        this.queueSeats.delete(seatId);
        throw err;
      },
    );
    this.queueSeats.set(seatId, lookup);
    return lookup;
  }

  /** What is known of the seat without a read: its kind, else undefined (in flight or unseen). */
  queueSeatKnown(seatId: number): boolean | undefined {
    const known = this.queueSeats.get(seatId);
    return typeof known === 'boolean' ? known : undefined;
  }

  /** A seat made by the seats service is an operator's, never a queue seat. */
  plainSeat(seatId: number): void {
    this.queueSeats.set(seatId, false);
  }

  /** The seat holding the chat of these numbers now (the queue seat when none is open yet). */
  async holderOf(queueSeatId: number, sendPhone: string, receiverPhone: string) {
    const row = await teamsRepository.holderOf(this.db, sendPhone, receiverPhone);
    return row?.seat_id ?? queueSeatId;
  }

  async adoptMedia(mediaId: string, from: number, to: number) {
    await teamsRepository.moveMedia(this.db, mediaId, from, to);
  }

  /**
   * A customer's message stored in a chat of the queue: a new chat enters the queue (its wait
   * starts); with automatic routing, it or a queued chat written to again goes to a member.
   * What became of it: `routed`, `queued`, or `none` (a queued chat written to again stays).
   */
  async queuedMessage(
    queueSeatId: number,
    sessionId: number,
    chatCreated: boolean,
    at: number,
  ): Promise<'routed' | 'queued' | 'none'> {
    // One transaction from the team's read on: its row (locked on PostgreSQL) is the turn every
    // routing decision of the team waits for, and nothing read before it can be stale.
    return inTransaction(this.db, async (trx) => {
      const team = await teamsRepository.withAccount(trx, { queueSeatId }, true);
      if (!team) return 'none';
      if (team.routing === 'automatic' && (await this.route(trx, team, sessionId))) return 'routed';
      if (!chatCreated) return 'none';
      await teamsRepository.enqueue(trx, [sessionId], team.account_id, at);
      await this.tellQueue(trx, team);
      return 'queued';
    });
  }

  /**
   * Automatic routing, in the caller's transaction that read (and locked) the team: the online
   * member (not frozen) with the fewest open chats of the account (held, active in the last 24
   * hours, not blocked) below the capacity; ties rotate after the last member routed to.
   * False: no member can take it (it stays in the queue).
   */
  private async route(
    trx: Db,
    team: TeamWithAccount,
    sessionId: number,
    now = Date.now(),
  ): Promise<boolean> {
    const all = await teamsRepository.membersWithOpen(
      trx,
      team.account_id,
      team.send_phone,
      now - RECENT_WINDOW_MS,
    );
    const members = all.filter(
      (m) => !m.frozen && this.online({ id: m.seat_id, last_seen_at: m.last_seen_at }),
    );
    const pick = pickMember(
      members.map((m) => ({ seatId: m.seat_id, open: Number(m.open) })),
      team.capacity,
      team.last_routed_seat_id,
    );
    if (pick === null) return false;
    const row = await this.move(trx, { id: sessionId }, team.queue_seat_id, pick);
    // Taken meanwhile by a member: routed all the same.
    if (!row) return true;
    const since = await teamsRepository.dequeue(trx, sessionId);
    await this.record(
      trx,
      { id: sessionId, account_id: team.account_id },
      'route',
      pick,
      null,
      since ?? Number(row.add_time),
      now,
    );
    await teamsRepository.setLastRouted(trx, team.account_id, pick);
    await this.events.chatRouted(trx, pick, row, team.queue_seat_id, {
      memberIds: all.map((m) => m.seat_id),
      now: await this.queueOf(trx, team),
    });
    return true;
  }
}

/**
 * The member routing picks: fewest open chats below the capacity; among the fewest, the first
 * after `last` in seat order (ties rotate). Null: none has room.
 */
export function pickMember(
  members: { seatId: number; open: number }[],
  capacity: number,
  last: number | null,
): number | null {
  const room = members.filter((m) => m.open < capacity);
  if (room.length === 0) return null;
  const fewest = Math.min(...room.map((m) => m.open));
  const ties = room.filter((m) => m.open === fewest).sort((a, b) => a.seatId - b.seatId);
  return (ties.find((m) => last !== null && m.seatId > last) ?? ties[0]!).seatId;
}

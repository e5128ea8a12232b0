import { z } from 'zod';
import {
  ERROR_CODES,
  type AdminCallRequest,
  type AdminSeat,
  type Overview,
  type OverviewFigures,
  type OverviewSeat,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import type { SeatRow } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { inTransaction } from '../../lib/tx.js';
import type { SeatEvents } from '../events/seat-events.js';
import type { OutboxWriter } from '../outbox/outbox-writer.js';
import { outboxRepository } from '../outbox/outbox.repository.js';
import { adminViewsRepository } from './admin-views.repository.js';
import { seatsRepository } from '../seats/seats.repository.js';
import { toAdminAccount, toOutboxItem, type AccountViewRow } from './admin.presenter.js';
import { idCursor, type Actor, type AuditService } from './audit.service.js';
import type { AccountChannelStatus } from '../accounts/channel-credentials.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const textCursor = z.tuple([z.string().max(100)]);

/** Which seats have a push socket open now (the realtime hub of this instance). */
export type Presence = () => ReadonlySet<number>;

/** The local midnight (as UTC epoch ms) of the day `now` falls in, at `tzOffsetMin` from UTC. */
export function dayStartOf(now: number, tzOffsetMin: number): number {
  const offset = tzOffsetMin * 60_000;
  return Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

const num = (v: unknown) => Number(v ?? 0);

const NO_CHANNEL_STATUS: AccountChannelStatus = { accountFields: async () => new Map() };

/**
 * What the admin console reads (seats, phone accounts, the live overview, the outbox) and the
 * outbox retry. Changes of seats and accounts are SeatsService's and AccountsService's.
 */
export class AdminConsoleService {
  private presence: Presence = () => new Set();
  /**
   * A seat seen this recently (any authenticated activity or its socket's heartbeat, on any
   * instance: SeatPresence writes at most once a heartbeat) counts as online.
   */
  private onlineWindowMs = 60_000;

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly events: SeatEvents,
    private readonly outbox: OutboxWriter,
    /** What each account's channel shows of it (its binding), asked per page. */
    private readonly channels: AccountChannelStatus = NO_CHANNEL_STATUS,
  ) {}

  /** The realtime plugin tells which seats are connected here, and its heartbeat. */
  setPresence(presence: Presence, heartbeatMs: number): void {
    this.presence = presence;
    this.onlineWindowMs = heartbeatMs * 2 + 1_000;
  }

  /** Whether a seat is online now, by the owner's rule (team routing picks among these). */
  onlineNow(seat: { id: number; last_seen_at: number | null }, now = Date.now()): boolean {
    return this.isOnline(seat, now, this.presence());
  }

  private isOnline(
    seat: { id: number; last_seen_at: number | null },
    now: number,
    here: ReadonlySet<number>,
  ) {
    return (
      here.has(seat.id) ||
      (seat.last_seen_at !== null && now - Number(seat.last_seen_at) < this.onlineWindowMs)
    );
  }

  async seats(input: AdminCallRequest<'/v1/admin/seats/list'>) {
    const after = input.cursor ? decodeCursor(input.cursor, textCursor)[0] : null;
    const filter = { keyword: input.keyword || undefined, status: input.status };
    const rows = await adminViewsRepository.seatsPage(this.db, filter, after, input.page_size + 1);
    const page = rows.slice(0, input.page_size);
    return {
      list: await this.describeSeats(page),
      total: await adminViewsRepository.seatsCount(this.db, filter),
      next_cursor:
        rows.length > input.page_size ? encodeCursor([page[page.length - 1]!.account]) : null,
    };
  }

  async seat(
    seat: Pick<SeatRow, 'id' | 'account' | 'nickname' | 'frozen' | 'created_at' | 'last_seen_at'>,
  ): Promise<AdminSeat> {
    return (await this.describeSeats([seat]))[0]!;
  }

  private async describeSeats(
    rows: Pick<SeatRow, 'id' | 'account' | 'nickname' | 'frozen' | 'created_at' | 'last_seen_at'>[],
  ): Promise<AdminSeat[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [counts, waiting, phones] = await Promise.all([
      adminViewsRepository.seatCounts(this.db, ids),
      adminViewsRepository.waitingSince(this.db, ids),
      adminViewsRepository.phonesOf(this.db, ids),
    ]);
    const countBy = new Map(counts.map((c) => [c.seat_id, c]));
    const waitBy = new Map(waiting.map((w) => [w.seat_id, num(w.since)]));
    const now = Date.now();
    const here = this.presence();
    return rows.map((r) => {
      const c = countBy.get(r.id);
      return {
        seat_id: r.id,
        account: r.account,
        nickname: r.nickname,
        frozen: Boolean(r.frozen),
        online: !r.frozen && this.isOnline(r, now, here),
        last_seen_at: r.last_seen_at === null ? null : Number(r.last_seen_at),
        phone_accounts: phones.filter((p) => p.seat_id === r.id).map((p) => p.send_phone),
        open_chats: num(c?.chats),
        unread: num(c?.unread),
        waiting_chats: num(c?.waiting),
        oldest_waiting_since: waitBy.get(r.id) ?? null,
        created_at: Number(r.created_at),
      };
    });
  }

  async accounts(input: AdminCallRequest<'/v1/admin/accounts/list'>) {
    const after = input.cursor ? decodeCursor(input.cursor, textCursor)[0] : null;
    const filter = {
      keyword: input.keyword || undefined,
      seatId: input.seat_id,
      unassigned: input.unassigned,
      channel: input.channel,
    };
    const rows = await adminViewsRepository.accountsPage(
      this.db,
      filter,
      after,
      input.page_size + 1,
    );
    const page = rows.slice(0, input.page_size);
    const fields = await this.channels.accountFields(
      page.map((r) => r.send_phone),
      Date.now(),
    );
    return {
      list: page.map((r) => toAdminAccount(r as AccountViewRow, fields.get(r.send_phone))),
      total: await adminViewsRepository.accountsCount(this.db, filter),
      next_cursor:
        rows.length > input.page_size ? encodeCursor([page[page.length - 1]!.send_phone]) : null,
    };
  }

  /** One account as the list shows it. */
  async account(sendPhone: string) {
    const [row] = await adminViewsRepository
      .accountsPage(this.db, { keyword: sendPhone, unassigned: false }, null, 50)
      .then((rows) => rows.filter((r) => r.send_phone === sendPhone));
    if (!row) throw notFound();
    const fields = await this.channels.accountFields([sendPhone], Date.now());
    return toAdminAccount(row as AccountViewRow, fields.get(sendPhone));
  }

  async overview(tzOffsetMin: number): Promise<Overview> {
    const now = Date.now();
    const dayStart = dayStartOf(now, tzOffsetMin);
    const [seats, counts, waiting, messages, replies, outbox, translation] = await Promise.all([
      adminViewsRepository.allSeats(this.db),
      adminViewsRepository.seatCounts(this.db, null),
      adminViewsRepository.waitingSince(this.db, null),
      adminViewsRepository.messagesSince(this.db, dayStart),
      // A wait answered in the last 24 h may have begun up to a day before.
      adminViewsRepository.firstResponses(this.db, now - 2 * DAY_MS, now - DAY_MS),
      adminViewsRepository.outboxCounts(this.db),
      adminViewsRepository.translationSince(this.db, Math.floor(dayStart / HOUR_MS) * HOUR_MS),
    ]);

    const blank = (): OverviewFigures => ({
      messages_in_today: 0,
      messages_out_today: 0,
      waiting_chats: 0,
      longest_wait_ms: 0,
      median_first_response_ms: null,
      first_responses_24h: 0,
      outbox_pending: 0,
      outbox_failed: 0,
    });
    const bySeat = new Map<number, OverviewFigures>(seats.map((s) => [s.id, blank()]));
    const figures = (seatId: number) => {
      let f = bySeat.get(seatId);
      if (!f) bySeat.set(seatId, (f = blank()));
      return f;
    };
    for (const c of counts) figures(c.seat_id).waiting_chats = num(c.waiting);
    for (const w of waiting) figures(w.seat_id).longest_wait_ms = Math.max(0, now - num(w.since));
    for (const m of messages) {
      const f = figures(m.seat_id);
      if (m.direction === 'in') f.messages_in_today += num(m.n);
      else f.messages_out_today += num(m.n);
    }
    for (const o of outbox) {
      const f = figures(o.seat_id);
      if (o.status === 'pending') f.outbox_pending += num(o.n);
      else f.outbox_failed += num(o.n);
    }
    const responses = new Map<number, number[]>();
    for (const r of replies) {
      let list = responses.get(r.seat_id);
      if (!list) responses.set(r.seat_id, (list = []));
      list.push(r.ms);
    }
    for (const [seatId, list] of responses) {
      const f = figures(seatId);
      f.median_first_response_ms = median(list);
      f.first_responses_24h = list.length;
    }

    const totals = blank();
    for (const f of bySeat.values()) {
      totals.messages_in_today += f.messages_in_today;
      totals.messages_out_today += f.messages_out_today;
      totals.waiting_chats += f.waiting_chats;
      totals.longest_wait_ms = Math.max(totals.longest_wait_ms, f.longest_wait_ms);
      totals.first_responses_24h += f.first_responses_24h;
      totals.outbox_pending += f.outbox_pending;
      totals.outbox_failed += f.outbox_failed;
    }
    totals.median_first_response_ms = median([...responses.values()].flat());

    const here = this.presence();
    const seatList: OverviewSeat[] = seats.map((s) => ({
      seat_id: s.id,
      account: s.account,
      nickname: s.nickname,
      online: !s.frozen && this.isOnline(s, now, here),
      frozen: Boolean(s.frozen),
      ...figures(s.id),
    }));
    const engines = translation
      .filter((t) => num(t.characters) > 0)
      .map((t) => ({ engine: t.engine, characters: num(t.characters) }));
    const sent = translation.reduce((sum, t) => sum + num(t.characters), 0);
    const memory = translation.reduce((sum, t) => sum + num(t.memory_characters), 0);
    return {
      at: now,
      day_start: dayStart,
      totals,
      seats: seatList,
      translation: {
        engines,
        memory_characters: memory,
        total_characters: sent + memory,
        memory_share: sent + memory > 0 ? memory / (sent + memory) : null,
      },
    };
  }

  /** The seats with a push socket open here were seen now. */
  async markSeen(seatIds: number[]): Promise<void> {
    await seatsRepository.touch(this.db, seatIds, Date.now());
  }

  /** Cheap: changes whenever the overview's numbers may have (the admin push channel polls it). */
  fingerprint(): Promise<string> {
    return adminViewsRepository.fingerprint(this.db);
  }

  /** What moves when a team's queue or assignments do (the owner's team view). */
  teamsFingerprint(): Promise<string> {
    return adminViewsRepository.teamsFingerprint(this.db);
  }

  async outboxList(input: AdminCallRequest<'/v1/admin/outbox/list'>) {
    const before = input.cursor ? decodeCursor(input.cursor, idCursor)[0] : null;
    const filter = { status: input.status, seatId: input.seat_id };
    const rows = await adminViewsRepository.outboxPage(
      this.db,
      filter,
      before,
      input.page_size + 1,
    );
    const page = rows.slice(0, input.page_size);
    return {
      list: page.map(toOutboxItem),
      total: await adminViewsRepository.outboxCount(this.db, filter),
      next_cursor: rows.length > input.page_size ? encodeCursor([page[page.length - 1]!.id]) : null,
    };
  }

  /** A failed delivery due again now: its message shows pending in the seat's console. */
  async retryOutbox(outboxId: number, actor: Actor) {
    const row = await adminViewsRepository.outboxById(this.db, outboxId);
    if (!row) throw notFound();
    await inTransaction(this.db, async (trx) => {
      if (!(await outboxRepository.retryFailed(trx, outboxId, Date.now()))) {
        throw new AppError(ERROR_CODES.OUTBOX_NOT_RETRYABLE);
      }
      const message = await outboxRepository.messageBackToPending(trx, row.msg_id);
      if (message) {
        await this.events.messageStatus(trx, message.seat_id, {
          session_id: message.session_id,
          msg_id: message.id,
          status: message.status,
        });
      }
      await this.audit.record(
        trx,
        actor,
        'outbox.retry',
        'outbox',
        row.id,
        `outbox ${row.id} (message ${row.msg_id})`,
        { status: row.status, attempts: row.attempts, last_error: row.last_error },
        { status: 'pending', attempts: row.attempts, last_error: row.last_error },
      );
    });
    // Read before the worker is woken: the answer shows the retry itself (pending).
    const item = await adminViewsRepository.outboxItem(this.db, outboxId);
    this.outbox.notify();
    if (!item) throw notFound();
    return toOutboxItem(item);
  }
}

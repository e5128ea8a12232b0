import type { z } from 'zod';
import type {
  adminExportAuditQuery,
  adminExportSeatTotalsQuery,
  adminExportSeriesQuery,
} from '@parley/protocol';
import type { Db } from '../../db/database.js';
import {
  addDays,
  bucketsOf,
  dayStart,
  daysBetween,
  localDate,
  offsetAt,
} from '../../lib/time-zone.js';
import { auditRepository } from './admin.repository.js';
import { AdminStatsService } from './admin-stats.service.js';
import { adminStatsRepository } from './admin-stats.repository.js';

/**
 * Days of a series read at once: a day's statements take a few ms (on SQLite's event loop when
 * an export is read in process).
 */
const SERIES_CHUNK_DAYS = 1;
/** Audit rows read at once. */
const AUDIT_BATCH = 200;
/** Seats of the per-seat export read (and counted) at once. */
const SEAT_BATCH = 200;

/**
 * An export that may be large, as its reader is asked for it: plain data, so that it can be
 * handed to a worker thread (worker-export-reader.ts). `now`: the instant the figures are of.
 */
export type ExportRequest =
  | { kind: 'series'; query: z.output<typeof adminExportSeriesQuery>; now: number }
  | { kind: 'seatTotals'; query: z.output<typeof adminExportSeatTotalsQuery>; now: number }
  | { kind: 'audit'; query: z.output<typeof adminExportAuditQuery> };

const iso = (ms: number) => new Date(ms).toISOString();

/** The zone's wall clock of an instant, 'YYYY-MM-DD HH:MM'. */
function localTime(timeZone: string, at: number): string {
  const wall = at + offsetAt(timeZone, at) * 60_000;
  return `${localDate(timeZone, at)} ${new Date(wall).toISOString().slice(11, 16)}`;
}

/**
 * The rows of the large CSV exports, produced as they are read, from whichever connection it is
 * given: the server's (PostgreSQL) or an export worker's own (SQLite). Nothing here may need
 * more than the database: it also runs in a worker thread.
 */
export class ExportRows {
  private readonly stats: AdminStatsService;

  constructor(private readonly db: Db) {
    this.stats = new AdminStatsService(db);
  }

  of(request: ExportRequest): AsyncGenerator<unknown[]> {
    switch (request.kind) {
      case 'series':
        return this.series(request.query, request.now);
      case 'seatTotals':
        return this.seatTotals(request.query, request.now);
      case 'audit':
        return this.audit(request.query);
    }
  }

  /** A series' buckets, a month of days at a time; one column per engine used in the range. */
  async *series(
    q: z.output<typeof adminExportSeriesQuery>,
    now: number,
  ): AsyncGenerator<unknown[]> {
    const seatId = q.seat_id ?? null;
    const all = bucketsOf(q.time_zone, q.from, q.to);
    const engines = await adminStatsRepository.engines(
      this.db,
      all[0]!.start,
      all[all.length - 1]!.end,
      seatId,
    );
    yield [
      'start_utc',
      'local_time',
      'messages_in',
      'messages_out',
      'waiting',
      'first_responses',
      'first_response_median_ms',
      'first_response_p90_ms',
      ...engines.map((e) => `characters_${e}`),
      'memory_characters',
      'glossary_hits',
      'back_translations',
      'flagged_round_trips',
      'assignments',
      'handovers',
      'back_to_queue',
      'queue_wait_avg_ms',
      'queue_wait_p90_ms',
    ];
    const days = daysBetween(q.from, q.to) + 1;
    const single = days === 1;
    // Read newest first, each part told the chats waiting at its end by the part after it
    // (else each would count its waits back from now, reading every turn since, in one
    // statement); sent oldest first. A turn of the event loop between parts: the reading may
    // share its loop with the operators' calls.
    const parts: unknown[][][] = [];
    let waitingAtEnd: number | null = null;
    for (
      let d = Math.floor((days - 1) / SERIES_CHUNK_DAYS) * SERIES_CHUNK_DAYS;
      d >= 0;
      d -= SERIES_CHUNK_DAYS
    ) {
      const from = addDays(q.from, d);
      const to = single ? q.to : addDays(q.from, Math.min(d + SERIES_CHUNK_DAYS, days) - 1);
      // Parts of more than one day are read by day, as the whole range would be.
      const part = await this.stats.seriesPart(
        { timeZone: q.time_zone, from, to, seatId },
        now,
        !single,
        waitingAtEnd,
      );
      waitingAtEnd = part.waitingAtStart;
      parts.unshift(
        part.series.buckets.map((b) => [
          iso(b.start),
          localTime(q.time_zone, b.start),
          b.messages_in,
          b.messages_out,
          b.waiting,
          b.first_responses,
          b.first_response_median_ms,
          b.first_response_p90_ms,
          ...engines.map((e) => b.engine_characters[e] ?? 0),
          b.memory_characters,
          b.glossary_hits,
          b.back_translations,
          b.flagged_round_trips,
          b.assignments,
          b.handovers,
          b.back_to_queue,
          b.queue_wait_avg_ms,
          b.queue_wait_p90_ms,
        ]),
      );
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    for (const part of parts) yield* part;
  }

  /**
   * The per-seat table over a range of local days: a batch of seats at a time, each batch's
   * figures counted by the database in one grouped query per figure (no seat read alone, no
   * message brought to the server); one column per engine used in the range.
   */
  async *seatTotals(
    q: z.output<typeof adminExportSeatTotalsQuery>,
    now: number,
  ): AsyncGenerator<unknown[]> {
    const from = dayStart(q.time_zone, q.from);
    const until = Math.min(dayStart(q.time_zone, addDays(q.to, 1)), now + 1);
    const engines = await adminStatsRepository.engines(this.db, from, until, null);
    yield [
      'seat_id',
      'account',
      'nickname',
      'messages_in',
      'messages_out',
      'first_responses',
      'first_response_median_ms',
      'first_response_p90_ms',
      ...engines.map((e) => `characters_${e}`),
      'memory_characters',
      'waiting_now',
      'assignments',
      'handovers',
      'back_to_queue',
      'queue_wait_avg_ms',
    ];
    let after = 0;
    for (;;) {
      const seats = await adminStatsRepository.seatsAfter(this.db, after, SEAT_BATCH);
      if (seats.length === 0) return;
      const ids = seats.map((s) => s.id);
      const [messages, responses, translation, waiting, assignments] = await Promise.all([
        adminStatsRepository.seatMessages(this.db, ids, from, until),
        adminStatsRepository.seatResponses(this.db, ids, from, until),
        adminStatsRepository.seatTranslation(this.db, ids, from, until),
        adminStatsRepository.seatsWaitingNow(this.db, ids),
        adminStatsRepository.seatAssignments(this.db, ids, from, until),
      ]);
      const row = new Map(
        seats.map((s) => [
          s.id,
          {
            in: 0,
            out: 0,
            n: 0,
            median: null as number | null,
            p90: null as number | null,
            engines: new Map<string, number>(),
            memory: 0,
            waiting: 0,
          },
        ]),
      );
      for (const m of messages) row.get(m.seatId)![m.direction] = m.n;
      for (const r of responses) Object.assign(row.get(r.seatId)!, r);
      for (const t of translation) {
        const r = row.get(t.seatId)!;
        r.engines.set(t.engine, t.characters);
        r.memory += t.memory;
      }
      for (const w of waiting) row.get(w.seatId)!.waiting = w.n;
      const assigned = new Map(assignments.map((a) => [a.seatId, a]));
      for (const s of seats) {
        const r = row.get(s.id)!;
        yield [
          s.id,
          s.account,
          s.nickname,
          r.in,
          r.out,
          r.n,
          r.median,
          r.p90,
          ...engines.map((e) => r.engines.get(e) ?? 0),
          r.memory,
          r.waiting,
          assigned.get(s.id)?.assignments ?? 0,
          assigned.get(s.id)?.handovers ?? 0,
          assigned.get(s.id)?.backToQueue ?? 0,
          assigned.get(s.id)?.waitAvg ?? null,
        ];
      }
      if (seats.length < SEAT_BATCH) return;
      after = seats[seats.length - 1]!.id;
    }
  }

  /** The audit log with the list's filters, newest first, read by keyset in batches. */
  async *audit(filter: z.output<typeof adminExportAuditQuery>): AsyncGenerator<unknown[]> {
    yield [
      'audit_id',
      'at_utc',
      'actor_type',
      'actor',
      'action',
      'target_type',
      'target_id',
      'target',
      'before',
      'after',
    ];
    let before: number | null = null;
    for (;;) {
      const rows = await auditRepository.page(this.db, filter, before, AUDIT_BATCH);
      for (const r of rows) {
        yield [
          r.id,
          iso(Number(r.at)),
          r.actor_type,
          r.actor,
          r.action,
          r.target_type,
          r.target_id,
          r.target,
          r.before,
          r.after,
        ];
      }
      if (rows.length < AUDIT_BATCH) return;
      before = rows[rows.length - 1]!.id;
    }
  }
}

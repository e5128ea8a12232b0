import type { AdminCallRequest, AdminStatsSeat, StatsBucket, StatsSeries } from '@parley/protocol';
import type { Db } from '../../db/database.js';
import { notFound } from '../../lib/app-error.js';
import { bucketsOf, dayStart, addDays, offsetAt, type Bucket } from '../../lib/time-zone.js';
import { seatsRepository } from '../seats/seats.repository.js';
import { adminStatsRepository } from './admin-stats.repository.js';

const QUARTER_MS = 900_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WAITING_LONGEST = 10;

export interface SeriesQuery {
  timeZone: string;
  from: string;
  to: string;
  seatId: number | null;
  since?: number;
}

/**
 * The owner's charts: series over local hours or days of a time zone. The buckets are
 * computed here from the zone's rules; the counting is the database's (adminStatsRepository),
 * so what this does per bucket never grows with the messages.
 */
export class AdminStatsService {
  constructor(private readonly db: Db) {}

  async requireSeat(seatId: number | null) {
    if (seatId !== null && !(await seatsRepository.findById(this.db, seatId))) throw notFound();
  }

  series(input: AdminCallRequest<'/v1/admin/stats/series'>): Promise<StatsSeries> {
    return this.seriesOf({
      timeZone: input.time_zone,
      from: input.from,
      to: input.to,
      seatId: input.seat_id ?? null,
      since: input.since,
    });
  }

  /** `byDay`: days even for a single day (an export's last month may be one day). */
  async seriesOf(q: SeriesQuery, now = Date.now(), byDay = false): Promise<StatsSeries> {
    return (await this.seriesPart(q, now, byDay, null)).series;
  }

  /**
   * A series, and the chats waiting when its first bucket began. `waitingAtEnd`: the chats
   * waiting when its last bucket ends, known from the part after it (an export reads its parts
   * newest first); then nothing after the range is read, so no part scans the turns up to now.
   */
  async seriesPart(
    q: SeriesQuery,
    now: number,
    byDay: boolean,
    waitingAtEnd: number | null,
  ): Promise<{ series: StatsSeries; waitingAtStart: number }> {
    await this.requireSeat(q.seatId);
    const all = bucketsOf(q.timeZone, q.from, q.to, byDay);
    const first = q.since === undefined ? 0 : all.findIndex((b) => b.end > q.since!);
    const buckets = first < 0 ? [] : all.slice(first);
    const base = {
      at: now,
      time_zone: q.timeZone,
      from: q.from,
      to: q.to,
      bucket: q.from === q.to && !byDay ? 'hour' : 'day',
      seat_id: q.seatId,
    } as const;
    if (buckets.length === 0) {
      return { series: { ...base, buckets: [] }, waitingAtStart: waitingAtEnd ?? 0 };
    }

    // Waits are counted back from now: the turns after the range count too (one more bucket),
    // unless the waiting at the range's end is known.
    const last = buckets[buckets.length - 1]!;
    const withAfter: Bucket[] =
      waitingAtEnd === null
        ? [...buckets, { start: last.end, end: Math.max(now, last.end) + 1 }]
        : buckets;
    const [messages, waits, translation, roundTrips, assignments, waitingNow] = await Promise.all([
      adminStatsRepository.messages(this.db, buckets, q.seatId),
      adminStatsRepository.waits(this.db, withAfter, q.seatId),
      adminStatsRepository.translation(this.db, buckets, q.seatId),
      adminStatsRepository.roundTrips(this.db, buckets, q.seatId),
      adminStatsRepository.assignments(this.db, buckets, q.seatId),
      waitingAtEnd ?? adminStatsRepository.waitingNow(this.db, q.seatId),
    ]);

    const out: StatsBucket[] = buckets.map((b) => ({
      start: b.start,
      end: b.end,
      messages_in: 0,
      messages_out: 0,
      waiting: null,
      first_responses: 0,
      first_response_median_ms: null,
      first_response_p90_ms: null,
      engine_characters: {},
      memory_characters: 0,
      glossary_hits: 0,
      back_translations: 0,
      flagged_round_trips: 0,
      assignments: 0,
      handovers: 0,
      back_to_queue: 0,
      queue_wait_avg_ms: null,
      queue_wait_p90_ms: null,
    }));
    for (const m of messages) {
      if (m.direction === 'in') out[m.i]!.messages_in = m.n;
      else out[m.i]!.messages_out = m.n;
    }
    for (const r of waits) {
      const b = out[r.i];
      if (!b) continue; // the bucket after the range
      b.first_responses = r.n;
      b.first_response_median_ms = r.median;
      b.first_response_p90_ms = r.p90;
    }
    for (const t of translation) {
      const b = out[t.i]!;
      if (t.characters > 0) b.engine_characters[t.engine] = t.characters;
      b.memory_characters += t.memory;
      b.glossary_hits += t.glossaryHits;
    }
    for (const r of roundTrips) {
      out[r.i]!.back_translations = r.backTranslations;
      out[r.i]!.flagged_round_trips = r.flagged;
    }
    for (const a of assignments) {
      const b = out[a.i]!;
      b.assignments = a.assignments;
      b.handovers = a.handovers;
      b.back_to_queue = a.backToQueue;
      b.queue_wait_avg_ms = a.waitAvg;
      b.queue_wait_p90_ms = a.waitP90;
    }
    // Waiting at a bucket's end: waiting now, less the waits begun after it, plus those ended.
    const net = new Array<number>(withAfter.length).fill(0);
    for (const w of waits) net[w.i] = w.started - w.ended;
    let waiting = waitingNow;
    for (let i = withAfter.length - 1; i >= 0; i--) {
      if (i < out.length && buckets[i]!.start <= now) out[i]!.waiting = Math.max(0, waiting);
      waiting -= net[i]!;
    }
    return { series: { ...base, buckets: out }, waitingAtStart: waiting };
  }

  async seat(
    input: AdminCallRequest<'/v1/admin/stats/seat'>,
    now = Date.now(),
  ): Promise<AdminStatsSeat> {
    await this.requireSeat(input.seat_id);
    const from = dayStart(input.time_zone, input.from);
    const until = Math.min(dayStart(input.time_zone, addDays(input.to, 1)), now + 1);
    const [quarters, waiting] = await Promise.all([
      adminStatsRepository.quarterHours(this.db, input.seat_id, from, until),
      adminStatsRepository.waitingLongest(this.db, input.seat_id, WAITING_LONGEST),
    ]);
    const hours = Array.from({ length: 24 }, (_, hour) => ({
      hour,
      messages_in: 0,
      messages_out: 0,
    }));
    // One offset per UTC hour met (a zone's rules change on whole quarter hours at most).
    const offsets = new Map<number, number>();
    for (const q of quarters) {
      const at = q.quarter * QUARTER_MS;
      const hourKey = Math.floor(at / HOUR_MS);
      let offset = offsets.get(hourKey);
      if (offset === undefined) offsets.set(hourKey, (offset = offsetAt(input.time_zone, at)));
      const local = (((at + offset * 60_000) % DAY_MS) + DAY_MS) % DAY_MS;
      const h = hours[Math.floor(local / HOUR_MS)]!;
      if (q.direction === 'in') h.messages_in += q.n;
      else h.messages_out += q.n;
    }
    return {
      seat_id: input.seat_id,
      busiest_hours: hours,
      waiting_longest: waiting.map((w) => ({ waiting_since: w.since, unanswered: w.n })),
    };
  }
}

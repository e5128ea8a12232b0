import { Readable } from 'node:stream';
import type { z } from 'zod';
import type {
  adminExportAuditQuery,
  adminExportSeatTotalsQuery,
  adminExportSeriesQuery,
} from '@parley/protocol';
import type { AdminConsoleService } from './admin-console.service.js';
import type { AdminStatsService } from './admin-stats.service.js';
import { csvChunks } from './csv.js';
import { ExportGate, EXPORTS_AT_ONCE_DEFAULT } from './export-gate.js';
import type { ExportReader } from './export-reader.js';

/**
 * The CSV exports: the large ones (series, per-seat totals over a range, audit log) read by
 * the database's ExportReader; the overview's per-seat table, one row per seat as the console
 * shows it, from the console's own reading.
 */
export class AdminExportService {
  /** The exports streaming at once (PARLEY_EXPORTS_AT_ONCE). */
  readonly gate: ExportGate;

  constructor(
    private readonly stats: AdminStatsService,
    private readonly console: AdminConsoleService,
    private readonly reader: ExportReader,
    exportsAtOnce = EXPORTS_AT_ONCE_DEFAULT,
  ) {
    this.gate = new ExportGate(exportsAtOnce);
  }

  requireSeat(seatId: number | null) {
    return this.stats.requireSeat(seatId);
  }

  /** A series' buckets, a day at a time; one column per engine used in the range. */
  series(query: z.output<typeof adminExportSeriesQuery>): Readable {
    return this.reader.open({ kind: 'series', query, now: Date.now() });
  }

  /** The per-seat table over a range of local days, a batch of seats at a time. */
  seatTotals(query: z.output<typeof adminExportSeatTotalsQuery>): Readable {
    return this.reader.open({ kind: 'seatTotals', query, now: Date.now() });
  }

  /** The audit log with the list's filters, newest first, read by keyset in batches. */
  audit(query: z.output<typeof adminExportAuditQuery>): Readable {
    return this.reader.open({ kind: 'audit', query });
  }

  /** The overview's per-seat table, as the console shows it (read on this loop: small). */
  seats(tzOffsetMin: number): Readable {
    return Readable.from(csvChunks(this.seatRows(tzOffsetMin)), { objectMode: false });
  }

  private async *seatRows(tzOffsetMin: number): AsyncGenerator<unknown[]> {
    const overview = await this.console.overview(tzOffsetMin);
    yield [
      'seat_id',
      'account',
      'nickname',
      'online',
      'frozen',
      'messages_in_today',
      'messages_out_today',
      'waiting_chats',
      'longest_wait_ms',
      'median_first_response_ms',
      'first_responses_24h',
      'outbox_pending',
      'outbox_failed',
    ];
    for (const s of overview.seats) {
      yield [
        s.seat_id,
        s.account,
        s.nickname,
        s.online,
        s.frozen,
        s.messages_in_today,
        s.messages_out_today,
        s.waiting_chats,
        s.longest_wait_ms,
        s.median_first_response_ms,
        s.first_responses_24h,
        s.outbox_pending,
        s.outbox_failed,
      ];
    }
  }
}

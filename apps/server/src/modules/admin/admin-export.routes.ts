import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  ADMIN_EXPORT_PATHS,
  adminExportAuditQuery,
  adminExportSeatsQuery,
  adminExportSeatTotalsQuery,
  adminExportSeriesQuery,
} from '@parley/protocol';
import { parseBody } from '../../lib/validate.js';
import type { AdminAuthService } from './admin-auth.service.js';
import type { AdminExportService } from './admin-export.service.js';
import { ExportsBusy, type ExportGate } from './export-gate.js';

export interface AdminExportServices {
  adminAuth: AdminAuthService;
  adminExport: AdminExportService;
}

/**
 * Streams an export's CSV while holding a place of the gate (taken before the first byte,
 * freed when the answer ends or the client goes; the stream is destroyed then, which stops
 * its reading).
 */
function sendCsv(reply: FastifyReply, gate: ExportGate, name: string, csv: () => Readable) {
  let leave: () => void;
  try {
    leave = gate.enter();
  } catch (err) {
    if (err instanceof ExportsBusy) reply.header('retry-after', String(err.retryAfterS));
    throw err;
  }
  reply.raw.once('close', leave);
  let stream: Readable;
  try {
    stream = csv();
  } catch (err) {
    leave();
    throw err;
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}

/**
 * The CSV exports: GET with the admin token in `Authorization` (the console fetches them and
 * saves the answer as a file, so no token ever goes in a URL). The token and the filters are
 * checked before the first byte; the rows then stream as the database yields them.
 */
export function adminExportRoutes(app: FastifyInstance, s: AdminExportServices) {
  const gate = s.adminExport.gate;
  app.get(ADMIN_EXPORT_PATHS.series, async (request, reply) => {
    await s.adminAuth.authenticateHeader(request.headers.authorization);
    const q = parseBody<ReturnType<typeof adminExportSeriesQuery.parse>>(
      adminExportSeriesQuery,
      request.query,
    );
    await s.adminExport.requireSeat(q.seat_id ?? null);
    const who = q.seat_id ? `seat-${q.seat_id}` : 'all';
    return sendCsv(reply, gate, `parley-series-${who}-${q.from}-${q.to}.csv`, () =>
      s.adminExport.series(q),
    );
  });
  app.get(ADMIN_EXPORT_PATHS.seats, async (request, reply) => {
    await s.adminAuth.authenticateHeader(request.headers.authorization);
    const q = parseBody<ReturnType<typeof adminExportSeatsQuery.parse>>(
      adminExportSeatsQuery,
      request.query,
    );
    return sendCsv(reply, gate, 'parley-seats.csv', () => s.adminExport.seats(q.tz_offset_min));
  });
  app.get(ADMIN_EXPORT_PATHS.seatTotals, async (request, reply) => {
    await s.adminAuth.authenticateHeader(request.headers.authorization);
    const q = parseBody<ReturnType<typeof adminExportSeatTotalsQuery.parse>>(
      adminExportSeatTotalsQuery,
      request.query,
    );
    return sendCsv(reply, gate, `parley-seats-${q.from}-${q.to}.csv`, () =>
      s.adminExport.seatTotals(q),
    );
  });
  app.get(ADMIN_EXPORT_PATHS.audit, async (request, reply) => {
    await s.adminAuth.authenticateHeader(request.headers.authorization);
    const q = parseBody<ReturnType<typeof adminExportAuditQuery.parse>>(
      adminExportAuditQuery,
      request.query,
    );
    return sendCsv(reply, gate, 'parley-audit.csv', () => s.adminExport.audit(q));
  });
}

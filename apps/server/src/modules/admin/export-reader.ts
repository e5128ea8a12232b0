import { Readable } from 'node:stream';
import type { Db } from '../../db/database.js';
import { csvChunks } from './csv.js';
import { ExportRows, type ExportRequest } from './export-rows.js';

/**
 * Reads a large export as CSV bytes. One per database, chosen where the services are wired
 * (services.ts): the rows and their CSV are the same code (export-rows.ts, csv.ts) either way;
 * what differs is the thread that runs them.
 */
export interface ExportReader {
  /**
   * The export's CSV, read as the stream is read (it pauses when the client does); destroying
   * the stream stops the reading.
   */
  open(request: ExportRequest): Readable;
}

/** Work done in one turn of the event loop before the operators' calls get theirs. */
const SLICE_MS = 2;

/**
 * PostgreSQL: the rows are read on the server's own loop, the statements running in the
 * database's processes; between statements, and every SLICE_MS of formatting, the operators'
 * calls get their turn.
 */
export class InProcessExportReader implements ExportReader {
  private readonly rows: ExportRows;

  constructor(db: Db) {
    this.rows = new ExportRows(db);
  }

  open(request: ExportRequest): Readable {
    return Readable.from(csvChunks(this.rows.of(request), SLICE_MS), { objectMode: false });
  }
}

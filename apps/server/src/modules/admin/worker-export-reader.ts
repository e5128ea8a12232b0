import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { ExportReader } from './export-reader.js';
import type { ExportRequest } from './export-rows.js';

/** What an export worker is started with. */
export interface WorkerInput {
  file: string;
  request: ExportRequest;
}
/** The server asks for one more piece. */
export type ToWorker = { type: 'more' };
export type FromWorker =
  { type: 'chunk'; bytes: Uint8Array } | { type: 'end' } | { type: 'error'; message: string };

// Run from the TypeScript sources (the tests), the worker's modules are compiled by a module
// hook; the built server starts the built worker as it is.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCE ? './export-worker.ts' : './export-worker.js', import.meta.url);
const EXEC_ARGV = FROM_SOURCE
  ? ['--import', new URL('../../../scripts/ts-worker/register.mjs', import.meta.url).href]
  : undefined;

/** Pieces held for a slow client before the worker is asked for more (64 KiB each). */
const BUFFERED_BYTES = 128 * 1024;

/**
 * SQLite: better-sqlite3 runs each statement on the calling thread, so read in process every
 * export statement (a day of a series, 200 audit rows) held the operators' calls behind it (issue
 * 34: a seat's p99 at 4.68× with exports running). Here each export is read and formatted in a
 * worker thread of its own, on its own read-only connection (WAL: readers beside the writer);
 * this loop only passes the bytes on, asking for the next piece when the client has taken the
 * last (backpressure). Destroying the stream (the client went) ends the worker.
 */
export class WorkerExportReader implements ExportReader {
  constructor(private readonly file: string) {}

  open(request: ExportRequest): Readable {
    let worker: Worker | null = null;
    let ended = false;
    const input: WorkerInput = { file: this.file, request };
    const start = () => {
      const w = new Worker(ENTRY, { workerData: input, execArgv: EXEC_ARGV });
      w.on('message', (m: FromWorker) => {
        if (m.type === 'chunk') {
          stream.push(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
        } else if (m.type === 'end') {
          ended = true;
          stream.push(null);
        } else {
          ended = true;
          stream.destroy(new Error(`export: ${m.message}`));
        }
      });
      w.on('error', (err) => stream.destroy(err));
      w.on('exit', (code) => {
        if (!ended) stream.destroy(new Error(`export worker ended (${code}) before the end`));
      });
      return w;
    };
    const stream = new Readable({
      highWaterMark: BUFFERED_BYTES,
      read() {
        worker ??= start();
        worker.postMessage({ type: 'more' } satisfies ToWorker);
      },
      destroy(err, callback) {
        if (worker && !ended) void worker.terminate();
        callback(err);
      },
    });
    return stream;
  }
}

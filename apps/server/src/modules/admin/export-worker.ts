/**
 * An export worker thread (worker-export-reader.ts starts one per export on SQLite): reads the
 * rows through its own read-only connection and formats the CSV here, so that no statement of
 * an export runs on the loop that serves the operators; sends the bytes a piece at a time, one
 * for each piece the server asks for (its stream's backpressure).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteReader, type Db } from '../../db/database.js';
import { csvChunks } from './csv.js';
import { ExportRows } from './export-rows.js';
import type { ToWorker, WorkerInput, FromWorker } from './worker-export-reader.js';

/**
 * The thread's nice value: an export is a download that may take longer, the operators' calls
 * may not, so when the cores are short the server's loop runs first (Linux sets it per thread;
 * set once the modules are loaded, so that no thread the process starts later inherits it).
 */
const EXPORT_NICE = 10;
try {
  setPriority(EXPORT_NICE);
} catch {
  // Not permitted or not supported here: the export runs at the server's priority.
}

const port = parentPort!;
const { file, request } = workerData as WorkerInput;

let asked = 0;
let wake: (() => void) | null = null;
port.on('message', (m: ToWorker) => {
  if (m.type !== 'more') return;
  asked++;
  wake?.();
  wake = null;
});
const send = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

let db: Db | null = null;
try {
  db = openSqliteReader(file);
  const encoder = new TextEncoder();
  // The next piece is read and formatted while the one before is on its way.
  for await (const text of csvChunks(new ExportRows(db).of(request))) {
    const bytes = encoder.encode(text);
    while (asked === 0) await new Promise<void>((resolve) => (wake = resolve));
    asked--;
    send({ type: 'chunk', bytes }, [bytes.buffer as ArrayBuffer]);
  }
  send({ type: 'end' });
} catch (err) {
  send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
} finally {
  await db?.destroy();
  // Nothing else keeps the thread: it ends.
  port.unref();
}

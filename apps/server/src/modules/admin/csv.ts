import { performance } from 'node:perf_hooks';

/**
 * One CSV line (RFC 4180, CRLF). Text cells are neutralised against formula injection by the
 * rule in docs/security.md ("CSV exports"): OWASP's CSV Injection advice and ASVS 5.0 1.2.10
 * (prefix `'`), widened to what spreadsheets also run.
 */
export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A first character a spreadsheet may run, after NFKC folds full-width and small forms
 * (＝ ＋ － ＠ ｜ ％ ＂ ﹦ …) to these: OWASP's = + - @, tab, CR and ASVS's NUL, and also `|`
 * (DDE in older Excel), `%` and a double quote (LibreOffice and Excel read `"=…"` as a formula
 * once the CSV quoting is gone), LF, and the minus sign U+2212.
 */
const RUNS = /^[=+\-@|%"\t\r\n\0\u2212]/u;

/**
 * What a spreadsheet skips before it looks at the first character: white space, format and
 * other invisible characters (zero-width space, BOM, word joiner, ...) and controls.
 */
const INVISIBLE_LEAD = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}]+/u;

/** A whole cell that is one phone number (E.164): read as a number, never run; kept as it is. */
const PHONE = /^\+[1-9][0-9]{5,14}$/;

/** Whether `text` would be run by a spreadsheet (and so needs the `'` prefix). */
export function runsInSpreadsheet(text: string): boolean {
  if (PHONE.test(text)) return false;
  if (RUNS.test(text)) return true;
  const visible = text.replace(INVISIBLE_LEAD, '');
  if (visible !== text && visible === '') return false;
  return RUNS.test(visible.slice(0, 2).normalize('NFKC'));
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (runsInSpreadsheet(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text handed on in one piece (one socket write, one message from an export worker). */
const CHUNK_CHARS = 64 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The rows as CSV text, in pieces of about CHUNK_CHARS. `sliceMs`: read on a loop that serves
 * other calls, the rows resolve as promises, so without a pause an export would run to its end
 * before any I/O; every `sliceMs` of work it gives back a turn of the event loop.
 */
export async function* csvChunks(
  rows: AsyncIterable<unknown[]>,
  sliceMs = Infinity,
): AsyncGenerator<string> {
  let slice = performance.now();
  let out = '';
  for await (const row of rows) {
    out += csvLine(row);
    if (out.length >= CHUNK_CHARS) {
      yield out;
      out = '';
    }
    if (performance.now() - slice >= sliceMs) {
      await nextTurn();
      slice = performance.now();
    }
  }
  if (out) yield out;
}

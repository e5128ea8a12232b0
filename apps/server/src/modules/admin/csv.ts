/**
 * One CSV line (RFC 4180, CRLF). A text cell a spreadsheet would run as a formula (= + - @ and
 * tab or CR first) is prefixed with ' (OWASP's CSV injection advice): seat names and audit
 * targets are typed by people.
 */
export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvLine } from '../src/modules/admin/csv.js';
import { createAdmin } from './admin-helpers.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * Issue 34: a text cell of an export is neutralised (prefixed with `'`) for every first
 * character a spreadsheet may run, also behind invisible characters and in full-width form,
 * while a cell that is one phone number stays as it is (docs/security.md, "CSV exports").
 */

// Each is a nickname a seat may be given; the export must never start it with what runs.
const HOSTILE = [
  '=HYPERLINK("http://x","y")',
  '+1+1',
  '-1+1',
  '@SUM(A1)',
  '|calc',
  '%0A=1',
  '"=1+1"',
  '\u200b=1+1', // zero-width space
  '\u2060=1+1', // word joiner
  '\ufeff=1+1', // BOM
  '\u00a0=1+1', // no-break space
  '\uff1d1+1', // full-width ＝
  '\uff0b1', // full-width ＋
  '\uff0d1', // full-width －
  '\uff20SUM(A1)', // full-width ＠
  '\uff5ccalc', // full-width ｜
  '\ufe661+1', // small ﹦
  '\u22121+1', // minus sign
  '+1 446 555', // not one E.164 number: Excel runs it
];
const KEPT = ['+14465550100', 'Ana Souza', '1+1', "'=already", 'a=b'];

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await createAdmin(t, 'cells-admin');
  let n = 0;
  for (const nickname of [...HOSTILE, ...KEPT]) {
    await t.services.seats.create({
      account: `cells-${++n}`,
      password: 'a-long-password',
      nickname,
    });
  }
});
afterAll(async () => t?.close());

/** RFC 4180 as a spreadsheet reads it (quoted cells hold commas, quotes, line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      cell = '';
      rows.push(row);
      row = [];
    } else if (ch !== '\r') cell += ch;
  }
  return rows;
}

describe('CSV cells', () => {
  it('the seats export neutralises every runnable start and keeps a phone number readable', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/export/seats.csv?tz_offset_min=0',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const [head, ...rows] = parseCsv(res.body);
    const col = head!.indexOf('nickname');
    const byAccount = new Map(rows.map((r) => [r[1]!, r[col]!]));
    let n = 0;
    for (const nickname of HOSTILE) {
      expect(byAccount.get(`cells-${++n}`), JSON.stringify(nickname)).toBe(`'${nickname.trim()}`);
    }
    for (const nickname of KEPT) {
      expect(byAccount.get(`cells-${++n}`), JSON.stringify(nickname)).toBe(nickname);
    }
  });

  it.each([
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['\n=1', `"'\n=1"`],
    ['\u0000=1', "'\u0000=1"],
    ['   ', '   '],
    ['', ''],
  ])('a cell %j is written as %j', (cell, written) => {
    expect(csvLine([cell])).toBe(`${written}\r\n`);
  });
});

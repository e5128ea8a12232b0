import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { TestApp } from './helper.js';
import { storedFiles } from './media-helpers.js';

/**
 * A cheap fingerprint of everything a request could change: per table (and per seat where the
 * table has a seat_id) a row count and a hash of the rows, plus the media directory's file
 * list. Two fingerprints are compared to tell "nothing changed" or "this seat's rows did not".
 */
export type Fingerprint = Map<string, string>;

/** Not compared: a refused login is counted by design (the login throttle). */
const IGNORED = new Set(['login_attempts']);
/** Columns not compared: a seat's presence moves with any call made with its token, by design. */
const IGNORED_COLUMNS: Record<string, string[]> = { seats: ['last_seen_at'] };

interface Table {
  name: string;
  columns: string[];
  seatScoped: boolean;
}

/** The tables to fingerprint, read from the database so a new table is covered too. */
export async function fingerprintTables(t: TestApp): Promise<Table[]> {
  const tables = await t.db.introspection.getTables();
  return (
    tables
      .filter((table) => !table.isView && !IGNORED.has(table.name))
      // On PostgreSQL every test file has a schema of its own.
      .filter((table) => !t.config.pgSchema || table.schema === t.config.pgSchema)
      .filter((table) => !/^(kysely_|sqlite_)|_fts/.test(table.name))
      .map((table) => ({
        name: table.name,
        columns: table.columns
          .map((c) => c.name)
          .filter((c) => !IGNORED_COLUMNS[table.name]?.includes(c)),
        seatScoped: table.columns.some((c) => c.name === 'seat_id'),
      }))
  );
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * One query for all tables; the database joins each group's rows into one text (PostgreSQL
 * hashes it too), so a fingerprint costs a round trip, not a read of every row.
 */
function fingerprintQuery(tables: Table[], pg: boolean): string {
  return tables
    .map((table) => {
      const seat = table.seatScoped ? `coalesce(cast(seat_id as text), '-')` : `'-'`;
      // Ordered by the row's text: the order rows come in is not part of what they hold.
      const row = table.columns.map((c) => `quote("${c}")`).join(` || ',' || `);
      const record = `row(${table.columns.map((c) => `x."${c}"`).join(', ')})::text`;
      const rows = pg
        ? `md5(string_agg(${record}, ',' order by ${record}))`
        : `group_concat(${row}, char(10) order by ${row})`;
      return `select '${table.name}' as tbl, ${seat} as seat, count(*) as n, ${rows} as h
        from "${table.name}" x group by 2`;
    })
    .join(' union all ');
}

export async function fingerprint(t: TestApp, tables: Table[]): Promise<Fingerprint> {
  const query = fingerprintQuery(tables, t.config.databaseUrl !== null);
  const { rows } = await sql<{ tbl: string; seat: string; n: number; h: string | null }>`${sql.raw(
    query,
  )}`.execute(t.db);
  const result: Fingerprint = new Map();
  for (const row of rows) result.set(`${row.tbl}#${row.seat}`, `${row.n}:${sha(row.h ?? '')}`);
  result.set('media-files#-', sha(storedFiles(t.config.mediaDir).join('\n')));
  return result;
}

/** The keys whose value differs (a table's rows, or one seat's rows of a table). */
export function changed(before: Fingerprint, after: Fingerprint, seatId?: number): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys]
    .filter((key) => seatId === undefined || key.endsWith(`#${seatId}`))
    .filter((key) => before.get(key) !== after.get(key))
    .sort();
}

/**
 * fingerprint() that reads the tables again only when something was written since its last
 * read: a trigger on each table (on the compared columns) counts the statements that write,
 * and that count is read first. A fuzz's refused calls write nothing, and the fingerprint was
 * three quarters of its time. The counter counts conservatively (a statement that wrote no row,
 * or was rolled back, on PostgreSQL), never less. The media files are listed every time.
 */
export async function fingerprinter(
  t: TestApp,
  tables: Table[],
): Promise<() => Promise<Fingerprint>> {
  const pg = t.config.databaseUrl !== null;
  const q = (text: string) => sql.raw(text).execute(t.db);
  if (pg) {
    // A sequence: nextval is seen at once by every session, and locks nothing.
    await q(`create sequence test_changes`);
    await q(`create function test_changed() returns trigger language plpgsql as
      $$ begin perform nextval('test_changes'); return null; end $$`);
  } else {
    await q(`create table test_changes (n integer not null)`);
    await q(`insert into test_changes values (0)`);
  }
  for (const [i, table] of tables.entries()) {
    const columns = table.columns.map((c) => `"${c}"`).join(', ');
    if (pg) {
      await q(`create trigger test_changed_${i} after insert or update of ${columns} or delete
        or truncate on "${table.name}" for each statement execute function test_changed()`);
    } else {
      for (const [suffix, event] of [
        ['i', 'insert'],
        ['u', `update of ${columns}`],
        ['d', 'delete'],
      ]) {
        await q(`create trigger test_changed_${i}_${suffix} after ${event} on "${table.name}"
          begin update test_changes set n = n + 1; end`);
      }
    }
  }
  const count = async () => {
    const { rows } = await sql<{ n: string | number }>`${sql.raw(
      pg ? 'select last_value as n from test_changes' : 'select n from test_changes',
    )}`.execute(t.db);
    return String(rows[0]!.n);
  };
  let last: { count: string; tables: Fingerprint } | null = null;
  return async () => {
    const now = await count();
    if (last?.count !== now) {
      const read = await fingerprint(t, tables);
      read.delete('media-files#-');
      last = { count: now, tables: read };
    }
    const result = new Map(last.tables);
    result.set('media-files#-', sha(storedFiles(t.config.mediaDir).join('\n')));
    return result;
  };
}

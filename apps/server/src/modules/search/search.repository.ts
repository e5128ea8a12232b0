import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Db } from '../../db/database.js';
import type { MessageRow, SessionRow } from '../../db/schema.js';
import { containsPattern } from '../../lib/like.js';

export interface SearchPage {
  seatId: number;
  keyword: string;
  /** Only messages older than this id (the previous page's last hit). */
  beforeId: number | null;
  limit: number;
}

/** PostgreSQL: how many of the seat's newest messages are read before the text index... */
export const RECENT_WINDOW = 500;
/**
 * ... and how many more at most, when the word showed up there often enough to fill the page
 * within that many (else the trigram index is cheaper).
 */
export const DENSE_WINDOW_MAX = 5000;

/**
 * An FTS5 phrase: the whole word in double quotes (inner quotes doubled), so AND, NEAR, *, :
 * and the like are plain text. With the trigram tokenizer a phrase matches any substring.
 */
export function ftsPhrase(keyword: string): string {
  return `"${keyword.replace(/"/g, '""')}"`;
}

const shown = sql`m.deleted_for_me = 0 and m.deleted_for_all = 0`;
const below = (id: number | null) => (id === null ? sql`` : sql`and m.id < ${id}`);

/**
 * SQLite: the FTS5 index drives — CROSS JOIN fixes the order — walking rowids down from the
 * cursor; each hit is then read by its primary key and kept if it is the seat's and shown.
 */
export function ftsQuery(p: SearchPage): RawBuilder<MessageRow> {
  return sql<MessageRow>`
    select m.* from messages_fts cross join messages m on m.id = messages_fts.rowid
    where messages_fts match ${ftsPhrase(p.keyword)}
      and m.seat_id = ${p.seatId} and ${shown}
      ${p.beforeId === null ? sql`` : sql`and messages_fts.rowid < ${p.beforeId}`}
    order by messages_fts.rowid desc
    limit ${p.limit}`;
}

/** The seat's `size` newest messages below the cursor, newest first (an index range). */
function seatWindow(p: SearchPage, size: number, columns: RawBuilder<unknown>) {
  return sql`select ${columns} from messages
    where seat_id = ${p.seatId} ${p.beforeId === null ? sql`` : sql`and id < ${p.beforeId}`}
    order by id desc limit ${size}`;
}

/** PostgreSQL, phase 1: the hits among the seat's `size` newest messages (bounded). */
export function recentQuery(p: SearchPage, size = RECENT_WINDOW): RawBuilder<MessageRow> {
  return sql<MessageRow>`
    select m.* from (${seatWindow(p, size, sql`*`)}) m
    where m.content ilike ${containsPattern(p.keyword)} escape '\\' and ${shown}
    order by m.id desc
    limit ${p.limit}`;
}

/** PostgreSQL, phase 2: the trigram index, older than the window (run with bitmapScansOnly). */
export function trigramQuery(p: SearchPage): RawBuilder<MessageRow> {
  return sql<MessageRow>`
    select m.* from messages m
    where m.content ilike ${containsPattern(p.keyword)} escape '\\'
      and m.seat_id = ${p.seatId} and ${shown} ${below(p.beforeId)}
    order by m.id desc
    limit ${p.limit}`;
}

/**
 * Runs a query where PostgreSQL may only read through bitmap index scans: the trigram index
 * (alone or ANDed with another). Left to itself, the planner walks the primary key backwards
 * for a word it believes common and stops at the first page of hits; when the word is common
 * in other seats but absent from this one, that walk reads the whole table.
 */
export function bitmapScansOnly<T>(db: Db, run: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_indexscan = off`.execute(trx);
    return run(trx);
  });
}

/** The oldest id of a full window (where the next step starts), or null: the seat ran out. */
async function windowEdge(db: Db, p: SearchPage, size: number): Promise<number | null> {
  const { rows } = await sql<{ id: number | null; n: number }>`
    select min(w.id) as id, count(*)::int as n from (${seatWindow(p, size, sql`id`)}) w`.execute(
    db,
  );
  const edge = rows[0];
  return edge && edge.id !== null && edge.n >= size ? edge.id : null;
}

export const searchRepository = {
  /**
   * SQLite, in a transaction: the messages it inserts from here get no search entry from the
   * insert trigger (migration 030) until writeDeferredEntries writes them all in one statement,
   * which must run before the commit. Answers the id they come after.
   */
  async deferEntries(trx: Db): Promise<number> {
    await sql`insert into search_entries_deferred (id) values (1)`.execute(trx);
    const { rows } = await sql<{
      id: number;
    }>`select coalesce(max(id), 0) as id from messages`.execute(trx);
    return rows[0]!.id;
  },

  /** The entries deferEntries held back: every message after `afterId`, in one statement. */
  async writeDeferredEntries(trx: Db, afterId: number): Promise<void> {
    await sql`insert into messages_fts (rowid, content)
      select id, content from messages where id > ${afterId}`.execute(trx);
    await sql`delete from search_entries_deferred`.execute(trx);
  },

  /**
   * The seat's shown messages containing `keyword` (case-insensitive), newest (highest id)
   * first, from an index on both engines. PostgreSQL reads the seat's newest messages first —
   * a word found often fills the page there at a bounded cost — then the trigram index for
   * the rest (a GIN index cannot return rows in id order, so on its own it would fetch every
   * match of a common word before taking a page).
   */
  async page(db: Db, p: SearchPage): Promise<MessageRow[]> {
    if (dialectOf(db) === 'sqlite') return (await ftsQuery(p).execute(db)).rows;
    const hits: MessageRow[] = [];
    let before = p.beforeId;
    // The newest messages, then — when the word showed up there — as many more as its
    // frequency says the page needs (if few enough); each step stops where the seat's
    // messages run out. The rest comes from the trigram index.
    let size = RECENT_WINDOW;
    for (let step = 0; step < 2; step++) {
      const part = { ...p, beforeId: before, limit: p.limit - hits.length };
      const found = (await recentQuery(part, size).execute(db)).rows;
      hits.push(...found);
      if (hits.length >= p.limit) return hits;
      const edge = await windowEdge(db, part, size);
      if (edge === null) return hits;
      before = edge;
      if (found.length === 0) break;
      // Messages needed to fill the page at the frequency seen, with some margin.
      size = Math.ceil((1.5 * (p.limit - hits.length) * size) / found.length);
      if (size > DENSE_WINDOW_MAX) break;
    }
    const older = await bitmapScansOnly(db, (trx) =>
      trigramQuery({ ...p, beforeId: before, limit: p.limit - hits.length }).execute(trx),
    );
    return [...hits, ...older.rows];
  },

  /** The chats of the hits, in one query (scoped by seat like everything else). */
  sessionsByIds(db: Db, seatId: number, ids: number[]): Promise<SessionRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('sessions')
      .selectAll()
      .where('seat_id', '=', seatId)
      .where('id', 'in', ids)
      .execute();
  },
};

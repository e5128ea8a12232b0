import { sql, type RawBuilder } from 'kysely';
import type { Db, DialectName } from '../../db/database.js';
import type { MessageRow, SessionRow } from '../../db/schema.js';
import { containsPattern } from '../../lib/like.js';

export interface SearchPage {
  seatId: number;
  keyword: string;
  /** Only messages older than this id (the previous page's last hit). */
  beforeId: number | null;
  limit: number;
}

/**
 * An FTS5 phrase: the whole word in double quotes (inner quotes doubled), so AND, NEAR, *, :
 * and the like are plain text. With the trigram tokenizer a phrase matches any substring.
 */
export function ftsPhrase(keyword: string): string {
  return `"${keyword.replace(/"/g, '""')}"`;
}

/**
 * The seat's messages containing `keyword` (case-insensitive), newest (highest id) first,
 * neither hidden for the seat nor retracted; driven by the text index on both engines.
 */
export function searchQuery(dialect: DialectName, p: SearchPage): RawBuilder<MessageRow> {
  if (dialect === 'sqlite') {
    // CROSS JOIN fixes the order: the FTS index drives (walking rowids down), messages follow.
    return sql<MessageRow>`
      select m.* from messages_fts cross join messages m on m.id = messages_fts.rowid
      where messages_fts match ${ftsPhrase(p.keyword)}
        and m.seat_id = ${p.seatId} and m.deleted_for_me = 0 and m.deleted_for_all = 0
        ${p.beforeId === null ? sql`` : sql`and messages_fts.rowid < ${p.beforeId}`}
      order by messages_fts.rowid desc
      limit ${p.limit}`;
  }
  return sql<MessageRow>`
    select m.* from messages m
    where m.content ilike ${containsPattern(p.keyword)} escape '\\'
      and m.seat_id = ${p.seatId} and m.deleted_for_me = 0 and m.deleted_for_all = 0
      ${p.beforeId === null ? sql`` : sql`and m.id < ${p.beforeId}`}
    order by m.id desc
    limit ${p.limit}`;
}

export const searchRepository = {
  async page(db: Db, dialect: DialectName, p: SearchPage): Promise<MessageRow[]> {
    const { rows } = await searchQuery(dialect, p).execute(db);
    return rows;
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

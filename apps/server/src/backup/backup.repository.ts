import type SQLite from 'better-sqlite3';
import type { Db } from '../db/database.js';

type MediaRef = { sha256: string; thumb_sha256: string | null };

export const backupRepository = {
  /** Every stored media's files (PostgreSQL, for a media-only backup). */
  mediaRows(db: Db): Promise<MediaRef[]> {
    return db.selectFrom('media').select(['sha256', 'thumb_sha256']).execute();
  },

  /**
   * What a copied SQLite file holds: its integrity, newest migration, a few counts and the media
   * files it refers to (read on the copy itself, through its own connection).
   */
  snapshot(copy: SQLite.Database) {
    const integrity = (copy.pragma('integrity_check') as { integrity_check: string }[])
      .map((r) => r.integrity_check)
      .join('; ');
    const count = (table: string) =>
      (copy.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    const schema = (
      copy.prepare('select max(name) as name from kysely_migration').get() as {
        name: string | null;
      }
    ).name;
    return {
      integrity,
      schema,
      counts: {
        seats: count('seats'),
        sessions: count('sessions'),
        messages: count('messages'),
        media: count('media'),
      },
      media: copy.prepare('select sha256, thumb_sha256 from media').all() as MediaRef[],
    };
  },
};

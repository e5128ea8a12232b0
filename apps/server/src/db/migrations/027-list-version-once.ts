import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { seatListBumpFunction } from './025-list-versions.js';

/**
 * PostgreSQL: the version trigger raises a seat's version once per transaction, not once per
 * changed chat. A batch of sends to one seat updates a chat per send; each raise was an upsert
 * of the seat's one version row (a new row version) at commit, the longest part of the commit.
 * SQLite raises it in-process per row, at no such cost: unchanged.
 */
export function listVersionOnceMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'pg') await seatListBumpFunction(db, true, true);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'pg') await seatListBumpFunction(db, true);
    },
  };
}

import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';
import { seatListBumpFunction } from './025-list-versions.js';

/**
 * PostgreSQL: migration 025's version trigger also announces the change (NOTIFY on
 * LIST_VERSION_CHANNEL), so every instance learns at commit that a seat's lists changed,
 * whoever changed them, and answers an unchanged list without asking the database
 * (lib/known-versions.ts). The payload is the table's schema and the seat: several installs
 * may share a database, and PostgreSQL sends identical notices of one transaction once (a
 * batch of sends to one seat is one notice). SQLite reads its version in-process: no notice.
 */
export function listVersionNoticesMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'pg') await seatListBumpFunction(db, true);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'pg') await seatListBumpFunction(db, false);
    },
  };
}

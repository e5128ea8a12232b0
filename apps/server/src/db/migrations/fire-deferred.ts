import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * Runs now the deferred triggers a migration's row updates queued (PostgreSQL's list-version
 * constraint triggers, migration 025): pending, they make any later ALTER of that table in the
 * same run fail ("pending trigger events"), e.g. a foreign key to `sessions` created by a later
 * migration of one upgrade. SQLite has no deferred triggers.
 */
export async function fireDeferredTriggers(db: Kysely<unknown>, dialect: DialectName) {
  if (dialect === 'pg') await sql`set constraints all immediate`.execute(db);
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database.js';

/**
 * A counter the database raises whenever a login may have ended: a token revoked or deleted, a
 * seat frozen or unfrozen, whoever does it (either instance, the CLI, a statement by hand).
 * Each instance reads it every half second and forgets the tokens it has cached when it moved
 * (AuthService.checkRevocations), so a token is checked against the database once a minute
 * instead of on every call, and a revocation made elsewhere still shows within a second.
 */
export function tokenRevocationsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('token_revocations')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .execute();
      await sql`INSERT INTO token_revocations (id, n) VALUES (1, 0)`.execute(db);
      const bump = sql.raw('UPDATE token_revocations SET n = n + 1 WHERE id = 1');
      if (dialect === 'sqlite') {
        for (const [name, event] of TRIGGERS) {
          await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)} BEGIN ${bump}; END`.execute(
            db,
          );
        }
        return;
      }
      await sql`CREATE FUNCTION token_revocations_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${bump}; RETURN NULL; END $$`.execute(db);
      // Once per statement: a seat's tokens revoked together raise it once.
      for (const [name, event] of TRIGGERS) {
        await sql`CREATE TRIGGER ${sql.id(name)} AFTER ${sql.raw(event)}
          FOR EACH STATEMENT EXECUTE FUNCTION token_revocations_bump()`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      for (const [name, event] of TRIGGERS) {
        const table = event.split(' ON ')[1]!;
        await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}${sql.raw(dialect === 'pg' ? ` ON ${table}` : '')}`.execute(
          db,
        );
      }
      if (dialect === 'pg') await sql`DROP FUNCTION IF EXISTS token_revocations_bump()`.execute(db);
      await db.schema.dropTable('token_revocations').execute();
    },
  };
}

const TRIGGERS: [string, string][] = [
  ['tokens_revoked', 'UPDATE OF revoked_at ON tokens'],
  ['tokens_deleted', 'DELETE ON tokens'],
  ['seats_frozen', 'UPDATE OF frozen ON seats'],
];

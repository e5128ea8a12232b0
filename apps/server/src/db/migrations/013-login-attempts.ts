import type { Kysely, Migration } from 'kysely';

/**
 * The login throttle as one counter row per key (`account:<name>`, `ip:<address>`), taken
 * with an atomic upsert before the password is checked, so parallel guesses cannot all slip
 * in before their failures are counted. Replaces `login_failures` (a row per failure, never
 * pruned). Its window start is indexed for pruning.
 */
export function loginAttemptsMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('login_attempts')
        .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_attempts_window_idx')
        .on('login_attempts')
        .column('window_start')
        .execute();
      await db.schema.dropTable('login_failures').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('login_attempts').execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The customer sandbox's safety: which browser plays which customer (a customer number of an
 * account is bound to the first browser key that used it; only the key's SHA-256 is kept),
 * and the mark that the demo workspace was loaded into this database (the sandbox is on
 * with it). A database that got the demo before this mark existed is marked here: its seat
 * `demo` holds the demo's first phone account.
 */
export function sandboxCustomersMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sandbox_customers')
        .addColumn('send_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('receiver_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('sandbox_customers_pk', ['send_phone', 'receiver_phone'])
        .execute();
      // The demo's names as loadDemo wrote them then (demo/demo.ts), frozen here.
      const demo = await sql<{ one: number }>`
        select 1 as one from seats s join phone_accounts p on p.seat_id = s.id
        where s.account = 'demo' and p.send_phone = '+15550100001'`.execute(db);
      if (demo.rows.length > 0) {
        await sql`
          insert into server_settings (key, value, created_at)
          values ('demo_workspace_loaded', 'before-015', ${Date.now()})`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sandbox_customers').ifExists().execute();
      await sql`delete from server_settings where key = 'demo_workspace_loaded'`.execute(db);
    },
  };
}

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('migration 014: one table of external messages taken once', () => {
  it("keeps the platform's and Telegram's taken ids, and goes back", async () => {
    const { db, dialect } = t.app.parley.database;
    const migrator = migratorOf(db, dialect, t.config.pgSchema);
    const back = await migrator.migrateTo('013-login-attempts');
    expect(back.error).toBeUndefined();
    await sql`INSERT INTO platform_inbound (send_phone, platform_msg_id, msg_id, created_at)
              VALUES ('+15550001', 'plat-1', 7, 1000), ('+15550001', 'plat-2', NULL, 1001)`.execute(
      db,
    );
    await sql`INSERT INTO telegram_inbound (send_phone, tg_chat_id, tg_message_id, msg_id, created_at)
              VALUES ('+15550002', '-100123', 9007199254740, 8, 1002)`.execute(db);

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const rows = await db
      .selectFrom('inbound_messages')
      .selectAll()
      .orderBy('created_at')
      .execute();
    expect(rows).toEqual([
      {
        channel: 'platform',
        send_phone: '+15550001',
        external_id: 'plat-1',
        msg_id: 7,
        created_at: 1000,
      },
      {
        channel: 'platform',
        send_phone: '+15550001',
        external_id: 'plat-2',
        msg_id: null,
        created_at: 1001,
      },
      {
        channel: 'telegram',
        send_phone: '+15550002',
        external_id: '-100123:9007199254740',
        msg_id: 8,
        created_at: 1002,
      },
    ]);

    // And back down and up again: nothing lost either way.
    expect((await migrator.migrateTo('013-login-attempts')).error).toBeUndefined();
    const telegram = await sql<{ tg_message_id: number | string }>`
      SELECT tg_message_id FROM telegram_inbound`.execute(db);
    expect(Number(telegram.rows[0]!.tg_message_id)).toBe(9007199254740);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await db.selectFrom('inbound_messages').select('external_id').execute()).toHaveLength(3);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate.js';
import { createSeat } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { adminCall, createAdmin } from './admin-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('migration 018: the administrator console', () => {
  it('goes back and up again, keeping the seats; administrators start afresh', async () => {
    const seat = await createSeat(t, 'kept-seat');
    await createAdmin(t, 'gone-admin');
    const { db, dialect } = t.app.parley.database;
    const migrator = migratorOf(db, dialect, t.config.pgSchema);
    expect((await migrator.migrateTo('017-session-counts')).error).toBeUndefined();
    const tables = (await db.introspection.getTables())
      .filter((x) => !t.config.pgSchema || x.schema === t.config.pgSchema)
      .map((x) => x.name);
    expect(tables).not.toContain('admins');
    expect(tables).not.toContain('audit_log');
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const row = await db
      .selectFrom('seats')
      .selectAll()
      .where('id', '=', seat.seatId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account: 'kept-seat', last_seen_at: null });
    expect(await t.services.adminAuth.count()).toBe(0);
    const token = await createAdmin(t, 'new-admin');
    const list = await adminCall(t, '/v1/admin/seats/list', { keyword: 'kept-seat' }, token);
    expect(list.data.list.map((s) => s.seat_id)).toEqual([seat.seatId]);
  });
});

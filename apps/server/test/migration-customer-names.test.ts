import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratorOf } from '../src/db/migrate.js';
import { createChat, createSeat, signInAs } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('migration 032: customers’ names and photos on their chats', () => {
  it('names the chats whose Telegram profile was recorded before, with the photo of the seat; goes back', async () => {
    const { db, dialect } = t.app.parley.database;
    const migrator = migratorOf(db, dialect, t.config.pgSchema);
    expect((await migrator.migrateTo('031-translation-slots')).error).toBeUndefined();
    // Signed in once the schema is this build's again (its login reads the team tables).
    const seat = await createSeat(t, 'mig-names', 1, { signIn: false });
    const full = await createChat(db, seat);
    const userOnly = await createChat(db, seat);
    const none = await createChat(db, seat);
    const now = Date.now();
    await sql`INSERT INTO media (media_id, seat_id, kind, sha256, mime, size, file_name,
                width, height, duration_ms, thumb_sha256, created_at)
              VALUES ('m-mig-photo', ${seat.seatId}, 'image', 'abc', 'image/jpeg', 3,
                'photo.jpg', 1, 1, NULL, NULL, ${now})`.execute(db);
    await sql`INSERT INTO telegram_profiles (send_phone, receiver_phone, first_name, last_name,
                username, photo_media_id, updated_at)
              VALUES (${full.sendPhone}, ${full.receiverPhone}, 'Anna', 'Karenina', 'anna_k',
                'm-mig-photo', ${now}),
                (${userOnly.sendPhone}, ${userOnly.receiverPhone}, NULL, NULL, 'only_user',
                NULL, ${now})`.execute(db);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    seat.token = await signInAs(t, seat.account);
    const row = (id: number) =>
      db
        .selectFrom('sessions')
        .select(['customer_name', 'customer_avatar'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    expect(await row(full.sessionId)).toEqual({
      customer_name: 'Anna Karenina',
      customer_avatar: 'm-mig-photo',
    });
    expect(await row(userOnly.sessionId)).toEqual({
      customer_name: '@only_user',
      customer_avatar: null,
    });
    expect(await row(none.sessionId)).toEqual({ customer_name: null, customer_avatar: null });
    // The seat's list shows them.
    const listed = await t.call(
      '/v1/seat/chat/getGroupInfo',
      { group_id: seat.groups.ungrouped },
      seat.token,
    );
    const names = Object.fromEntries(
      listed.data.account_list.map((s) => [s.session_id, s.customer_name]),
    );
    expect(names[full.sessionId]).toBe('Anna Karenina');

    // Down and up again.
    expect((await migrator.migrateTo('031-translation-slots')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect((await row(full.sessionId)).customer_name).toBe('Anna Karenina');
  });
});

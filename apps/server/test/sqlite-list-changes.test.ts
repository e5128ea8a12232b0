import Database from 'better-sqlite3';
import { sql } from 'kysely';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat, type ChatFixture, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * SQLite only (vitest.config.ts): an unchanged list is answered from its cached bytes without
 * reading the seat's list version (lib/sqlite-list-changes.ts), as on PostgreSQL with its
 * notices; a change by another connection to the file (the CLI, a second process) or by this
 * server with no event or call shows in the very next read.
 */
let t: TestApp;
let seat: SeatFixture;
let chat: ChatFixture;
beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 'sqlite-lists');
  chat = await createChat(t.db, seat, { unread: 1, inbound: 1 });
});
afterAll(() => t?.close());

const unread = async () => {
  const res = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
  expect(res.code).toBe('000000');
  return res.data!.un_read_count;
};
/** The seat's version is trusted: a list read now asks the database nothing. */
const trusted = () => t.services.listVersions.known(seat.seatId) !== undefined;

describe('list versions on SQLite', () => {
  it('an unchanged list is answered without a query; another connection’s commit shows in the next read', async () => {
    const before = await unread();
    expect(await unread()).toBe(before);
    expect(trusted()).toBe(true);

    // Another connection to the same file, as the CLI or a second process would write.
    const other = new Database(path.join(t.config.dataDir, 'parley.db'));
    try {
      other.pragma('busy_timeout = 5000');
      other
        .prepare('update sessions set un_read_count = un_read_count + 4 where id = ?')
        .run(chat.sessionId);
    } finally {
      other.close();
    }
    expect(await unread()).toBe(before + 4);
    expect(trusted()).toBe(true);
  });

  it("this server's own write with no event or call shows in the next read", async () => {
    const before = await unread();
    expect(trusted()).toBe(true);
    await sql`update sessions set un_read_count = un_read_count + 2
      where id = ${chat.sessionId}`.execute(t.db);
    expect(trusted()).toBe(false);
    expect(await unread()).toBe(before + 2);
    // A new chat of the seat (an insert) and a group renamed by hand tell it too.
    await unread();
    await createChat(t.db, seat, { unread: 3, inbound: 1 });
    expect(trusted()).toBe(false);
    expect(await unread()).toBe(before + 5);
    await sql`update seat_groups set name = 'Renamed by hand'
      where id = ${seat.groups.ungrouped}`.execute(t.db);
    expect(trusted()).toBe(false);
  });
});

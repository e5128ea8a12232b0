import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_WINDOW_MS } from '@parley/protocol';
import { buildApp } from '../src/app.js';
import { groupListOf } from '../src/modules/groups/group-list.js';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestDatabaseConfig, testAppOf, usingPg, type TestApp } from './helper.js';

/**
 * getGroupInfo and getGroupList answer an unchanged list from the bytes of the last answer
 * (migration 025's per-seat version). Whatever changes the list, through either of two
 * instances on one database or by hand in the database, the next read must show it; and a
 * chat must still change tab when it turns 24 hours old.
 */
let a: TestApp;
let b: TestApp;
let cleanup: () => Promise<void>;
let seat: SeatFixture;
let other: SeatFixture;
beforeAll(async () => {
  const made = await createTestDatabaseConfig();
  cleanup = made.cleanup;
  // Two instances of the app on the same database (the same file, or the same schema).
  const appA = await buildApp(made.config);
  await appA.ready();
  const appB = await buildApp(made.config);
  await appB.ready();
  a = testAppOf(appA, made.config);
  b = testAppOf(appB, made.config);
  seat = await createSeat(a, 'cache-seat');
  other = await createSeat(a, 'cache-other');
});
afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  await cleanup?.();
});

const INFO = '/v1/seat/chat/getGroupInfo';
const LIST = '/v1/seat/chat/getGroupList';

function infoOf(t: TestApp, s: SeatFixture, groupId = s.groups.ungrouped, tab: 1 | 2 = 1) {
  return t
    .call(INFO, { group_id: groupId, user_time_type: tab, page_size: 50 }, s.token)
    .then((r) => {
      expect(r.code, r.raw).toBe('000000');
      return r.data;
    });
}
function listOf(t: TestApp, s: SeatFixture) {
  return t.call(LIST, {}, s.token).then((r) => {
    expect(r.code, r.raw).toBe('000000');
    return r.data;
  });
}
/** A write's answer must be a success. */
async function ok(answer: Promise<{ code: string; raw: string }>) {
  const r = await answer;
  expect(r.code, r.raw).toBe('000000');
  return r;
}
/** The list as read from the database right now, without any cache. */
async function fresh(s: SeatFixture, groupId = s.groups.ungrouped, tab: 1 | 2 = 1) {
  const info = await a.services.sessions.groupInfo(s.seatId, {
    group_id: groupId,
    user_time_type: tab,
    page_size: 50,
  } as never);
  return { info, list: await groupListOf(a.db, s.seatId, false) };
}
/**
 * Both instances answer what the database holds now: `writer`, the instance the seat made the
 * change through, at once (read your own writes); the other within the database's notice of
 * the change on PostgreSQL (migration 026), at once on SQLite. A change made by hand has no
 * writer: both within the notice.
 */
async function expectBothCurrent(
  s: SeatFixture,
  groupId = s.groups.ungrouped,
  tab: 1 | 2 = 1,
  writer: TestApp | null = null,
) {
  const now = await fresh(s, groupId, tab);
  const current = async (t: TestApp) => ({
    info: await infoOf(t, s, groupId, tab),
    list: await listOf(t, s),
  });
  for (const t of [a, b]) {
    if (t === writer) expect(await current(t)).toEqual(now);
    else await expect.poll(() => current(t), { timeout: 2_000, interval: 20 }).toEqual(now);
  }
  return now;
}

describe('list answers from cached bytes', () => {
  it('a repeated read answers the same bytes; each write shows at once through its instance, within the notice through the other', async () => {
    const chat = await createChat(a.db, seat, { unread: 2, inbound: 2 });
    await createChat(a.db, seat, { unread: 1, inbound: 1, latestTime: Date.now() - 60_000 });
    // Cached on both instances.
    const first = await expectBothCurrent(seat);
    const again = await a.call(
      INFO,
      { group_id: seat.groups.ungrouped, user_time_type: 1, page_size: 50 },
      seat.token,
    );
    expect(again.data).toEqual(first.info);

    // A send through B: A's next page has the chat's new preview and order.
    const sent = await b.call(
      '/v1/seat/chat/message',
      {
        send_phone: chat.sendPhone,
        receiver_phone: chat.receiverPhone,
        type: 'text',
        content: 'cached? no',
        client_msg_id: 'cache-send-0001',
      },
      seat.token,
    );
    expect(sent.code, sent.raw).toBe('000000');
    let now = await expectBothCurrent(seat, seat.groups.ungrouped, 1, b);
    expect(now.info.account_list[0]!.last_message?.preview).toBe('cached? no');

    // Reading the chat through B clears its unread count: A's list and counts follow.
    const before = (await listOf(a, seat)).un_read_count;
    await ok(
      b.call(
        '/v1/seat/chat/getChatRecord',
        { send_phone: chat.sendPhone, receiver_phone: chat.receiverPhone, page_size: 20 },
        seat.token,
      ),
    );
    now = await expectBothCurrent(seat, seat.groups.ungrouped, 1, b);
    expect(now.list.un_read_count).toBe(before - 2);

    // A remark and a pin through B.
    await ok(
      b.call('/v1/seat/chat/set_remark', { session_id: chat.sessionId, remark: 'vip' }, seat.token),
    );
    await ok(
      b.call(
        '/v1/seat/chat/sessionDoTop',
        { session_id: chat.sessionId, is_top: true },
        seat.token,
      ),
    );
    now = await expectBothCurrent(seat, seat.groups.ungrouped, 1, b);
    expect(now.info.account_list[0]).toMatchObject({ remark: 'vip', is_top: true });

    // A new group through B: A's group list has it.
    const added = await b.call(
      '/v1/seat/chat/doGroup',
      { type: 'add', group_name: 'Cached' },
      seat.token,
    );
    expect(added.code, added.raw).toBe('000000');
    now = await expectBothCurrent(seat, seat.groups.ungrouped, 1, b);
    expect(now.list.group_list.map((g) => g.group_name)).toContain('Cached');

    // The chat moved into it through B leaves Ungrouped's page on A.
    const groupId = added.data.group.group_id;
    await ok(
      b.call(
        '/v1/seat/chat/moveSessionGroup',
        { session_id: chat.sessionId, group_id: groupId },
        seat.token,
      ),
    );
    now = await expectBothCurrent(seat, seat.groups.ungrouped, 1, b);
    expect(now.info.account_list.map((s) => s.session_id)).not.toContain(chat.sessionId);
    await expectBothCurrent(seat, groupId, 1, b);

    // A customer's message through B's services (the platform bridge's path).
    await b.services.messages.receive({
      sendPhone: chat.sendPhone,
      receiverPhone: '+15559990001',
      content: 'new customer',
    });
    now = await expectBothCurrent(seat, seat.groups.ungrouped, 1, b);
    expect(now.info.account_list.some((s) => s.receiver_phone === '+15559990001')).toBe(true);

    // A change made by hand in the database (another process, an operator's fix).
    await sql`update sessions set remark = 'by hand' where id = ${chat.sessionId}`.execute(a.db);
    now = await expectBothCurrent(seat, groupId);
    expect(now.info.account_list[0]!.remark).toBe('by hand');
    await sql`delete from messages where session_id = ${chat.sessionId}`.execute(a.db);
    await sql`delete from sessions where id = ${chat.sessionId}`.execute(a.db);
    now = await expectBothCurrent(seat, groupId);
    expect(now.info.account_list).toEqual([]);
  });

  it("one seat's change leaves another seat's answers as they are, and never crosses seats", async () => {
    await createChat(a.db, other, { unread: 1, inbound: 1, remark: 'other seat' });
    const before = await expectBothCurrent(other);
    await createChat(a.db, seat, { unread: 3, inbound: 3 });
    expect(await infoOf(a, other)).toEqual(before.info);
    expect(await listOf(b, other)).toEqual(before.list);
    const mine = await expectBothCurrent(seat);
    expect(mine.info.account_list.some((s) => s.remark === 'other seat')).toBe(false);
  });

  it('a chat turning 24 hours old changes tab and count though nothing was written', async () => {
    const edge = Date.now() - RECENT_WINDOW_MS + 1_500;
    const chat = await createChat(a.db, other, { unread: 4, inbound: 4, latestTime: edge });
    const recent = await expectBothCurrent(other, other.groups.ungrouped, 1);
    expect(recent.info.account_list.map((s) => s.session_id)).toContain(chat.sessionId);
    const recentCount = recent.list.seat_one_seat_msg_count;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const later = await expectBothCurrent(other, other.groups.ungrouped, 1);
    expect(later.info.account_list.map((s) => s.session_id)).not.toContain(chat.sessionId);
    expect(later.list.seat_one_seat_msg_count).toBe(recentCount - 4);
    const earlier = await expectBothCurrent(other, other.groups.ungrouped, 2);
    expect(earlier.info.account_list.map((s) => s.session_id)).toContain(chat.sessionId);
  });

  // PostgreSQL raises it once per transaction (migration 027: each raise is a new row version
  // at commit); SQLite's triggers raise it per row, in-process, at no such cost.
  it("a transaction that changes several of a seat's chats raises its version once on PostgreSQL", async () => {
    const perRow = usingPg ? 0 : 1;
    const chatsOf = await Promise.all([1, 2, 3].map(() => createChat(a.db, seat)));
    const moved = await createChat(a.db, seat);
    const version = async (seatId: number) =>
      Number(
        (
          await sql<{ version: number }>`select version from seat_list_versions
            where seat_id = ${seatId}`.execute(a.db)
        ).rows[0]!.version,
      );
    const before = await version(seat.seatId);
    const otherBefore = await version(other.seatId);
    await a.db.transaction().execute(async (trx) => {
      for (const chat of chatsOf) {
        await sql`update sessions set remark = 'seen' where id = ${chat.sessionId}`.execute(trx);
      }
    });
    expect(await version(seat.seatId)).toBe(before + 1 + 2 * perRow);
    const once = before + 2 * perRow;
    // Each transaction raises it: a reader never keeps an answer across a commit.
    await sql`update sessions set remark = 'again' where id = ${chatsOf[0]!.sessionId}`.execute(
      a.db,
    );
    expect(await version(seat.seatId)).toBe(once + 2);
    // A chat moved to another seat changes both seats' lists.
    await a.db.transaction().execute(async (trx) => {
      await sql`update sessions set remark = 'moving' where id = ${chatsOf[1]!.sessionId}`.execute(
        trx,
      );
      await sql`update sessions set seat_id = ${other.seatId}, group_id = ${other.groups.ungrouped}
        where id = ${moved.sessionId}`.execute(trx);
    });
    expect(await version(seat.seatId)).toBe(once + 3 + perRow);
    expect(await version(other.seatId)).toBe(otherBefore + 1);
  });
});

import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChat, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { PushClient } from './ws-client.js';

/**
 * Mark unread (issue 26): a read chat's count becomes 1, an unread one keeps its count, and
 * the group list's counts (the group, the time tab, the total) agree with the chats; opening
 * the chat reads it again. Another seat's chat is not found and nothing changes.
 */
let t: TestApp;
let seat: SeatFixture;
let other: SeatFixture;
let base: string;
const clients: PushClient[] = [];
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'unread-owner');
  other = await createSeat(t, 'unread-other');
});
afterAll(async () => {
  clients.forEach((c) => c.close());
  await t?.close();
});

const MARK = '/v1/seat/chat/markUnread';

async function counts(s: SeatFixture) {
  const list = await t.call('/v1/seat/chat/getGroupList', {}, s.token);
  expect(list.code).toBe('000000');
  const ungrouped = list.data.group_list.find((g) => g.group_type === 'ungrouped')!;
  return {
    group: ungrouped.un_read,
    recent: list.data.seat_one_seat_msg_count,
    older: list.data.seat_two_seat_msg_count,
    total: list.data.un_read_count,
  };
}

async function itemOf(s: SeatFixture, sessionId: number) {
  const book = await t.call('/v1/seat/chat/addressBook', { session_id: sessionId }, s.token);
  return book.data.list[0];
}

describe('markUnread', () => {
  it('a read chat becomes unread (1); its group, time tab and total follow; opening it reads it', async () => {
    const read = await createChat(t.db, seat, { unread: 0, inbound: 2 });
    const old = await createChat(t.db, seat, {
      unread: 0,
      latestTime: Date.now() - 3 * 86_400_000,
    });
    const before = await counts(seat);
    const marked = await t.call(MARK, { session_id: read.sessionId }, seat.token);
    expect(marked.code).toBe('000000');
    expect(marked.data).toMatchObject({ session_id: read.sessionId, un_read_count: 1 });
    expect(await counts(seat)).toEqual({
      ...before,
      group: before.group + 1,
      recent: before.recent + 1,
      total: before.total + 1,
    });
    // A chat of the older tab moves that tab's count.
    await t.call(MARK, { session_id: old.sessionId }, seat.token);
    expect(await counts(seat)).toEqual({
      group: before.group + 2,
      recent: before.recent + 1,
      older: before.older + 1,
      total: before.total + 2,
    });
    expect((await itemOf(seat, read.sessionId))!.un_read_count).toBe(1);

    // Opening the chat reads it again, as usual.
    const opened = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: read.sendPhone, receiver_phone: read.receiverPhone },
      seat.token,
    );
    expect(opened.code).toBe('000000');
    expect((await itemOf(seat, read.sessionId))!.un_read_count).toBe(0);
    expect((await counts(seat)).recent).toBe(before.recent);
  });

  it("the seat's other consoles are told: session.updated with the count, then groups.changed as getGroupList answers", async () => {
    const chat = await createChat(t.db, seat, { unread: 0 });
    const console2 = await PushClient.open(base, { token: seat.token });
    clients.push(console2);
    await console2.waitFor('ready');
    await t.call(MARK, { session_id: chat.sessionId }, seat.token);
    const updated = await console2.waitForEvent(
      'session.updated',
      (d) => d.session.session_id === chat.sessionId,
    );
    expect(updated.data).toMatchObject({ session: { un_read_count: 1 } });
    const groups = await console2.waitForEvent('groups.changed');
    const list = await t.call('/v1/seat/chat/getGroupList', {}, seat.token);
    expect(groups.data).toEqual(list.data);
  });

  it('an unread chat keeps its count (marking it again changes nothing)', async () => {
    const chat = await createChat(t.db, seat, { unread: 3, inbound: 3 });
    const before = await counts(seat);
    const again = await t.call(MARK, { session_id: chat.sessionId }, seat.token);
    expect(again.code).toBe('000000');
    expect(again.data.un_read_count).toBe(3);
    expect(await counts(seat)).toEqual(before);
  });

  it("another seat's chat, a missing one: 400001 and nothing changed; bad input: 100001", async () => {
    const theirs = await createChat(t.db, other, { unread: 0 });
    const before = await counts(other);
    const refused = await t.call(MARK, { session_id: theirs.sessionId }, seat.token);
    expect(refused.code).toBe('400001');
    expect(refused.data).toBeNull();
    expect(await counts(other)).toEqual(before);
    expect((await itemOf(other, theirs.sessionId))!.un_read_count).toBe(0);

    expect((await t.call(MARK, { session_id: 2_000_000_000 }, seat.token)).code).toBe('400001');
    const bad = await t.call(MARK, { session_id: 'x' }, seat.token);
    expect(bad.code).toBe('100001');
    expect(bad.msg).toContain('session_id');
    expect((await t.call(MARK, {}, seat.token)).code).toBe('100001');
    expect((await t.call(MARK, { session_id: theirs.sessionId }, null)).code).toBe('400002');
  });
});

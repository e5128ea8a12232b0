import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RECENT_WINDOW_MS } from '@parley/protocol';
import { createChat, createGroup, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * The group list's unread counts and the user list's totals are kept by the database on every
 * change of a chat (migration 016). After each kind of write, the kept counts must equal a
 * count over every chat, and the answers must be the ones that count gives.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

const HOUR = 3_600_000;
const LIST = '/v1/seat/chat/getGroupList';
const INFO = '/v1/seat/chat/getGroupInfo';

interface Counted {
  chats: number;
  waiting_chats: number;
  unread: number;
  waiting_unread: number;
}
const n = (v: unknown) => Number(v ?? 0);
const counted = (r: Record<string, unknown>): Counted => ({
  chats: n(r.chats),
  waiting_chats: n(r.waiting_chats),
  unread: n(r.unread),
  waiting_unread: n(r.waiting_unread),
});
const SUMS = sql`count(*) as chats,
  sum(case when last_direction = 'in' then 1 else 0 end) as waiting_chats,
  sum(un_read_count) as unread,
  sum(case when last_direction = 'in' then un_read_count else 0 end) as waiting_unread`;

/** Kept counts against a count over every chat of every seat. */
async function expectKeptCountsRight() {
  const kept = await sql<Record<string, unknown>>`select group_id, chats, waiting_chats,
    unread, waiting_unread from group_counts`.execute(t.db);
  const fresh = await sql<Record<string, unknown>>`select group_id, ${SUMS}
    from sessions group by group_id`.execute(t.db);
  const keptByGroup = new Map(kept.rows.map((r) => [n(r.group_id), counted(r)]));
  const none = { chats: 0, waiting_chats: 0, unread: 0, waiting_unread: 0 };
  for (const r of fresh.rows) {
    expect(keptByGroup.get(n(r.group_id)), `group ${n(r.group_id)}`).toEqual(counted(r));
  }
  const counts = new Set(fresh.rows.map((r) => n(r.group_id)));
  for (const [group, c] of keptByGroup)
    if (!counts.has(group)) expect(c, `group ${group}`).toEqual(none);
  const hours = await sql<Record<string, unknown>>`select seat_id, hour, group_id, chats,
    waiting_chats, unread, waiting_unread from session_hours
    order by seat_id, hour, group_id`.execute(t.db);
  const freshHours = await sql<Record<string, unknown>>`select seat_id,
    latest_time / ${sql.lit(HOUR)} as hour, group_id, ${SUMS}
    from sessions group by seat_id, latest_time / ${sql.lit(HOUR)}, group_id
    order by seat_id, hour, group_id`.execute(t.db);
  const key = (r: Record<string, unknown>) => `${n(r.seat_id)}/${n(r.hour)}/${n(r.group_id)}`;
  expect(hours.rows.map((r) => [key(r), counted(r)])).toEqual(
    freshHours.rows.map((r) => [key(r), counted(r)]),
  );
}

/** getGroupList and every group's getGroupInfo totals, against counts over the seat's chats. */
async function expectAnswersRight(seat: SeatFixture) {
  const since = Date.now() - RECENT_WINDOW_MS;
  const chats = await sql<Record<string, unknown>>`select group_id, un_read_count, latest_time,
    last_direction from sessions where seat_id = ${seat.seatId}`.execute(t.db);
  for (const reply of [0, 1] as const) {
    const mine = chats.rows.filter((c) => reply === 0 || c.last_direction === 'in');
    const sum = (rows: typeof mine) => rows.reduce((s, c) => s + n(c.un_read_count), 0);
    const list = await t.call(LIST, { reply }, seat.token);
    expect(list.code).toBe('000000');
    const total = sum(mine);
    const recent = sum(mine.filter((c) => n(c.latest_time) >= since));
    expect(list.data.un_read_count, `reply ${reply}`).toBe(total);
    expect(list.data.seat_one_seat_msg_count, `reply ${reply}`).toBe(recent);
    expect(list.data.seat_two_seat_msg_count, `reply ${reply}`).toBe(total - recent);
    for (const g of list.data.group_list) {
      const inGroup = mine.filter((c) => n(c.group_id) === g.group_id);
      expect(g.un_read, `group ${g.group_name}, reply ${reply}`).toBe(sum(inGroup));
      for (const tab of [1, 2] as const) {
        const info = await t.call(
          INFO,
          { group_id: g.group_id, user_time_type: tab, reply, page_size: 1 },
          seat.token,
        );
        const expected = inGroup.filter((c) => n(c.latest_time) >= since === (tab === 1));
        expect(info.data.total, `${g.group_name} tab ${tab} reply ${reply}`).toBe(expected.length);
      }
    }
  }
}

async function expectRight(seat: SeatFixture) {
  await expectKeptCountsRight();
  await expectAnswersRight(seat);
}

async function receive(seat: SeatFixture, receiverPhone: string, content = 'hello') {
  return t.services.messages.receive({
    sendPhone: seat.phones[0]!,
    receiverPhone,
    content,
  });
}

/** An operator's text reply in a chat, which must be taken. */
async function reply(
  seat: SeatFixture,
  chat: { sendPhone: string; receiverPhone: string },
  content: string,
  clientMsgId: string,
) {
  const sent = await t.call(
    '/v1/seat/chat/message',
    {
      send_phone: chat.sendPhone,
      receiver_phone: chat.receiverPhone,
      type: 'text',
      content,
      client_msg_id: clientMsgId,
    },
    seat.token,
  );
  expect(sent.code, sent.raw).toBe('000000');
  return sent;
}

describe('kept counts', () => {
  it('stay right through every kind of write', async () => {
    const seat = await createSeat(t, 'counts-all', 2);
    const vip = await createGroup(t, seat, 'VIP');
    const old = Date.now() - RECENT_WINDOW_MS - 5 * HOUR;
    const a = await createChat(t.db, seat, { unread: 3 });
    const b = await createChat(t.db, seat, { unread: 2, latestTime: old });
    const c = await createChat(t.db, seat, { groupId: vip, unread: 4, lastDirection: 'out' });
    const d = await createChat(t.db, seat, { groupId: vip, unread: 0, latestTime: old });
    await expectRight(seat);

    // Customers write: an existing chat (unread + 1, back to the last 24 hours) and a new one.
    await receive(seat, b.receiverPhone);
    const fresh = nextPhone('+4478');
    await receive(seat, fresh);
    await receive(seat, fresh, 'again');
    await expectRight(seat);

    // Opening a chat reads it.
    const record = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: a.sendPhone, receiver_phone: a.receiverPhone },
      seat.token,
    );
    expect(record.code).toBe('000000');
    await expectRight(seat);

    // A reply: the chat is no longer waiting, and its time moves.
    await reply(seat, b, 'on its way', 'counts-reply-1');
    await expectRight(seat);

    // A Telegram link moves the chat to TG link pushed in the same transaction.
    await receive(seat, c.receiverPhone);
    await reply(seat, c, 'join us at https://t.me/parley_support', 'counts-link-1');
    await expectRight(seat);

    // Pin, move, block, unblock.
    const call = async (path: Parameters<TestApp['call']>[0], body: Record<string, unknown>) => {
      const res = await t.call(path, body, seat.token);
      expect(res.code, `${path} ${res.raw}`).toBe('000000');
      await expectRight(seat);
    };
    await call('/v1/seat/chat/sessionDoTop', { session_id: a.sessionId, is_top: true });
    await call('/v1/seat/chat/moveSessionGroup', { session_id: b.sessionId, group_id: vip });
    await call('/v1/seat/chat/block', { session_id: b.sessionId });
    await call('/v1/seat/chat/unblock', { session_id: b.sessionId });

    // A message hidden or retracted: the chat's last message (waiting or not) follows.
    await receive(seat, d.receiverPhone);
    const out = await reply(seat, d, 'reply to retract', 'counts-retract-1');
    await call('/v1/seat/chat/del_message', { msg_id: out.data.msg_id, scope: 'all' });
    await receive(seat, d.receiverPhone, 'one more');
    const page = await t.call(
      '/v1/seat/chat/getChatRecord',
      { send_phone: d.sendPhone, receiver_phone: d.receiverPhone },
      seat.token,
    );
    const lastIn = page.data.list[page.data.list.length - 1]!;
    await call('/v1/seat/chat/del_message', { msg_id: lastIn.msg_id, scope: 'me' });

    // A new chat from the console, one-click read of a group and of everything.
    await call('/v1/seat/chat/addSession', {
      send_phone: seat.phones[1]!,
      receiver_phone: nextPhone('+4479'),
      greeting: 'Hello there',
      client_msg_id: 'counts-add-1',
    });
    await receive(seat, a.receiverPhone);
    await receive(seat, d.receiverPhone);
    await call('/v1/seat/chat/oneClickRead', { group_id: vip });
    await receive(seat, c.receiverPhone);
    await call('/v1/seat/chat/oneClickRead', {});

    // Deleting a chat, and a group (its chats go to Ungrouped).
    await receive(seat, b.receiverPhone);
    await call('/v1/seat/chat/delSession', { session_id: a.sessionId });
    await call('/v1/seat/chat/doGroup', { type: 'del', group_id: vip });

    // An account handed to another seat takes its chats along.
    const other = await createSeat(t, 'counts-other');
    await receive(seat, nextPhone('+4480'));
    await t.services.accounts.assign(seat.phones[0]!, other.account);
    await expectRight(seat);
    await expectRight(other);
  });

  it('follow the clock across the 24-hour boundary without a write', async () => {
    const seat = await createSeat(t, 'counts-clock');
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    // Chats just inside the last 24 hours, spread over the boundary hour and the next.
    for (const minutes of [1, 10, 30, 59, 61, 90]) {
      await createChat(t.db, seat, {
        unread: 2,
        latestTime: now - RECENT_WINDOW_MS + minutes * 60_000,
      });
    }
    await createChat(t.db, seat, { unread: 1, latestTime: now - 5 * 60_000 });
    await expectRight(seat);
    const before = await t.call(LIST, {}, seat.token);
    expect(before.data.seat_one_seat_msg_count).toBe(13);
    for (const minutes of [5, 20, 40, 60, 75, 120]) {
      vi.setSystemTime(now + minutes * 60_000);
      await expectRight(seat);
    }
    const after = await t.call(LIST, {}, seat.token);
    expect(after.data.seat_one_seat_msg_count).toBe(1);
    expect(after.data.seat_two_seat_msg_count).toBe(12);
  });

  it('stay right under concurrent writes to the same chats and groups', async () => {
    const seat = await createSeat(t, 'counts-race', 2);
    const groups = [seat.groups.ungrouped, await createGroup(t, seat, 'Race A')];
    groups.push(await createGroup(t, seat, 'Race B'));
    const chats = [];
    for (let i = 0; i < 12; i++) {
      chats.push(
        await createChat(t.db, seat, {
          groupId: groups[i % 3]!,
          unread: i % 4,
          latestTime: Date.now() - (i % 2 ? RECENT_WINDOW_MS + HOUR * i : HOUR * i),
          sendPhone: seat.phones[i % 2]!,
        }),
      );
    }
    const ok = async (path: Parameters<TestApp['call']>[0], body: Record<string, unknown>) => {
      const res = await t.call(path, body, seat.token);
      // A move may race a block (400003), a delete (400001) or another move to the same group
      // (100001): each a refusal with its code. Nothing may fail.
      expect(['000000', '400003', '400001', '100001'], `${path} ${res.raw}`).toContain(res.code);
    };
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 4; round++) {
      chats.forEach((chat, i) => {
        work.push(
          t.services.messages.receive({
            sendPhone: chat.sendPhone,
            receiverPhone: chat.receiverPhone,
            content: `race ${round} ${i}`,
          }),
        );
        if (i % 3 === round % 3) {
          work.push(
            ok('/v1/seat/chat/getChatRecord', {
              send_phone: chat.sendPhone,
              receiver_phone: chat.receiverPhone,
            }),
          );
        }
        if (i % 4 === round) {
          work.push(
            ok('/v1/seat/chat/message', {
              send_phone: chat.sendPhone,
              receiver_phone: chat.receiverPhone,
              type: 'text',
              content: `reply ${round}`,
              client_msg_id: `counts-race-${round}-${i}`,
            }),
          );
        }
        if (i % 5 === round) {
          work.push(
            ok('/v1/seat/chat/moveSessionGroup', {
              session_id: chat.sessionId,
              group_id: groups[(i + round + 1) % 3],
            }),
          );
        }
      });
      work.push(ok('/v1/seat/chat/oneClickRead', round % 2 ? {} : { group_id: groups[1] }));
      work.push(
        t.services.messages.receive({
          sendPhone: seat.phones[round % 2]!,
          receiverPhone: nextPhone('+4481'),
          content: `new chat ${round}`,
        }),
      );
    }
    work.push(ok('/v1/seat/chat/block', { session_id: chats[0]!.sessionId }));
    work.push(ok('/v1/seat/chat/delSession', { session_id: chats[1]!.sessionId }));
    work.push(ok('/v1/seat/chat/doGroup', { type: 'del', group_id: groups[2] }));
    const results = await Promise.allSettled(work);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    await expectRight(seat);
  });
});

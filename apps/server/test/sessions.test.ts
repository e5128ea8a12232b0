import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_WINDOW_MS, type CallResponse, type SessionItem } from '@parley/protocol';
import { createChat, createGroup, createSeat, type SeatFixture } from './fixtures.js';
import { createTestApp, type Answer, type TestApp } from './helper.js';

let t: TestApp;
let seat: SeatFixture;
let vip: number;
const INFO = '/v1/seat/chat/getGroupInfo';
const now = Date.now();
const OLD = now - RECENT_WINDOW_MS - 3600_000;

beforeAll(async () => {
  t = await createTestApp();
  seat = await createSeat(t, 's-owner', 2);
  vip = await createGroup(t, seat, 'VIP');
  // 60 recent chats with many equal latest_times (keyset must break ties by id), 6 pinned.
  for (let i = 0; i < 60; i++) {
    await createChat(t.db, seat, {
      groupId: vip,
      latestTime: now - Math.floor(i / 4) * 60_000,
      unread: i % 3,
      isTop: i % 10 === 3,
      lastDirection: i % 2 === 0 ? 'in' : 'out',
      sendPhone: seat.phones[i % 2],
      remark: i === 7 ? 'Wholesale 100% lead' : '',
    });
  }
  // 25 older chats (time tab 2).
  for (let i = 0; i < 25; i++) {
    await createChat(t.db, seat, { groupId: vip, latestTime: OLD - i * 1000, unread: 1 });
  }
});
afterAll(async () => t?.close());

async function pageAll(body: Record<string, unknown>, token = seat.token) {
  const items: SessionItem[] = [];
  let cursor: string | null = null;
  let total = -1;
  for (let guard = 0; guard < 100; guard++) {
    const res: Answer<CallResponse<typeof INFO>> = await t.call(
      INFO,
      { ...body, ...(cursor ? { cursor } : {}) } as never,
      token,
    );
    expect(res.code).toBe('000000');
    if (total >= 0) expect(res.data.total).toBe(total);
    total = res.data.total;
    items.push(...res.data.account_list);
    cursor = res.data.next_cursor;
    if (!cursor) break;
  }
  return { items, total };
}

function sortedLikeServer(items: SessionItem[]) {
  return [...items].sort(
    (a, b) =>
      Number(b.is_top) - Number(a.is_top) ||
      b.latest_time - a.latest_time ||
      b.session_id - a.session_id,
  );
}

describe('getGroupInfo', () => {
  it('pages the recent tab with no duplicates or gaps: pinned first, then latest activity', async () => {
    const { items, total } = await pageAll({ group_id: vip, user_time_type: 1, page_size: 7 });
    expect(total).toBe(60);
    expect(items).toHaveLength(60);
    expect(new Set(items.map((i) => i.session_id)).size).toBe(60);
    expect(items).toEqual(sortedLikeServer(items));
    expect(items.slice(0, 6).every((i) => i.is_top)).toBe(true);
    expect(items.slice(6).some((i) => i.is_top)).toBe(false);
    expect(items.every((i) => i.user_time_type === 1 && i.group_id === vip)).toBe(true);
    expect(items[0]!.last_message).toMatchObject({ type: 'text', direction: expect.any(String) });
  });

  it('defaults to user_time_type 1 and the first page', async () => {
    const res = await t.call(INFO, { group_id: vip }, seat.token);
    expect(res.data.total).toBe(60);
    expect(res.data.account_list).toHaveLength(50);
    expect(res.data.next_cursor).not.toBeNull();
  });

  it('the older tab holds the rest', async () => {
    const { items, total } = await pageAll({ group_id: vip, user_time_type: 2, page_size: 10 });
    expect(total).toBe(25);
    expect(items.map((i) => i.user_time_type)).toEqual(new Array(25).fill(2));
    expect(items).toEqual(sortedLikeServer(items));
  });

  it('reply = 1 keeps chats whose last message came from the customer', async () => {
    const { items, total } = await pageAll({ group_id: vip, reply: 1, page_size: 9 });
    expect(total).toBe(30);
    expect(items.every((i) => i.last_message?.direction === 'in')).toBe(true);
  });

  it('keyword filters by number or remark, wildcards taken literally', async () => {
    const res = await t.call(INFO, { group_id: vip, keyword: '100%' }, seat.token);
    expect(res.data.total).toBe(1);
    expect(res.data.account_list[0]!.remark).toBe('Wholesale 100% lead');
    const lower = await t.call(INFO, { group_id: vip, keyword: 'wholesale' }, seat.token);
    expect(lower.data.total).toBe(1);
    const number = res.data.account_list[0]!.receiver_phone.slice(-6);
    expect((await t.call(INFO, { group_id: vip, keyword: number }, seat.token)).data.total).toBe(1);
    expect((await t.call(INFO, { group_id: vip, keyword: '_%' }, seat.token)).data.total).toBe(0);
  });

  it('an empty group answers an empty list', async () => {
    const res = await t.call(INFO, { group_id: seat.groups.blocked }, seat.token);
    expect(res.data).toEqual({ account_list: [], total: 0, next_cursor: null });
  });

  it('100001 for bad fields and cursors, 400001 for an unknown group', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'group_id'],
      [{ group_id: vip, user_time_type: 3 }, 'user_time_type'],
      [{ group_id: vip, page_size: 0 }, 'page_size'],
      [{ group_id: vip, page_size: 201 }, 'page_size'],
      [{ group_id: vip, cursor: 'not-a-cursor' }, 'cursor'],
      [{ group_id: vip, cursor: Buffer.from('[1,2]').toString('base64url') }, 'cursor'],
      [{ group_id: -1 }, 'group_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call(INFO, body, seat.token);
      expect(res.code, JSON.stringify(body)).toBe('100001');
      expect(res.msg).toBe(`Parameter error: ${field}`);
    }
    expect((await t.call(INFO, { group_id: 987654 }, seat.token)).code).toBe('400001');
  });
});

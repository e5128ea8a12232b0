import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_PATHS, RECENT_WINDOW_MS, type Group } from '@parley/protocol';
import { COUNT_HOUR_MS } from '../src/db/migrations/017-session-counts.js';
import { createChat, createGroup, createSeat, nextPhone, type SeatFixture } from './fixtures.js';
import { createTestApp, type TestApp } from './helper.js';
import { platformPost } from './platform-helpers.js';
import { PushClient } from './ws-client.js';

// The group list (getGroupList, groups.changed) carries each group's chats per time tab, the
// totals getGroupInfo answers: a console keeps its cached lists' totals exact from them, where
// a chat moving up from past its loaded pages was counted twice (issue 25).

let t: TestApp;
let base: string;
let seat: SeatFixture;
let custom: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  seat = await createSeat(t, 'tab-totals');
  custom = await createGroup(t, seat, 'Leads');
  const now = Date.now();
  // The boundary hour of the recent tab on both sides of its edge, older chats, pinned ones,
  // waiting (the customer spoke last) or answered.
  const edge = now - RECENT_WINDOW_MS;
  const times = [
    now - 1000,
    now - 5 * COUNT_HOUR_MS,
    edge + 60_000,
    edge - 60_000,
    now - 2 * RECENT_WINDOW_MS,
  ];
  for (let i = 0; i < 15; i++) {
    await createChat(t.db, seat, {
      groupId: i % 3 === 0 ? custom : seat.groups.ungrouped,
      latestTime: times[i % times.length]!,
      isTop: i % 4 === 0,
      unread: i % 2,
      lastDirection: i % 3 === 1 ? 'out' : 'in',
    });
  }
});
afterAll(async () => {
  await t?.close();
});

async function totalOf(groupId: number, userTimeType: 1 | 2, reply: 0 | 1) {
  const res = await t.call(
    '/v1/seat/chat/getGroupInfo',
    { group_id: groupId, user_time_type: userTimeType, reply, page_size: 1 },
    seat.token,
  );
  return res.data.total;
}

async function expectTotalsOf(list: Group[], reply: 0 | 1) {
  for (const g of list) {
    expect({ group: g.group_type, recent: g.total_recent, earlier: g.total_earlier }).toEqual({
      group: g.group_type,
      recent: await totalOf(g.group_id, 1, reply),
      earlier: await totalOf(g.group_id, 2, reply),
    });
  }
}

describe('the group list’s tab totals', () => {
  it('are getGroupInfo’s totals, for both reply filters', async () => {
    for (const reply of [0, 1] as const) {
      const list = (await t.call('/v1/seat/chat/getGroupList', { reply }, seat.token)).data
        .group_list;
      expect(list.find((g) => g.group_id === custom)!.total_earlier).toBeGreaterThan(0);
      await expectTotalsOf(list, reply);
    }
  });

  it('come with the pushed group list, counting a customer’s new chat', async () => {
    const client = await PushClient.open(base, { token: seat.token });
    try {
      await client.waitFor('ready');
      const before = (await t.call('/v1/seat/chat/getGroupList', {}, seat.token)).data.group_list;
      const ungrouped = before.find((g) => g.group_type === 'ungrouped')!;
      const res = await platformPost(
        t,
        PLATFORM_PATHS.message,
        JSON.stringify({
          id: `tab-totals-${process.pid}`,
          account: seat.phones[0],
          customer: nextPhone('+4478'),
          type: 'text',
          content: 'hello',
        }),
      );
      expect(res.code).toBe('000000');
      const pushed = await client.waitForEvent('groups.changed');
      const list = (pushed.data as { group_list: Group[] }).group_list;
      expect(list.find((g) => g.group_type === 'ungrouped')!.total_recent).toBe(
        ungrouped.total_recent! + 1,
      );
      await expectTotalsOf(list, 0);
    } finally {
      client.close();
    }
  });
});
